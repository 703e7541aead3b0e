package import Support

extension ICUMessageConverter {
    /// One converted line of a batch: its 1-based line number, the MessageFormat 1 text and the MF2 text or
    /// the error.
    public struct LineResult: Sendable {
        public var line: Int
        public var source: String
        public var result: Result<String, MessageError>

        /// `FILE:LINE:COLUMN: message` for a failed line (the column in the line's MessageFormat 1 text).
        public func diagnostic(file: String) -> String? {
            guard case .failure(let error) = result else { return nil }
            if case .conversion(let line, let column, let message) = error {
                return "\(file):\(self.line + line - 1):\(column): \(message)"
            }
            return "\(file):\(line):1: \(error)"
        }

        /// The result as one JSON object: `{"line":1,"source":"…","result":"…"}` or, when it failed,
        /// `{"line":1,"source":"…","error":{"line":1,"column":5,"message":"…"}}`.
        package var json: JSONValue {
            var members = [
                JSONMember(key: "line", value: .number(String(line))),
                JSONMember(key: "source", value: .string(source)),
            ]
            switch result {
            case .success(let text): members.append(JSONMember(key: "result", value: .string(text)))
            case .failure(let error):
                var detail: [JSONMember] = []
                if case .conversion(let line, let column, let message) = error {
                    detail = [
                        JSONMember(key: "line", value: .number(String(line))),
                        JSONMember(key: "column", value: .number(String(column))),
                        JSONMember(key: "message", value: .string(message)),
                    ]
                } else {
                    detail = [JSONMember(key: "message", value: .string("\(error)"))]
                }
                members.append(JSONMember(key: "error", value: .object(detail)))
            }
            return .object(members)
        }

        /// The result as one line of JSON: `{"line":1,"source":"…","result":"…"}` or, when it failed,
        /// `{"line":1,"source":"…","error":{"line":1,"column":5,"message":"…"}}`.
        public var jsonLine: String { json.compactText }
    }

    /// Converts each non-blank line of `text` as its own message; a line that fails does not stop the others.
    ///
    /// ```swift
    /// for line in ICUMessageConverter.convertLines("{n, plural, one {#} other {#}}\n{n, choice, 0#x}") {
    ///     print(line.diagnostic(file: "messages.txt") ?? "ok")
    /// }
    /// ```
    public static func convertLines(_ text: String) -> [LineResult] {
        var out: [LineResult] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var source = String(line)
            if source.hasSuffix("\r") { source.removeLast() }
            if source.allSatisfy(\.isWhitespace) { continue }
            out.append(convertMessage(source, line: i + 1))
        }
        return out
    }

    /// Converts one message (which may span lines) that starts on line `line` of its file.
    public static func convertMessage(_ source: String, line: Int = 1) -> LineResult {
        LineResult(line: line, source: source, result: Result { () throws(MessageError) in try convert(source) })
    }
}
