/// An error of a MessageFormat 2 message, named as the specification and its test suite name it.
///
/// Syntax and data-model errors make a message unusable; resolution errors are reported beside a result
/// that shows a fallback (`{$name}`) where the failing placeholder was.
///
/// ```swift
/// do { _ = try Message(parsing: "{oops") } catch { print(error.name) }   // "syntax-error"
/// ```
public enum MessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not MessageFormat 2 (what the author wrote wrong), with a 1-based line and column.
    case syntax(line: Int, column: Int, message: String)
    /// The message parses but breaks a rule of the data model (what the author wrote wrong).
    case dataModel(DataModelError, String)
    /// An ICU MessageFormat 1 message that does not parse, or has no MessageFormat 2 equivalent (a `choice`
    /// argument, a date style), with a 1-based line and column in the MessageFormat 1 text.
    case conversion(line: Int, column: Int, message: String)
    /// A placeholder could not be resolved, selected or formatted (what the caller or the message did).
    case resolution(ResolutionError, String)

    /// Data-model error kinds.
    public enum DataModelError: String, Sendable, Hashable {
        case variantKeyMismatch = "variant-key-mismatch"
        case missingFallbackVariant = "missing-fallback-variant"
        case missingSelectorAnnotation = "missing-selector-annotation"
        case duplicateDeclaration = "duplicate-declaration"
        case duplicateOptionName = "duplicate-option-name"
        case duplicateVariant = "duplicate-variant"
    }

    /// Resolution and formatting error kinds.
    public enum ResolutionError: String, Sendable, Hashable {
        case unresolvedVariable = "unresolved-variable"
        case unknownFunction = "unknown-function"
        case badOperand = "bad-operand"
        case badOption = "bad-option"
        case badSelector = "bad-selector"
        case badVariantKey = "bad-variant-key"
        /// A function that only selects was asked to format.
        case notFormattable = "not-formattable"
        /// Any other failure of a function (an ICU error, a custom function's own failure).
        case functionError = "message-function-error"
    }

    /// True for what the message's author wrote wrong (syntax, data model, a MessageFormat 1 text that does
    /// not convert), false for what failed while formatting (``resolution(_:_:)``): the cases split by
    /// audience.
    public var isUsageError: Bool {
        if case .resolution = self { return false }
        return true
    }

    /// The error's name in the specification's test suite ("syntax-error", "bad-operand", …).
    public var name: String {
        switch self {
        case .syntax: "syntax-error"
        case .conversion: "conversion-error"
        case .dataModel(let kind, _): kind.rawValue
        case .resolution(let kind, _): kind.rawValue
        }
    }

    public var description: String {
        switch self {
        case .syntax(let line, let column, let message): "\(line):\(column): syntax error: \(message)"
        case .conversion(let line, let column, let message): "\(line):\(column): cannot convert: \(message)"
        case .dataModel(let kind, let detail): "\(kind.rawValue): \(detail)"
        case .resolution(let kind, let detail): "\(kind.rawValue): \(detail)"
        }
    }

    static func bad(_ kind: ResolutionError, _ detail: String) -> MessageError { .resolution(kind, detail) }
}
