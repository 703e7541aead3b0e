import Testing

@testable import Support

@Suite("One JSON reader for catalogs and template data")
struct JSONReaderTests {
    @Test("nesting beyond the limit is an error with its position, not a stack overflow")
    func deepNestingIsAnError() {
        var reader = JSONReader(Array(repeating: UInt8(ascii: "["), count: 200_000), file: "deep.json")
        #expect {
            try reader.document()
        } throws: { error in
            guard let e = error as? JSONReader.SyntaxError else { return false }
            return e.file == "deep.json" && e.line == 1 && e.column == JSONReader.maximumDepth + 1
                && e.message.contains("nests more than")
        }
    }

    @Test("member order, literal text and numbers as written are kept")
    func losslessValues() throws {
        var reader = JSONReader(Array(#"{"b": "\u00e9", "a": [1.50, -2e3, true, null]}"#.utf8), file: "x.json")
        let value = try reader.document()
        #expect(value.members?.map(\.key) == ["b", "a"])
        #expect(value["b"] == .string("é", raw: #""\u00e9""#))
        #expect(value["a"] == .array([.number("1.50"), .number("-2e3"), .bool(true), .null]))
    }

    @Test(
        "malformed input names line and column",
        arguments: [
            ("{\"a\": 1,\n \"b\": 2 \"c\": 3}", 2, 9), ("[1, 2, \"x", 1, 8), ("[1.]", 1, 2), ("[-]", 1, 2),
            ("[\"\\ud800\"]", 1, 9), ("{\"a\" 1}", 1, 6), ("[1] x", 1, 5),
        ])
    func errorsHavePositions(_ text: String, _ line: Int, _ column: Int) {
        var reader = JSONReader(Array(text.utf8), file: "x.json")
        #expect {
            try reader.document()
        } throws: { error in
            guard let e = error as? JSONReader.SyntaxError else { return false }
            return e.line == line && e.column == column
        }
    }
}
