import Support
import Testing

/// The package's one JSON string escaper, in JSONEncoder's spelling and in Xcode's (string catalogs).
@Suite struct JSONTextTests {
    @Test func quotedAsJSONEncoderSpellsIt() {
        #expect(JSONText.quoted("plain / ünï") == "\"plain / ünï\"")
        #expect(JSONText.quoted("a\"b\\c\n\r\t\u{8}\u{C}\u{1}") == "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\"")
    }

    @Test func quotedAsXcodeSpellsIt() {
        // Xcode writes backspace and form feed as \u escapes; the rest as JSONEncoder does.
        #expect(
            JSONText.quoted("a\"b\\c\n\r\t\u{8}\u{C}\u{1F}", shortBackspaceAndFormFeed: false)
                == "\"a\\\"b\\\\c\\n\\r\\t\\u0008\\u000c\\u001f\"")
    }

    /// The Encodable writer and the piecewise one spell the same value the same way (a listing streamed
    /// piece by piece reads like one encoded whole).
    @Test func encodedAndWrittenAgree() throws {
        struct Row: Encodable {
            var name: String
            var id: String
            var tags: [String]
        }
        let rows = [Row(name: "Zoë \"Z\" / 1", id: "a\u{1}", tags: ["x", "y"]), Row(name: "", id: "b", tags: [])]
        let value = JSONValue.array(
            rows.map { row in
                .object([
                    JSONMember(key: "id", value: .string(row.id)),
                    JSONMember(key: "name", value: .string(row.name)),
                    JSONMember(key: "tags", value: .array(row.tags.map { .string($0) })),
                ])
            })
        #expect(try JSONText.encoded(rows) == JSONText.written(value))
        #expect(try JSONText.encoded(["b": 1, "a": 2]) == "{\n  \"a\" : 2,\n  \"b\" : 1\n}")
    }
}
