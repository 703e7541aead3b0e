import Testing

@testable import Support

/// The checks every outside XML document passes (`GuardedXML`), and positions by `TextPosition`.
@Suite struct GuardedXMLTests {
    @Test func sizeBytesAndDoctypeAreRefusedWithTheirPosition() {
        let ok = Array(#"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">é</d:multistatus>"#.utf8)
        #expect(throws: Never.self) { try GuardedXML.check(ok, limit: 1 << 20, allowsDoctype: false) }
        #expect(throws: GuardedXMLError(line: 1, column: 1, message: "larger than 10 bytes")) {
            try GuardedXML.check(ok, limit: 10, allowsDoctype: false)
        }
        // The invalid byte is on line 2, after "<a>é" (4 characters, 5 bytes).
        let broken: [UInt8] = Array("<r>\n<a>é".utf8) + [0xFF] + Array("</a></r>".utf8)
        #expect(throws: GuardedXMLError(line: 2, column: 5, message: "not valid UTF-8")) {
            try GuardedXML.check(broken, limit: 1 << 20, allowsDoctype: true)
        }
        #expect(GuardedXML.firstInvalidUTF8([0x61, 0xE2, 0x82]) == 1)
        #expect(GuardedXML.firstInvalidUTF8([0xC0, 0x80]) == 0)
        #expect(GuardedXML.firstInvalidUTF8(Array("日本".utf8)) == nil)
        let laughs = Array("<?xml version=\"1.0\"?>\n  <!doctype lolz [<!ENTITY lol \"lol\">]><lolz/>".utf8)
        #expect(
            throws: GuardedXMLError(
                line: 2, column: 3, message: "a DOCTYPE (entity definitions) is not accepted here")
        ) { try GuardedXML.check(laughs, limit: 1 << 20, allowsDoctype: false) }
        #expect(throws: Never.self) { try GuardedXML.check(laughs, limit: 1 << 20, allowsDoctype: true) }
    }

    @Test func parserErrorsAreSaidInWords() {
        #expect(GuardedXML.describe(libxml2Code: 76) == "the closing tag does not match the element that is open")
        #expect(GuardedXML.describe(libxml2Code: 9999) == "the XML is not well-formed here (libxml2 error 9999)")
        #expect(TextPosition.of(byte: 5, in: Array("a\nbé!".utf8)) == (2, 3))
    }
}
