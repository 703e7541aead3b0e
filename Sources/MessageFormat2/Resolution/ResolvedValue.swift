import Foundation

/// A value a message works with: an argument, a literal, or what a function made of them, with how it
/// formats and how it selects.
///
/// ```swift
/// let value = ResolvedValue(string: "world")
/// value.stringValue   // "world"
/// ```
public struct ResolvedValue: Sendable {
    /// What the value is underneath.
    public enum Base: Sendable {
        case string(String)
        case number(NumberValue)
        case date(DateTimeValue)
        case bool(Bool)
        case other(any Sendable)
        /// A value that failed to resolve, with its fallback source (`$x`, `|lit|`, `:fn`).
        case fallback(String)
    }

    /// Which way the formatted text runs.
    public enum Direction: String, Sendable, Hashable {
        case ltr, rtl
        /// Not known: the text is isolated with U+2068 FIRST STRONG ISOLATE.
        case auto
    }

    /// Formats a value; `parts` asks for the value's parts as well as its text.
    public typealias FormatBody =
        @Sendable (_ value: ResolvedValue, _ parts: Bool) throws(MessageError) ->
        FormattedValue
    /// Returns the keys that match the value, best first; may report non-fatal errors (bad variant keys).
    public typealias SelectBody =
        @Sendable (_ value: ResolvedValue, _ keys: [String], _ errors: inout [MessageError])
        throws(MessageError) -> [String]

    public var base: Base
    /// The function that made the value ("number", "test:select"), or nil for arguments and literals.
    public var function: String?
    /// The options the function resolved, which a later function given this value as operand inherits.
    public var options: [String: ResolvedValue]
    /// The locale the value formats in.
    public var locale: String
    /// The `u:dir` given to the value's expression, if any.
    public var direction: Direction?
    /// The `u:id` given to the value's expression, if any.
    public var id: String?
    /// How the value formats; nil formats its string form.
    public var format: FormatBody?
    /// How the value selects; nil when it cannot be a selector.
    public var select: SelectBody?

    public init(
        base: Base, function: String? = nil, options: [String: ResolvedValue] = [:], locale: String = "und",
        format: FormatBody? = nil, select: SelectBody? = nil
    ) {
        self.base = base
        self.function = function
        self.options = options
        self.locale = locale
        self.format = format
        self.select = select
    }

    /// A plain string value.
    public init(string: String) { self.init(base: .string(string)) }

    /// The value as a string when it is a string or a number literal's text; nil otherwise.
    public var stringValue: String? {
        switch base {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        default: nil
        }
    }

    /// The value as a number when it is one or is a string that is a number literal.
    public var numberValue: NumberValue? {
        switch base {
        case .number(let n): n
        case .string(let s): NumberValue(literal: s)
        default: nil
        }
    }

    /// The value as a non-negative integer (a "digit size option" value), or nil.
    public var digitSize: Int? {
        guard let n = numberValue, let i = Int(n.text), i >= 0, i <= 999 else { return nil }
        return i
    }

    var isFallback: Bool {
        if case .fallback = base { return true }
        return false
    }
}

/// An exact decimal number.
public struct NumberValue: Sendable, Hashable {
    /// The number.
    public var decimal: Decimal
    /// Its canonical decimal text ("-4.2", "1000"): what ICU formats.
    public var text: String

    public init(_ decimal: Decimal) {
        self.decimal = decimal
        text = decimal.description
    }

    public init(_ int: Int) {
        decimal = Decimal(int)
        text = String(int)
    }

    public init?(_ double: Double) {
        guard double.isFinite else { return nil }
        self.init(Decimal(string: "\(double)") ?? Decimal(double))
    }

    /// A number from text matching the syntax's `number-literal`; nil for any other text.
    public init?(literal: String) {
        guard Characters.isNumberLiteral(literal) else { return nil }
        if let i = Int(literal) {
            self.init(i)
        } else if let d = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")) {
            self.init(d)
        } else {
            return nil
        }
    }
}

/// A date and time: a moment, and whether it was given with a time and a zone.
public struct DateTimeValue: Sendable, Hashable {
    /// Milliseconds since 1970-01-01T00:00:00Z (for a floating time, as if it were UTC).
    public var millisecondsSince1970: Double
    /// The time zone to show it in (nil: a floating time, shown as given).
    public var timeZone: String?

    public init(millisecondsSince1970: Double, timeZone: String? = nil) {
        self.millisecondsSince1970 = millisecondsSince1970
        self.timeZone = timeZone
    }

    public init(_ date: Date) { self.init(millisecondsSince1970: date.timeIntervalSince1970 * 1000, timeZone: "UTC") }
}

/// A formatted placeholder: its text, its direction and, when asked for, its parts.
public struct FormattedValue: Sendable, Hashable {
    /// The part type ("string", "number", "datetime", "test" or a custom function's own).
    public var type: String
    public var text: String
    public var direction: ResolvedValue.Direction
    /// The pieces of the text (`integer`, `decimal`, `fraction`, `currency`, …) when the value has them.
    public var parts: [FormattedSubpart]?

    public init(type: String, text: String, direction: ResolvedValue.Direction, parts: [FormattedSubpart]? = nil) {
        self.type = type
        self.text = text
        self.direction = direction
        self.parts = parts
    }
}

/// One piece of a formatted value.
public struct FormattedSubpart: Sendable, Hashable {
    public var type: String
    public var value: String
    public init(type: String, value: String) {
        self.type = type
        self.value = value
    }
}
