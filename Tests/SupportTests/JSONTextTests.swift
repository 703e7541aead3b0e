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
}
