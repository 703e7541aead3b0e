internal import Support

extension MessageArgument {
    /// A `NAME=VALUE` assignment from a command line: VALUE that is a number literal ("3", "-4.20", "1e3")
    /// becomes an exact decimal, other VALUE a string. Nil when there is no `=` or no NAME.
    ///
    /// ```swift
    /// MessageArgument.assignment("count=3")   // ("count", .decimal("3"))
    /// ```
    public static func assignment(_ text: String) -> (name: String, value: MessageArgument)? {
        guard let eq = text.firstIndex(of: "="), eq > text.startIndex else { return nil }
        let name = String(text[..<eq])
        let value = String(text[text.index(after: eq)...])
        return (name, Characters.isNumberLiteral(value) ? .decimal(value) : .string(value))
    }

    /// `NAME=VALUE` texts (``assignment(_:)``) as arguments, a later NAME winning, and the texts that are not
    /// assignments, in order.
    ///
    /// ```swift
    /// MessageArgument.assignments(["n=3", "oops"])   // (["n": .decimal("3")], malformed: ["oops"])
    /// ```
    public static func assignments(_ texts: [String]) -> (arguments: [String: MessageArgument], malformed: [String]) {
        var arguments: [String: MessageArgument] = [:]
        var malformed: [String] = []
        for text in texts {
            if let (name, value) = assignment(text) { arguments[name] = value } else { malformed.append(text) }
        }
        return (arguments, malformed)
    }

    /// The arguments of a JSON object (`{"count": 3, "name": "Ada"}`): strings, exact numbers, booleans.
    /// Throws the reader's error (file, line, column) or a message when the document is not an object.
    package static func arguments(json bytes: [UInt8], file: String) throws -> [String: MessageArgument] {
        var reader = JSONReader(bytes, file: file, keepRawText: false)
        guard case .object(let members) = try reader.document() else {
            throw MessageError.resolution(.functionError, "\(file): the arguments must be a JSON object")
        }
        var out: [String: MessageArgument] = [:]
        for m in members { out[m.key] = ConformanceRequest.argument(m.value, type: nil) }
        return out
    }
}

extension MessageError {
    /// The error as a compiler-style line: `FILE:LINE:COLUMN: NAME: detail` (data-model errors at 1:1).
    ///
    /// ```swift
    /// MessageError.syntax(line: 2, column: 4, message: "unescaped '}' in text").diagnostic(file: "a.mf2")
    /// // "a.mf2:2:4: syntax-error: unescaped '}' in text"
    /// ```
    public func diagnostic(file: String) -> String {
        switch self {
        case .syntax(let line, let column, let message): "\(file):\(line):\(column): syntax-error: \(message)"
        case .conversion(let line, let column, let message): "\(file):\(line):\(column): \(message)"
        case .dataModel(let kind, let detail): "\(file):1:1: \(kind.rawValue): \(detail)"
        case .resolution(let kind, let detail): "\(file):1:1: \(kind.rawValue): \(detail)"
        }
    }
}
