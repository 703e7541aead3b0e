/// A value a template renders: the context type of the engine. No reflection is involved: dictionaries,
/// arrays and scalars are cases of this enum, and your own types join through ``MustacheObject``.
///
/// ```swift
/// let context: MustacheValue = ["name": "Ada", "guests": [["name": "Bob"], ["name": "Eve"]], "vip": true]
/// let html = try MustacheTemplate("Hi {{name}}").render(context)
/// ```
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// An instant, in milliseconds since 1970 UTC (for the `date` helper and `{x, date, long}` messages).
    case date(Double)
    case array([MustacheValue])
    case dictionary(MustacheDictionary)
    /// A value of your own type, asked for its keys on demand (no reflection).
    indirect case object(any MustacheObject)
    /// A closure called by `{{name}}` or `{{#name}}…{{/name}}` (Mustache lambdas).
    case lambda(MustacheLambda)

    /// Whether a section shows its content (`false`, `null` and empty lists are falsy; a lambda is truthy).
    @inlinable public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .array(let a): return !a.isEmpty
        case .object(let o): return o.mustacheIsTruthy
        default: return true
        }
    }

    /// The member named `key` of a dictionary or object; `nil` for every other case.
    @inlinable public func member(_ key: String) -> MustacheValue? {
        switch self {
        case .dictionary(let d): return d[key]
        case .object(let o): return o.mustacheValue(forKey: key)
        default: return nil
        }
    }

    /// Member lookup with the key's precomputed hash (the renderer's path).
    @inline(__always) func member(_ key: String, hash: UInt64) -> MustacheValue? {
        switch self {
        case .dictionary(let d): return d.value(forKey: key, hash: hash)
        case .object(let o): return o.mustacheValue(forKey: key)
        default: return nil
        }
    }

    /// The text of a scalar as it is interpolated (`nil` for lists, dictionaries, objects and lambdas).
    public var scalarText: String? {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .string(let s): return s
        case .date(let ms): return String(ms)
        case .array, .dictionary, .lambda: return nil
        case .object(let o): return o.mustacheText
        }
    }
}

/// A type of your own that templates can read without reflection: answer the keys templates ask for.
///
/// ```swift
/// struct Person: MustacheObject {
///     var name: String, age: Int
///     func mustacheValue(forKey key: String) -> MustacheValue? {
///         switch key { case "name": .string(name); case "age": .int(age); default: nil }
///     }
/// }
/// ```
public protocol MustacheObject: Sendable {
    /// The value for `key`, or `nil` when the object has no such key (the lookup then goes down the stack).
    func mustacheValue(forKey key: String) -> MustacheValue?
    /// Whether a section over this object shows its content (default `true`).
    var mustacheIsTruthy: Bool { get }
    /// The text `{{object}}` interpolates (default `nil`: not interpolatable).
    var mustacheText: String? { get }
}

extension MustacheObject {
    public var mustacheIsTruthy: Bool { true }
    public var mustacheText: String? { nil }
}

/// A Swift value that converts itself into a ``MustacheValue``.
///
/// ```swift
/// struct Order: MustacheConvertible {
///     var id: Int
///     var mustacheValue: MustacheValue { ["id": .int(id)] }
/// }
/// ```
public protocol MustacheConvertible {
    var mustacheValue: MustacheValue { get }
}

extension String: MustacheConvertible { public var mustacheValue: MustacheValue { .string(self) } }
extension Int: MustacheConvertible { public var mustacheValue: MustacheValue { .int(self) } }
extension Double: MustacheConvertible { public var mustacheValue: MustacheValue { .double(self) } }
extension Bool: MustacheConvertible { public var mustacheValue: MustacheValue { .bool(self) } }
extension Array: MustacheConvertible where Element: MustacheConvertible {
    public var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}
extension Dictionary: MustacheConvertible where Key == String, Value: MustacheConvertible {
    public var mustacheValue: MustacheValue { .dictionary(MustacheDictionary(mapValues(\.mustacheValue))) }
}
extension Optional: MustacheConvertible where Wrapped: MustacheConvertible {
    public var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(MustacheDictionary(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// What a lambda gives back.
public enum LambdaResult: Sendable {
    /// Mustache source, rendered in the current context (section lambdas: with the current delimiters;
    /// interpolation lambdas: with the default ones, then escaped).
    case template(String)
    /// Text escaped for the render's output (HTML, header or plain text).
    case text(String)
    /// Text inserted exactly as given.
    case raw(String)
}

/// A Mustache lambda: a closure that sees the section's raw text (nil for `{{name}}`) and the render
/// (context lookups, locale, message catalog).
///
/// ```swift
/// let bold = MustacheLambda { call in .template("<b>" + (call.sectionText ?? "") + "</b>") }
/// try MustacheTemplate("{{#bold}}{{name}}{{/bold}}").render(["bold": .lambda(bold), "name": "Ada"])
/// ```
public struct MustacheLambda: Sendable {
    public let body: @Sendable (LambdaCall) throws -> LambdaResult
    /// Whether a `.text` result is a value to isolate (``RenderOptions/bidiIsolation``); not for `t`,
    /// whose result is a sentence of the render's own language (its arguments are isolated inside it).
    var isolatesResult = true
    public init(_ body: @escaping @Sendable (LambdaCall) throws -> LambdaResult) { self.body = body }
    init(isolatesResult: Bool, _ body: @escaping @Sendable (LambdaCall) throws -> LambdaResult) {
        self.body = body
        self.isolatesResult = isolatesResult
    }
}
