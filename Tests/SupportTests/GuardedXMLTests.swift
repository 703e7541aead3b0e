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
        let notUTF8 = "byte 0xFF is not valid UTF-8 (the file is damaged or not saved as UTF-8)"
        #expect(throws: GuardedXMLError(line: 2, column: 5, message: notUTF8)) {
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
        // Where a DOCTYPE is expected (a property list's), one naming its DTD passes; entity definitions do not.
        #expect(
            throws: GuardedXMLError(
                line: 2, column: 3,
                message: "a DOCTYPE with an internal subset (entity definitions) is not accepted here")
        ) { try GuardedXML.check(laughs, limit: 1 << 20, allowsDoctype: true) }
        let plist = Array(
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"><plist/>"#
                .utf8)
        #expect(throws: Never.self) { try GuardedXML.check(plist, limit: 1 << 20, allowsDoctype: true) }
    }

    @Test func parserErrorsAreSaidInWords() {
        #expect(GuardedXML.describe(libxml2Code: 76) == "the closing tag does not match the element that is open")
        #expect(GuardedXML.describe(libxml2Code: 9999) == "the XML is not well-formed here (libxml2 error 9999)")
        #expect(TextPosition.of(byte: 5, in: Array("a\nbé!".utf8)) == (2, 3))
    }
}

/// The streaming reader: the same events whatever the parts the bytes come in, and its limits.
@Suite struct GuardedXMLReaderTests {
    static func events(_ text: String, chunk: Int) throws -> [String] {
        var reader = GuardedXMLReader()
        var out: [String] = []
        var text8 = ""
        func handle(_ e: GuardedXMLReader.Event) {
            switch e {
            case .start(let ns, let name):
                if !text8.isEmpty { out.append("text " + text8) }
                text8 = ""
                out.append("start \(ns) \(name)")
            case .text(let bytes): text8 += String(decoding: bytes, as: UTF8.self)
            case .end:
                if !text8.isEmpty { out.append("text " + text8) }
                text8 = ""
                out.append("end")
            }
        }
        let bytes = Array(text.utf8)
        var k = 0
        while k < bytes.count {
            try reader.feed(bytes[k..<min(bytes.count, k + chunk)], handle)
            k += chunk
        }
        try reader.finish(handle)
        return out
    }

    @Test func eventsDoNotDependOnHowTheBytesArrive() throws {
        let doc = """
            <?xml version="1.0"?><!-- hi --><d:ms xmlns:d="DAV:" xmlns="urn:x"><d:href>/a&amp;b/é日</d:href>\
            <c a='1'><![CDATA[<raw> & ]]]]>&#233;&#x65E5;</c><e/></d:ms>
            """
        let whole = try Self.events(doc, chunk: 1 << 20)
        #expect(
            whole == [
                "start DAV: ms", "start DAV: href", "text /a&b/é日", "end", "start urn:x c", "text <raw> & ]]é日",
                "end", "start urn:x e", "end", "end",
            ])
        for chunk in [1, 2, 3, 7] { #expect(try Self.events(doc, chunk: chunk) == whole, "chunk \(chunk)") }
    }

    @Test func malformedDeepAndHostileDocumentsAreRefusedWithTheirPosition() {
        func error(_ text: String) -> String {
            do {
                _ = try GuardedXMLReaderTests.events(text, chunk: 5)
                return "accepted"
            } catch let e as GuardedXMLError {
                return "\(e.line):\(e.column): \(e.message)"
            } catch { return "\(error)" }
        }
        #expect(error("<a>\n<b></a>") == "2:4: the closing tag does not match the element that is open")
        #expect(
            error("<a>&bogus;</a>").hasSuffix(
                "an undeclared entity (&name;): XML knows &amp; &lt; &gt; &quot; &apos; only"))
        #expect(error("<a>&#0;</a>") == "1:4: a character reference (&#…;) is not a valid character")
        #expect(error("<a>\u{1}</a>") == "1:4: a character that XML does not allow")
        #expect(error("<x:a/>") == "1:2: the namespace prefix 'x' is not declared")
        #expect(error("<!DOCTYPE a><a/>") == "1:1: a DOCTYPE (entity definitions) is not accepted here")
        #expect(error("<a/><b/>").hasPrefix("1:5: extra content"))
        #expect(error("<a><b>") == "1:7: '</' is expected: an element is not closed")
        #expect(error(String(repeating: "<a>", count: 300)) == "1:769: elements nested deeper than 256")
        #expect(throws: GuardedXMLError.self) {
            try GuardedXML.check(Array(String(repeating: "<a>", count: 300).utf8), limit: 1 << 20, allowsDoctype: false)
        }
    }
}
