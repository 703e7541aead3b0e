import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// Lookups, key lines and catalog loading are indexed once per document; they must give what a scan of
/// the document gives (first occurrence of a key, Xcode's layout, entries in file order).
@Suite("Indexed catalog lookups")
struct CatalogScaleTests {
    /// The line of `key` found the way it was before the index: the first `\n    "key" : ` in the text.
    static func scannedLine(_ doc: XCStringsDocument, _ key: String) -> Int {
        let text = String(decoding: doc.data(), as: UTF8.self)
        let needle = "\n    " + XcodeJSONWriter.quote(key) + " : "
        guard let r = text.range(of: needle) else { return 1 }
        return text[..<r.lowerBound].filter { $0 == "\n" }.count + 2
    }

    @Test func keyLinesMatchAScanOfTheFile() throws {
        let doc = try XCStringsDocument(contentsOf: try fixtureURL("Sample.xcstrings"))
        #expect(doc.keyLines != nil)
        #expect(!doc.keys.isEmpty)
        for key in doc.keys + ["not a key", "Welcome\" : "] {
            #expect(doc.line(ofKey: key) == Self.scannedLine(doc, key), "\(key)")
        }
        #expect(doc.keys.contains { doc.line(ofKey: $0) > 1 })
    }

    @Test func generatedCatalogWithDuplicatesAndEdits() throws {
        // Keys written twice (the first wins for lookups), escapes, nested objects at the key's indent.
        var members: [String] = []
        for i in 0..<300 {
            let key = i % 50 == 7 ? "dup \(i % 3)" : "key \\\"\(i)\\\" %@"
            members.append(
                """
                    "\(key)" : {
                      "localizations" : {
                        "de" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "wert \(i)"
                          }
                        }
                      }
                    }
                """)
        }
        let text =
            "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n" + members.joined(separator: ",\n")
            + "\n  },\n  \"version\" : \"1.0\"\n}\n"
        var doc = try XCStringsDocument(parsing: Data(text.utf8))
        // 300 members, three of them a second "dup N": 297 keys, each once, and three repeats for lint.
        let keys = doc.keys
        #expect(keys.count == 297)
        let entries = doc.entries
        #expect(entries.count == 297)
        #expect(doc.duplicateKeys.map(\.key) == ["dup 1", "dup 0", "dup 2"])
        for (k, key) in keys.enumerated() {
            #expect(doc.line(ofKey: key) == Self.scannedLine(doc, key), "\(key)")
            let first = try #require(doc.entry(key))
            #expect(entries[k] == first)
            #expect(doc.value(key, language: "de") == first.localizations["de"]?.value)
        }
        #expect(doc.entry("dup 1")?.localizations["de"]?.value == "wert 7")
        // After an edit the lines come from the rewritten text.
        doc.setValue("neu", forKey: "key \"3\" %@", language: "de")
        #expect(doc.keyLines == nil)
        #expect(doc.value("key \"3\" %@", language: "de") == "neu")
        doc.addKey("aaa new key")
        #expect(doc.entry("aaa new key") != nil)
        for key in doc.keys.prefix(20) { #expect(doc.line(ofKey: key) == Self.scannedLine(doc, key)) }
        let removed = doc.removeKey("aaa new key")
        #expect(removed)
        #expect(doc.entry("aaa new key") == nil)
    }

    @Test func catalogFromACatalogServesEveryLanguage() throws {
        let doc = try XCStringsDocument(contentsOf: try fixtureURL("Sample.xcstrings"))
        var catalog = Catalog()
        catalog.add(doc, table: "Sample")
        for entry in doc.entries {
            for language in Set(entry.localizations.keys).union([doc.sourceLanguage]) {
                let expected =
                    doc.pluralEntry(entry.key, language: language) == nil
                    ? doc.value(entry.key, language: language) : nil
                #expect(catalog.tables[language]?["Sample"]?.strings[entry.key] == expected, "\(entry.key) \(language)")
                #expect(
                    catalog.tables[language]?["Sample"]?.plurals[entry.key]
                        == doc.pluralEntry(entry.key, language: language))
            }
        }
    }

    @Test func statusCountsLastDuplicateAndEveryKeyOnce() throws {
        let dir = Scratch.path("status")
        defer { try? FileManager.default.removeItem(at: dir) }
        for lang in ["en", "de"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("\(lang).lproj"), withIntermediateDirectories: true)
        }
        var en = ""
        var de = ""
        for i in 0..<2_000 {
            en += "\"k\(i)\" = \"Value \(i)\";\n"
            if i % 10 != 3 { de += "\"k\(i)\" = \"\(i % 10 == 5 ? "Value \(i)" : "Wert \(i)")\";\n" }
        }
        en += "\"k1\" = \"Value 1\";\n"  // a duplicate source key counts once
        de += "\"k5\" = \"Wert 5\";\n"  // the last duplicate is what a lookup sees: translated
        try Data(en.utf8).write(to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try Data(de.utf8).write(to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        let folder = try LocalizationFolder(directory: dir)
        let status = folder.status()
        let german = try #require(status.first { $0.language == "de" })
        #expect(german.total == 2_000)
        #expect(german.missing == 200)
        #expect(german.untranslated == 199)
        #expect(german.translated == 1_601)
    }
}
