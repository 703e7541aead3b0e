package import Support

/// The conformance interface: one request per JSON line, as test runners (this package's, or
/// unicode-org/conformance's) send them, and one JSON line back.
///
/// Request: `{"src": "...", "locale": "en-US", "params": [{"name": "x", "value": 1}], "bidiIsolation":
/// "none", "testFunctions": true, "parts": false}`. Answer: `{"result": "...", "errors": [{"type": "..."}],
/// "parts": [...]}`; the result shows fallbacks where placeholders failed, and is `{�}` when the message
/// itself is not valid.
///
/// ```swift
/// let answer = ConformanceRequest.answer(line: #"{"src": "Hi {$x}", "locale": "en", "params": [{"name": "x", "value": "Ada"}]}"#)
/// // {"result":"Hi ⁨Ada⁩","errors":[]}
/// ```
public struct ConformanceRequest: Sendable {
    public var source: String
    public var locale: String
    public var arguments: [String: MessageArgument]
    public var bidiIsolation: BidiStrategy
    /// Whether the test suite's `:test:*` functions are available.
    public var testFunctions: Bool
    /// Whether the answer carries the formatted parts.
    public var parts: Bool

    public init(
        source: String, locale: String, arguments: [String: MessageArgument] = [:],
        bidiIsolation: BidiStrategy = .default, testFunctions: Bool = false, parts: Bool = false
    ) {
        self.source = source
        self.locale = locale
        self.arguments = arguments
        self.bidiIsolation = bidiIsolation
        self.testFunctions = testFunctions
        self.parts = parts
    }

    /// A request read from its JSON object; nil with a reason when a field has the wrong shape.
    package init(json: JSONValue) throws(RequestError) {
        guard let src = json["src"]?.stringValue else { throw RequestError("\"src\" must be a string") }
        self.init(source: src, locale: json["locale"]?.stringValue ?? "und")
        if let params = json["params"] {
            guard case .array(let items) = params else { throw RequestError("\"params\" must be an array") }
            for item in items {
                guard let name = item["name"]?.stringValue, let value = item["value"] else {
                    throw RequestError("each param needs a \"name\" and a \"value\"")
                }
                arguments[name] = Self.argument(value, type: item["type"]?.stringValue)
            }
        }
        switch json["bidiIsolation"]?.stringValue {
        case nil, "default": bidiIsolation = .default
        case "none": bidiIsolation = .none
        default: throw RequestError("\"bidiIsolation\" is \"default\" or \"none\"")
        }
        testFunctions = json["testFunctions"]?.boolValue ?? false
        parts = json["parts"]?.boolValue ?? false
    }

    /// A JSON value as a message argument: strings, numbers (exact), booleans; `type: "datetime"` reads
    /// ISO 8601 text.
    package static func argument(_ value: JSONValue, type: String?) -> MessageArgument {
        switch value {
        case .string(let s, _): return type == "datetime" ? .isoDateTime(s) : .string(s)
        case .number(let n): return Int(n).map { .integer($0) } ?? .decimal(n)
        case .bool(let b): return .bool(b)
        case .null, .array, .object: return .value(value)
        }
    }

    /// The formatter this request asks for: stable and draft functions, and the test functions if asked.
    public func formatter() throws(MessageError) -> MessageFormatter {
        var functions = FunctionRegistry.standard.adding(.draft)
        if testFunctions { functions = functions.adding(.testFunctions) }
        return try MessageFormatter(source, locale: locale, bidiIsolation: bidiIsolation, functions: functions)
    }

    /// Formats the request: the text, the parts when asked for, and every error met.
    public func run() -> (text: String, parts: [MessagePart]?, errors: [MessageError]) {
        let formatter: MessageFormatter
        do {
            formatter = try self.formatter()
        } catch {
            return ("{\u{FFFD}}", parts ? [.fallback(source: "\u{FFFD}")] : nil, [error])
        }
        if parts {
            let result = formatter.formatToParts(arguments)
            return (result.parts.map(\.text).joined(), result.parts, result.errors)
        }
        let result = formatter.format(arguments)
        return (result.text, nil, result.errors)
    }

    /// The answer to this request as a JSON object.
    package var answer: JSONValue {
        let (text, parts, errors) = run()
        var members = [
            JSONMember(key: "result", value: .string(text)),
            JSONMember(
                key: "errors",
                value: .array(
                    errors.map {
                        .object([
                            JSONMember(key: "type", value: .string($0.name)),
                            JSONMember(key: "message", value: .string($0.description)),
                        ])
                    })),
        ]
        if let parts { members.append(JSONMember(key: "parts", value: .array(parts.map(\.json)))) }
        return .object(members)
    }

    /// Answers one JSON line with one JSON line (an `{"error": "..."}` line when the request is not valid
    /// JSON or lacks `src`).
    public static func answer(line: String) -> String {
        var reader = JSONReader(Array(line.utf8), file: "<stdin>", keepRawText: false)
        do {
            let request = try ConformanceRequest(json: try reader.document())
            return request.answer.compactText
        } catch let error as RequestError {
            return JSONValue.object([JSONMember(key: "error", value: .string(error.message))]).compactText
        } catch let error as JSONReader.SyntaxError {
            let text = "not JSON: column \(error.column): \(error.message)"
            return JSONValue.object([JSONMember(key: "error", value: .string(text))]).compactText
        } catch {
            return JSONValue.object([JSONMember(key: "error", value: .string("\(error)"))]).compactText
        }
    }

    /// Why a request line was refused.
    package struct RequestError: Error {
        package var message: String
        init(_ message: String) { self.message = message }
    }
}
