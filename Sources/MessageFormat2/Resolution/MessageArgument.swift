import Foundation

/// A value passed to a message for one of its `$variables`.
///
/// ```swift
/// let args: [String: MessageArgument] = ["name": "Ada", "count": 3, "price": .decimal("9.90")]
/// ```
public enum MessageArgument: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    case string(String)
    case integer(Int)
    case double(Double)
    /// An exact decimal given as text ("9.90"); text that is not a number is taken as a string.
    case decimal(String)
    case date(Date)
    /// A date and time as ISO 8601 text ("2006-01-02T15:04:06", "2006-01-02").
    case isoDateTime(String)
    case bool(Bool)
    /// Any other value, for custom functions.
    case value(any Sendable)
    /// A value already resolved (for example by a custom function).
    case resolved(ResolvedValue)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }

    func resolved(locale: String) -> ResolvedValue {
        var value: ResolvedValue
        switch self {
        case .string(let s): value = ResolvedValue(base: .string(s))
        case .integer(let i): value = ResolvedValue(base: .number(NumberValue(i)))
        case .double(let d): value = ResolvedValue(base: NumberValue(d).map { .number($0) } ?? .string("\(d)"))
        case .decimal(let s): value = ResolvedValue(base: NumberValue(literal: s).map { .number($0) } ?? .string(s))
        case .date(let d): value = ResolvedValue(base: .date(DateTimeValue(d)))
        case .isoDateTime(let s): value = ResolvedValue(base: DateTimeValue(iso: s).map { .date($0) } ?? .string(s))
        case .bool(let b): value = ResolvedValue(base: .bool(b))
        case .value(let v): value = ResolvedValue(base: .other(v))
        case .resolved(let r): return r
        }
        value.locale = locale
        return value
    }
}
