/// One part of a message formatted to parts: the shape of the test suite's `expParts`.
public enum MessagePart: Sendable, Hashable {
    /// Text of the pattern.
    case text(String)
    /// A bidi isolation mark around a placeholder (U+2066…U+2069).
    case bidiIsolation(String)
    /// Markup, with its resolved options (`u:` options removed) and its `u:id`.
    case markup(kind: Markup.Kind, name: String, id: String?, options: [String: String])
    /// A formatted placeholder.
    case expression(ExpressionPart)
    /// A placeholder that could not be resolved or formatted, with its fallback source (`$x`, `|lit|`).
    case fallback(source: String)

    /// The text the part contributes to the formatted string.
    public var text: String {
        switch self {
        case .text(let s), .bidiIsolation(let s): s
        case .markup: ""
        case .expression(let e): e.value.text
        case .fallback(let source): "{\(source)}"
        }
    }
}

/// A formatted placeholder as a part: its formatted value, locale, `u:dir` and `u:id`.
public struct ExpressionPart: Sendable, Hashable {
    public var value: FormattedValue
    public var locale: String
    /// The `u:dir` given (`ltr` or `rtl`); nil when none or `auto`.
    public var direction: ResolvedValue.Direction?
    public var id: String?

    public init(value: FormattedValue, locale: String, direction: ResolvedValue.Direction? = nil, id: String? = nil) {
        self.value = value
        self.locale = locale
        self.direction = direction
        self.id = id
    }
}

/// How placeholders are isolated from the text around them.
public enum BidiStrategy: String, Sendable, Hashable {
    /// The specification's default strategy: U+2066/2067/2068 … U+2069 around placeholders whose direction
    /// differs from the message's or is unknown.
    case `default`
    /// No isolation marks.
    case none
}

/// What formatting returns: the text (with fallbacks where placeholders failed) and the errors met.
public struct FormatResult: Sendable, Hashable {
    public var text: String
    public var errors: [MessageError]
}

/// What formatting to parts returns: the parts and the errors met.
public struct PartsResult: Sendable, Hashable {
    public var parts: [MessagePart]
    public var errors: [MessageError]
}
