import Support

extension MustacheValue {
    /// Reads JSON into a context value (objects become dictionaries; integers stay integers). Errors name
    /// `file`, line and column and say what was expected.
    ///
    /// ```swift
    /// let ctx = try MustacheValue(json: Array(#"{"name": "Ada", "n": 3}"#.utf8), file: "data.json")
    /// ```
    public init(json bytes: [UInt8], file: String = "<json>") throws {
        // The package's one JSON reader (member order kept; literal text not needed here).
        var reader = JSONReader(bytes, file: file, keepRawText: false)
        do { self = MustacheValue(try reader.document()) } catch {
            throw TemplatingError.badData(
                file: error.file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// Objects become dictionaries (a later duplicate key wins, in the first one's place), integers that
    /// fit stay integers, other numbers are doubles.
    init(_ json: JSONValue) {
        switch json {
        case .object(let members):
            self = .dictionary(MustacheDictionary(entries: members.map { ($0.key, MustacheValue($0.value)) }))
        case .array(let items): self = .array(items.map(MustacheValue.init))
        case .string(let text, _): self = .string(text)
        case .number(let text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let n = Int(text) {
                self = .int(n)
            } else {
                self = .double(Double(text) ?? .nan)
            }
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        }
    }
}
