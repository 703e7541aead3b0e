import Foundation
import Testing

@testable import StringsCatalog

/// A parsed document keeps the file's text once and its entries and the text between them are ranges of it;
/// edited pieces get text of their own. Writing back must still give the file byte for byte, and an edit
/// must change only the edited bytes.
@Suite("StringsDocument text kept as ranges of the file")
struct StringsDocumentStorageTests {
    /// Non-ASCII keys, values and comments, CRLF and U+2028 line breaks, escapes, the short form, a
    /// missing `;` and skipped text.
    static let sample =
        "/* Größe ✓ */\r\n\"größe\" = \"Größe 😀\";\r\n"
        + "// 日本語のコメント\n\"日本\" = \"日本語 \\U00e9\";\u{2028}\"short\";\n"
        + "\"a\"/* mid */=/* before */\"1\" ; // after\n"
        + "# stray line\n"
        + "'sq' = 'x';\t\n\"last\" = \"v\"\n"

    @Test func unchangedDocumentWritesBackItsBytes() throws {
        let bytes = Array(Self.sample.utf8)
        let doc = StringsDocument(parsing: bytes)
        #expect(doc.hasErrors)  // the stray line and the missing ';'
        #expect(doc.text == Self.sample)
        #expect(try [UInt8](doc.data()) == bytes)
        #expect(doc.entries.map(\.key) == ["größe", "日本", "short", "a", "sq", "last"])
        #expect(doc["日本"] == "日本語 é")
        #expect(doc.comment(forKey: "größe") == "Größe ✓")
        #expect(doc.comment(forKey: "日本") == "日本語のコメント")
        #expect(doc.entries[1].rawText == "\"日本\" = \"日本語 \\U00e9\";")
        #expect(doc.entries[3].rawMiddle == "/* mid */=/* before */")
        #expect(doc.entries[3].rawEnd == " ;")
        #expect(doc.entries[5].rawEnd == "")
        // The segments give the same text in the same order.
        let joined = doc.segments.map { segment -> String in
            switch segment {
            case .trivia(let t): return t
            case .entry(let e): return e.rawText
            }
        }.joined()
        #expect(joined == Self.sample)
        #expect(StringsDocument(parsing: bytes) == doc)
        #expect(StringsDocument(parsing: bytes).hashValue == doc.hashValue)
    }

    /// Each entry edited in turn: the bytes are the file's with only that value replaced.
    @Test(arguments: ["größe", "日本", "a", "sq", "last"])
    func editChangesOnlyTheValue(key: String) throws {
        var doc = StringsDocument(parsing: Array(Self.sample.utf8))
        let before = try #require(doc.entries.last { $0.key == key })
        let oldValue = try #require(before.rawValue)
        doc.setValue("neu \"ü\"", forKey: key)
        let expected = Self.sample.replacingOccurrences(
            of: before.rawText,
            with: before.rawText.replacingOccurrences(
                of: oldValue, with: "\"neu \\\"ü\\\"\""))
        #expect(expected != Self.sample)
        #expect(String(decoding: try doc.data(), as: UTF8.self) == expected)
        #expect(doc[key] == "neu \"ü\"")
        #expect(doc.comment(forKey: key) == StringsDocument(parsing: Array(Self.sample.utf8)).comment(forKey: key))
        // Read back, the other entries are what they were.
        let reparsed = StringsDocument(parsing: try doc.data())
        for e in StringsDocument(parsing: Array(Self.sample.utf8)).entries where e.key != key {
            #expect(reparsed[e.key] == e.value)
        }
    }

    @Test func editingTheShortFormWritesAFullEntry() throws {
        var doc = StringsDocument(parsing: Array(Self.sample.utf8))
        doc.setValue("Kurz", forKey: "short")
        let expected = Self.sample.replacingOccurrences(of: "\"short\";", with: "\"short\" = \"Kurz\";")
        #expect(doc.text == expected)
        #expect(doc.entries[2].isShortForm == false)
    }

