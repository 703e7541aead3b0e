import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

private func parse(_ text: String, file: String = "t.strings") -> StringsDocument {
    StringsDocument(parsing: Data(text.utf8), file: file)
}

@Suite("StringsParser grammar")
struct StringsParserTests {
    @Test func basicEntriesAndComments() {
        let doc = parse("/* header */\n// line comment\n\"a\" = \"b\"; /* after */\n\"c\"/*x*/=/*y*/\"d\" ;\n")
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.dictionary == ["a": "b", "c": "d"])
        #expect(doc.comment(forKey: "a") == "line comment")
        #expect(doc.entries[1].line == 4 && doc.entries[1].column == 1)
    }

    @Test func unquotedKeysValuesAndShortForm() {
        let doc = parse("key_1 = value.2;\n\"solo\";\n$path/a:b-c = \"x\";\n")
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.dictionary == ["key_1": "value.2", "solo": "solo", "$path/a:b-c": "x"])
        #expect(doc.entries[1].isShortForm)
    }

    @Test(arguments: [
        (#""a" = "x\ny";"#, "x\ny"), (#""a" = "x\ty";"#, "x\ty"), (#""a" = "x\ry";"#, "x\ry"),
        (#""a" = "say \"hi\"";"#, "say \"hi\""), (#""a" = "back\\slash";"#, "back\\slash"),
        (#""a" = "it\'s";"#, "it's"), (#""a" = "\U00e9t\U00E9";"#, "été"), (#""a" = "\UD83D\UDE00";"#, "😀"),
        (#""a" = "\101\102";"#, "AB"), ("\"a\" = \"line\\\nnext\";", "line\nnext"),
        (#""a" = "\a\b\f\v";"#, "\u{07}\u{08}\u{0C}\u{0B}"),
        (#""a" = 'single "quoted"';"#, "single \"quoted\""),
    ])
    func escapes(source: String, expected: String) {
        let doc = parse(source)
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
        #expect(doc["a"] == expected)
    }

    @Test func loneSurrogateWarns() {
        let doc = parse(#""a" = "x\UD83Dy";"#)
        #expect(doc["a"] == "x\u{FFFD}y")
        #expect(doc.diagnostics.first?.severity == .warning)
    }

    @Test func bracedDictionaryIsAccepted() {
        let doc = parse("{\n  \"a\" = \"1\";\n  \"b\" = \"2\";\n}\n")
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.dictionary == ["a": "1", "b": "2"])
    }

    /// Where CoreFoundation silently stops, we report file:line:col and keep the entries after it.
    @Test(arguments: [
        ("\"a\" = \"1\";\n# stray\n\"b\" = \"2\";\n", 2, 1),
        ("\"a\" = \"1\";;\n\"b\" = \"2\";\n", 1, 11),
        ("\"a\" = \"1\";\n}\n\"b\" = \"2\";\n", 2, 1),
        ("\"a\" = \"1\";\u{A0}\n\"b\" = \"2\";\n", 1, 11),
        ("\"a\" = \"1\";\n\u{3000}\"b\" = \"2\";\n", 2, 1),
    ])
    func silentTruncationCasesAreReported(source: String, line: Int, column: Int) {
        let doc = parse(source, file: "de.lproj/Localizable.strings")
        #expect(doc.dictionary == ["a": "1", "b": "2"])
        let d = doc.diagnostics.first
        #expect(d?.severity == .error)
        #expect(d?.line == line && d?.column == column, "\(String(describing: d))")
        #expect(d?.description.hasPrefix("de.lproj/Localizable.strings:\(line):\(column): error:") == true)
        #expect(doc.text == source, "skipped text is kept verbatim")
    }

    @Test func missingSemicolonKeepsBothEntries() {
        let doc = parse("\"a\" = \"1\"\n\"b\" = \"2\";\n")
        #expect(doc.dictionary == ["a": "1", "b": "2"])
        #expect(doc.diagnostics.count == 1)
        #expect(doc.diagnostics[0].line == 1 && doc.diagnostics[0].column == 10)
        #expect(doc.diagnostics[0].message.contains("missing ';'"))
    }

    @Test func unterminatedStringAndCommentAreReported() {
        let doc = parse("\"a\" = \"1\";\n\"b\" = \"2\";\n\"c\" = \"3;\n")
        #expect(doc.dictionary == ["a": "1", "b": "2"])
        #expect(
            doc.diagnostics.contains { $0.message.contains("unterminated string") && $0.line == 3 && $0.column == 7 })
        let doc2 = parse("\"a\" = \"1\";\n/* open\n\"b\" = \"2\";\n")
        #expect(doc2["a"] == "1")
        #expect(doc2.diagnostics.contains { $0.message.contains("unterminated /*") && $0.line == 2 })
        #expect(doc2.text == "\"a\" = \"1\";\n/* open\n\"b\" = \"2\";\n")
    }

    @Test func badKeySyntaxIsReportedWithColumn() {
        let doc = parse("greeting text = \"x\";\n\"ok\" = \"OK\";\n")
        #expect(doc["ok"] == "OK")
        #expect(doc.diagnostics.first?.line == 1)
        #expect(doc.diagnostics.first?.column == 10)
    }

    @Test func duplicateKeysLastWinsWithWarning() {
        let doc = parse("\"a\" = \"1\";\n\"a\" = \"2\";\n")
        #expect(doc["a"] == "2")
        #expect(doc.diagnostics.count == 1)
        #expect(doc.diagnostics[0].code == "duplicate-key" && doc.diagnostics[0].line == 2)
    }
}

/// The toolchain's plutil (CoreFoundation's parser), when installed.
let plutilPath = ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil", "/usr/local/bin/plutil"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

@Suite("StringsDocument encodings and lossless write-back")
struct StringsRoundTripTests {
    static let sample = """
        /* Title of the window */
        "title" = "Fenster";   // trailing comment

        // Two keys, odd spacing
        "a"="1";
        unquoted   =   "été \\U00e9";
        "short";
        """

    @Test(arguments: [
        TextEncoding.utf8(bom: false), .utf8(bom: true), .utf16LE(bom: true), .utf16BE(bom: true), .utf16LE(bom: false),
        .utf16BE(bom: false), .utf32LE(bom: true), .utf32BE(bom: true),
    ])
    func encodingsRoundTripByteForByte(encoding: TextEncoding) throws {
        let bytes = encoding.encode(Self.sample)
        let doc = StringsDocument(parsing: bytes)
        #expect(doc.format == .text(encoding))
        // CoreFoundation rejects UTF-16 without a BOM: read, but reported.
        let bomless = encoding == .utf16LE(bom: false) || encoding == .utf16BE(bom: false)
        #expect(doc.diagnostics.map(\.code) == (bomless ? ["encoding"] : []))
        #expect(doc["unquoted"] == "été é")
        #expect(doc.text == Self.sample)
        #expect(try [UInt8](doc.data()) == bytes)
        // Editing one value changes only that value's bytes.
        var edited = doc
        edited.setValue("Window", forKey: "title")
        let expected = Self.sample.replacingOccurrences(of: "\"Fenster\"", with: "\"Window\"")
        #expect(try [UInt8](edited.data()) == encoding.encode(expected))
    }

    @Test func editKeepsEverythingElseAndAppendsNewKeysWithComment() throws {
        var doc = StringsDocument(parsing: Data(Self.sample.utf8))
        doc.setValue("line \"2\"\nnext", forKey: "a")
        doc.setValue("Neu", forKey: "new", comment: "A new key")
        let text = String(decoding: try doc.data(), as: UTF8.self)
        #expect(text.contains(#""a"="line \"2\"\nnext";"#))
        #expect(text.hasSuffix("\"short\";\n\n/* A new key */\n\"new\" = \"Neu\";\n"))
        let reparsed = StringsDocument(parsing: Data(text.utf8))
        #expect(reparsed["a"] == "line \"2\"\nnext")
        #expect(reparsed.comment(forKey: "new") == "A new key")
        #expect(reparsed.diagnostics.isEmpty)
    }

    @Test func removeEntryTakesItsCommentAndLine() throws {
        var doc = StringsDocument(parsing: Data("/* one */\n\"a\" = \"1\";\n\n/* two */\n\"b\" = \"2\";\n".utf8))
        let removed = doc.removeEntry(forKey: "b")
        #expect(removed)
        #expect(doc.text == "/* one */\n\"a\" = \"1\";\n")
    }

    /// Found by fuzzing (Fuzz/Regressions/strings): text right after the `;` (no space or newline) made
    /// the removal read the scalar before the start of that text.
    @Test func removeEntryFollowedDirectlyByText() throws {
        var doc = StringsDocument(parsing: Data("\"a\" = \"1\";/* note */\n\"b\" = \"2\";\n".utf8))
        let removed = doc.removeEntry(forKey: "a")
        #expect(removed)
        #expect(doc.text == "/* note */\n\"b\" = \"2\";\n")
        var unquoted = StringsDocument(parsing: Array("ct=e\u{0}".utf8))
        let removedUnquoted = unquoted.removeEntry(forKey: "ct")
        #expect(removedUnquoted)
        #expect(unquoted["ct"] == nil)
    }

    @Test func invalidUTF8IsReportedAndNotOverwritten() {
        var doc = StringsDocument(parsing: [0x22, 0x61, 0x22, 0x3D, 0x22, 0xFF, 0x22, 0x3B], file: "x.strings")
        #expect(doc.diagnostics.first?.code == "encoding")
        let unchanged = doc
        #expect(throws: Never.self) { try unchanged.data() }  // unchanged: original bytes
        doc.setValue("b", forKey: "a")
        let changed = doc
        #expect(throws: StringsCatalogError.self) { try changed.data() }
    }

    @Test func binaryPropertyListStrings() throws {
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["OK": "Gut", "Cancel": "Abbrechen"], format: .binary, options: 0)
        var doc = StringsDocument(parsing: plist)
        #expect(doc.format == .binaryPropertyList)
        #expect(doc.dictionary == ["OK": "Gut", "Cancel": "Abbrechen"])
        #expect(try doc.data() == plist)
        doc.setValue("Okay", forKey: "OK")
        let back = try PropertyListSerialization.propertyList(from: try doc.data(), format: nil) as? [String: String]
        #expect(back == ["OK": "Okay", "Cancel": "Abbrechen"])
    }

    /// CoreFoundation's parser (through the toolchain's plutil) must agree with ours on valid files.
    @Test(.enabled(if: plutilPath != nil, "plutil absent: the CoreFoundation comparison is not run"))
    func agreesWithPlutil() throws {
        let plutil = try #require(plutilPath)
        let source = Self.sample + "\n\"esc\" = \"tab\\tq\\\"\\\\ \\U00FC \\UD83D\\UDE00 \\101\";\n'sq' = 'x';\n"
        let url = Scratch.path("plutil", suffix: ".strings")
        try Data(source.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let out = url.appendingPathExtension("json")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: plutil)
        p.arguments = ["-convert", "json", "-o", out.path, url.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        defer { try? FileManager.default.removeItem(at: out) }
        let cf = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: String]
        #expect(cf == StringsDocument(parsing: Data(source.utf8)).dictionary)
    }
}

@Suite("StringsDocument line endings")
struct StringsLineEndingTests {
    @Test func crlfFilesKeepCRLFForNewEntries() throws {
        let source = "/* a */\r\n\"a\" = \"1\";\r\n"
        var doc = StringsDocument(parsing: Data(source.utf8))
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.comment(forKey: "a") == "a")
        doc.setValue("2", forKey: "b", comment: "b")
        #expect(String(decoding: try doc.data(), as: UTF8.self) == source + "\r\n/* b */\r\n\"b\" = \"2\";\r\n")
        #expect(doc.entries.last?.line == 5)
    }
}

@Suite("StringsDocument property-list forms")
struct StringsPlistFormTests {
    @Test func xmlPropertyListStrings() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>OK</key><string>D&apos;accord</string></dict></plist>
            """
        var doc = StringsDocument(parsing: Data(xml.utf8))
        #expect(doc.format == .xmlPropertyList)
        #expect(doc["OK"] == "D'accord")
        #expect(try doc.data() == Data(xml.utf8))
        doc.setValue("OK", forKey: "OK")
        let back = try PropertyListSerialization.propertyList(from: try doc.data(), format: nil) as? [String: String]
        #expect(back == ["OK": "OK"])
    }

    @Test func notADictionaryIsADiagnostic() {
        let doc = StringsDocument(
            parsing: Data("<?xml version=\"1.0\"?><plist><array/></plist>".utf8), file: "a.strings")
        #expect(doc.entries.isEmpty)
        #expect(doc.diagnostics.first?.file == "a.strings" && doc.diagnostics.first?.severity == .error)
    }
}

@Suite("StringsParser robustness")
struct StringsParserRobustnessTests {
    /// Mutated files never crash the parser, and the document always covers every character of the input.
    @Test func mutatedInputsStayLossless() {
        let base = Array(StringsRoundTripTests.sample.unicodeScalars)
        let alphabet: [Unicode.Scalar] = [
            "\"", ";", "=", "/", "*", "\\", "\n", "{", "}", "#", "\u{A0}", "\u{3000}", "U", "'", "a", " ",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % 1_000_003)
        }
        for _ in 0..<400 {
            var scalars = base
            for _ in 0..<(1 + next() % 4) {
                let at = next() % (scalars.count + 1)
                switch next() % 3 {
                case 0: scalars.insert(alphabet[next() % alphabet.count], at: at)
                case 1: if at < scalars.count { scalars.remove(at: at) }
                default: if at < scalars.count { scalars[at] = alphabet[next() % alphabet.count] }
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            let doc = StringsDocument(parsing: Data(text.utf8))
            #expect(doc.text == text)
            for d in doc.diagnostics {
                #expect(d.line >= 1 && d.column >= 1)
            }
        }
    }
}

/// Parses `bytes` with plutil (CoreFoundation) into a dictionary.
func plutilDictionary(_ bytes: [UInt8]) throws -> [String: String]? {
    let plutil = try #require(plutilPath)
    let url = Scratch.path("plutil", suffix: ".strings")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let out = url.appendingPathExtension("json")
    defer { try? FileManager.default.removeItem(at: out) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: plutil)
    p.arguments = ["-convert", "json", "-o", out.path, url.path]
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    return try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: String]
}

@Suite(
    "Agreement with CoreFoundation (plutil)",
    .enabled(if: plutilPath != nil, "plutil absent: CoreFoundation comparison not run"))
struct PlutilAgreementTests {
    @Test(arguments: [
        TextEncoding.utf8(bom: false), .utf8(bom: true), .utf16LE(bom: true), .utf16BE(bom: true),
    ])
    func encodings(encoding: TextEncoding) throws {
        let source = "{\n\"k\" = \"Größe ✓ 😀\";\n\"short\";\nunq = v.1;\n}\n"
        let bytes = encoding.encode(source)
        #expect(try plutilDictionary(bytes) == StringsDocument(parsing: bytes).dictionary)
    }

    /// The cases where CoreFoundation silently truncates (or rejects) the file, which we report instead.
    @Test(arguments: [
        ("\"a\" = \"1\";\n# stray\n\"b\" = \"2\";\n", true), ("\"a\" = \"1\";;\n\"b\" = \"2\";\n", true),
        ("\"a\" = \"1\";\n}\n\"b\" = \"2\";\n", true), ("\"a\" = \"1\";\u{A0}\n\"b\" = \"2\";\n", true),
        ("\"a\" = \"1\";\n\u{3000}\"b\" = \"2\";\n", true), ("\"a\" = \"1\"\n\"b\" = \"2\";\n", false),
    ])
    func coreFoundationLosesWhatWeKeep(source: String, truncates: Bool) throws {
        let bytes = Array(source.utf8)
        let cf = try plutilDictionary(bytes)
        #expect(cf == (truncates ? ["a": "1"] : nil))
        let ours = StringsDocument(parsing: bytes)
        #expect(ours.dictionary == ["a": "1", "b": "2"])
        #expect(ours.hasErrors)
    }

    @Test func bundledFilesAgree() throws {
        let url = try #require(Catalog.bundledLocalizationsURL())
        let folder = try LocalizationFolder(directory: url)
        var checked = 0
        for (language, tables) in folder.strings {
            for (table, doc) in tables {
                let bytes = try [UInt8](
                    Data(contentsOf: folder.url(language: language, table: table, extension: "strings")))
                #expect(try plutilDictionary(bytes) == doc.dictionary, "\(language)/\(table)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }
}
