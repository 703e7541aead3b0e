/// What a function receives: its operand, its resolved options, the locale, and a place for errors that do
/// not stop it.
public struct FunctionCall: Sendable {
    /// The operand's resolved value (nil for `{:fn}`); a failed operand has a ``ResolvedValue/Base/fallback(_:)``
    /// base.
    public var operand: ResolvedValue?
    /// The options of the expression, resolved (`u:` options removed).
    public var options: [String: ResolvedValue]
    /// The names of the options written as literals (not `$variables`) in this expression.
    public var literalOptions: Set<String>
    /// The locale to format in (the message's, or the expression's `u:locale`).
    public var locale: String
    /// Errors that do not stop the function (a bad option that is ignored).
    public var errors: [MessageError] = []

    public init(
        operand: ResolvedValue?, options: [String: ResolvedValue], literalOptions: Set<String> = [],
        locale: String
    ) {
        self.operand = operand
        self.options = options
        self.literalOptions = literalOptions
        self.locale = locale
    }

    /// Reports an error and goes on.
    public mutating func report(_ kind: MessageError.ResolutionError, _ detail: String) {
        errors.append(.resolution(kind, detail))
    }
}

/// A function: takes the call, returns the value it makes, or throws to make the placeholder a fallback.
public typealias MessageFunction = @Sendable (inout FunctionCall) throws(MessageError) -> ResolvedValue

/// The functions a formatter knows, by name (`number`, `test:select`). Start from ``standard`` and add the
/// draft functions, the test functions or your own.
///
/// ```swift
/// var functions = FunctionRegistry.standard
/// functions.register("shout") { (call: inout FunctionCall) throws(MessageError) -> ResolvedValue in
///     ResolvedValue(string: (call.operand?.stringValue ?? "").uppercased())
/// }
/// ```
public struct FunctionRegistry: Sendable {
    var functions: [String: MessageFunction]

    public init(_ functions: [String: MessageFunction] = [:]) { self.functions = functions }

    /// The stable functions: `:string`, `:number`, `:integer`, `:offset`, `:currency`, `:percent`.
    public static let standard = FunctionRegistry([
        "string": StringFunction.call,
        "number": NumberFunctions.number,
        "integer": NumberFunctions.integer,
        "offset": NumberFunctions.offset,
        "currency": NumberFunctions.currency,
        "percent": NumberFunctions.percent,
    ])

    /// The draft functions of the specification: `:date`, `:time`, `:datetime` and `:unit`.
    public static let draft = FunctionRegistry([
        "date": DateTimeFunctions.date,
        "time": DateTimeFunctions.time,
        "datetime": DateTimeFunctions.datetime,
        "unit": NumberFunctions.unit,
    ])

    /// The test suite's `:test:function`, `:test:select` and `:test:format`.
    public static let testFunctions = FunctionRegistry([
        "test:function": TestFunctions.make(formats: true, selects: true),
        "test:select": TestFunctions.make(formats: false, selects: true),
        "test:format": TestFunctions.make(formats: true, selects: false),
    ])

    /// Adds or replaces the function `name` (`"shout"` or `"my:shout"`).
    public mutating func register(_ name: String, _ function: @escaping MessageFunction) {
        functions[name] = function
    }

    /// This registry with the functions of `other` added (theirs win on the same name).
    public func adding(_ other: FunctionRegistry) -> FunctionRegistry {
        FunctionRegistry(functions.merging(other.functions) { _, new in new })
    }

    /// The function named `name`, if known.
    public subscript(name: String) -> MessageFunction? { functions[name] }
}