    /// A UTF-16 or UTF-32 file is kept as UTF-8 text: unchanged it writes back exactly, edited it is written
    /// in its own encoding with only the value changed.
    @Test(arguments: [
        TextEncoding.utf16LE(bom: true), .utf16BE(bom: true), .utf32LE(bom: true), .utf32BE(bom: true),
        .utf8(bom: true),
    ])
    func otherEncodingsWriteBackExactly(encoding: TextEncoding) throws {
        let bytes = encoding.encode(Self.sample)
        let doc = StringsDocument(parsing: bytes)
        #expect(doc.format == .text(encoding))
        #expect(doc.text == Self.sample)
        #expect(try [UInt8](doc.data()) == bytes)
        var edited = doc
        edited.setValue("🎉", forKey: "größe")
        let expected = Self.sample.replacingOccurrences(of: "\"Größe 😀\"", with: "\"🎉\"")
        #expect(try [UInt8](edited.data()) == encoding.encode(expected))
        var removed = doc
        let didRemove = removed.removeEntry(forKey: "größe")
        #expect(didRemove)
        let withoutEntry = Self.sample.replacingOccurrences(of: "\"größe\" = \"Größe 😀\";", with: "")
        #expect(try [UInt8](removed.data()) == encoding.encode(withoutEntry))
    }

    @Test func invalidBytesWriteBackUnchangedOnly() throws {
        let bytes: [UInt8] = Array("\"a\" = \"".utf8) + [0xC3, 0x28] + Array("\";\n\"b\" = \"2\";\n".utf8)
        var doc = StringsDocument(parsing: bytes)
        #expect(doc.diagnostics.first?.code == "encoding")
        #expect(doc["b"] == "2")
        #expect(try [UInt8](doc.data()) == bytes)
        doc.setValue("3", forKey: "b")
        let changed = doc
        #expect(throws: StringsCatalogError.self) { try changed.data() }
    }

    /// Columns count Unicode scalars, also after multi-byte characters and on a long line of many entries.
    @Test func positionsCountScalars() {
        let doc = StringsDocument(parsing: Array("\"é😀\" = \"ü\"; \"k\" = \"v\"; ; \"z\" = \"w\";\n".utf8))
        #expect(doc.entries.map(\.column) == [1, 13, 26])
        #expect(doc.entries.map(\.valueColumn) == [8, 19, 32])
        let stray = doc.diagnostics.first { $0.message.contains("stray ';'") }
        #expect(stray?.line == 1 && stray?.column == 24)
        var line = ""
        for k in 0..<200 { line += "\"ключ\(k)\" = \"значение\"; " }
        let long = StringsDocument(parsing: Array((line + "\n\"x\" = \"y\";\n").utf8))
        #expect(long.entries.count == 201)
        var column = 1
        for (k, e) in long.entries.prefix(200).enumerated() {
            #expect(e.line == 1 && e.column == column, "entry \(k)")
            column += "\"ключ\(k)\" = \"значение\"; ".unicodeScalars.count
        }
        #expect(long.entries.last?.line == 2 && long.entries.last?.column == 1)
    }

    /// Removing neighbouring entries one after the other: each removal looks only at the text right
    /// around the entry (its comment, the rest of its line), also in a file with CRLF line breaks.
    @Test func removingNeighboursOneByOne() {
        var doc = StringsDocument(parsing: Array("\"x\" = \"1\";\r\n\"y\" = \"2\";\n// Two keys\n\"a\"=\"1\";\n".utf8))
        let removed = ["x", "y", "a"].map { doc.removeEntry(forKey: $0) }
        #expect(removed == [true, true, true])
        #expect(doc.text == "\r\n")
        #expect(doc.entries.isEmpty)
        var added = StringsDocument(parsing: Array("\"x\" = \"1\";".utf8))
        added.setValue("2", forKey: "n", comment: "new")
        #expect(added.text == "\"x\" = \"1\";\n\n/* new */\n\"n\" = \"2\";\n")
        #expect(added.entries.last?.line == 4)
        let removedNew = added.removeEntry(forKey: "n")
        #expect(removedNew)
        #expect(added.text == "\"x\" = \"1\";\n\n")
    }

    /// The UTF-8 check used to keep valid files without a copy agrees with the standard library.
    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        var cases: [[UInt8]] = [
            [], Array("plain ascii text longer than eight bytes".utf8), Array("Größe 😀 日本".utf8),
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xFF], Array("12345678".utf8) + [0xC3, 0x28],
            [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
        ]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<(Int(seed % 13)) {
                seed ^= seed << 13
                seed ^= seed >> 7
                seed ^= seed << 17
                bytes.append(seed % 3 == 0 ? UInt8(truncatingIfNeeded: seed >> 8) : UInt8(0x80 | (seed >> 16) & 0x3F))
            }
            cases.append(bytes)
        }
        for bytes in cases {
            let ours = bytes.withUnsafeBufferPointer { TextEncoding.isValidUTF8($0) }
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }
}
