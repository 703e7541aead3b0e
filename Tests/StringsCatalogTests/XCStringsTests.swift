import Foundation
import Support
import Testing

@testable import StringsCatalog

func fixtureURL(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil), "fixture \(name) missing")
}

@Suite("xcstrings String Catalogs")
struct XCStringsTests {
    @Test func readsXcodeLayoutAndWritesItBackIdentically() throws {
        let url = try fixtureURL("Sample.xcstrings")
        let bytes = try Data(contentsOf: url)
        let doc = try XCStringsDocument(contentsOf: url)
        #expect(doc.data() == bytes)
        // The writer itself reproduces Xcode's layout, not only the cached bytes.
        #expect(XcodeJSONWriter.write(doc.root) == String(decoding: bytes, as: UTF8.self))
        #expect(doc.sourceLanguage == "en")
        #expect(doc.keys.first == "")
        #expect(doc.languages == ["de", "en", "ru"])
        let welcome = try #require(doc.entry("Welcome"))
        #expect(welcome.comment == "Greeting with \"quotes\" and a / slash")
        #expect(welcome.localizations["de"]?.value == "Willkommen")
        #expect(doc.entry("Tap to open")?.extractionState == "manual")
        #expect(doc.entry("Tap to open")?.localizations["en"]?.device["mac"]?.value == "Click to open")
        #expect(doc.entry("%lld items")?.localizations["ru"]?.plural["other"]?.state == "needs_review")
        let files = try #require(doc.entry("%#@files@ in %#@folders@")?.localizations["en"]?.substitutions["files"])
        #expect(files.argNum == 1 && files.formatSpecifier == "lld" && files.plural["one"]?.value == "%arg file")
    }

    @Test func pluralsSubstitutionsAndDevicesThroughTheCatalog() throws {
        let dir = try makeCatalogFolder([:])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtureURL("Sample.xcstrings"), to: dir.appendingPathComponent("Shop.xcstrings"))
        let catalog = try Catalog(directory: dir)
        #expect(catalog.languages == ["de", "en", "ru"])
        #expect(try catalog.format("%lld items", table: "Shop", locale: "ru", arguments: [1]) == "1 товар")
        #expect(try catalog.format("%lld items", table: "Shop", locale: "ru", arguments: [3]) == "3 товара")
        #expect(try catalog.format("%lld items", table: "Shop", locale: "ru", arguments: [5]) == "5 товаров")
        #expect(try catalog.format("%lld items", table: "Shop", locale: "de", arguments: [2]) == "2 Artikel")
        #expect(
            try catalog.format("%#@files@ in %#@folders@", table: "Shop", locale: "en", arguments: [1, 3])
                == "1 file in 3 folders")
        #expect(
            try catalog.format("%#@files@ in %#@folders@", table: "Shop", locale: "de", arguments: [2, 1])
                == "2 files in 1 folder")
        #expect(try catalog.format("Sent %#@photos@", table: "Shop", locale: "en", arguments: [1]) == "Sent one photo")
        #expect(try catalog.format("Sent %#@photos@", table: "Shop", locale: "en", arguments: [4]) == "Sent 4 photos")
        #expect(catalog.string("Tap to open", table: "Shop", locale: "en") == "Tap to open")
        #expect(catalog.string("Welcome", table: "Shop", locale: "de") == "Willkommen")
        #expect(catalog.string("Welcome", table: "Shop", locale: "en") == "Welcome")
        #expect(catalog.comment("Welcome", table: "Shop") == "Greeting with \"quotes\" and a / slash")
    }

    @Test func editsTouchOnlyWhatChanged() throws {
        let url = try fixtureURL("Sample.xcstrings")
        let original = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        var doc = try XCStringsDocument(contentsOf: url)
        doc.setValue("Herzlich willkommen", forKey: "Welcome", language: "de")
        let edited = String(decoding: doc.data(), as: UTF8.self)
        #expect(edited == original.replacingOccurrences(of: "\"Willkommen\"", with: "\"Herzlich willkommen\""))
        doc.setValue("Bienvenue", forKey: "Welcome", language: "fr")
        doc.addKey("Apple", comment: "A fruit")
        let again = try XCStringsDocument(parsing: doc.data())
        #expect(again.entry("Welcome")?.localizations["fr"]?.value == "Bienvenue")
        #expect(again.entry("Welcome")?.localizations["fr"]?.state == "translated")
        #expect(
            again.keys == [
                "", "%lld items", "%#@files@ in %#@folders@", "Apple", "Sent %#@photos@", "Tap to open", "Welcome",
            ])
        #expect(
            String(decoding: doc.data(), as: UTF8.self).contains(
                "    \"Apple\" : {\n      \"comment\" : \"A fruit\"\n    },\n"))
    }

    @Test func malformedJSONNamesLineAndColumn() {
        let text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : \n  }\n}"
        #expect {
            try XCStringsDocument(parsing: Data(text.utf8), file: "Bad.xcstrings")
        } throws: { error in
            guard case StringsCatalogError.malformed(let file, let line, let column, _) = error else { return false }
            return file == "Bad.xcstrings" && line == 5 && column == 3
        }
    }

    @Test func newCatalogHasXcodeLayout() {
        var doc = XCStringsDocument(sourceLanguage: "en")
        doc.setValue("Hallo", forKey: "Hello", language: "de")
        #expect(
            String(decoding: doc.data(), as: UTF8.self) == """
                {
                  "sourceLanguage" : "en",
                  "strings" : {
                    "Hello" : {
                      "localizations" : {
                        "de" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "Hallo"
                          }
                        }
                      }
                    }
                  },
                  "version" : "1.0"
                }
                """)
    }
}

@Suite("xcstrings lint and status")
struct XCStringsLintTests {
    @Test func catalogFindings() throws {
        let dir = try makeCatalogFolder([:])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var text = try String(contentsOf: fixtureURL("Sample.xcstrings"), encoding: .utf8)
        // Break the German plural: drop "other"'s specifier type, and a German unit with the wrong argument type.
        text = text.replacingOccurrences(of: "\"value\" : \"Willkommen\"", with: "\"value\" : \"Willkommen %d\"")
        try Data(text.utf8).write(to: dir.appendingPathComponent("Shop.xcstrings"))
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let findings = folder.lint()
        func has(_ code: String, _ text: String) -> Bool {
            findings.contains { $0.code == code && $0.file == "L/Shop.xcstrings" && $0.message.contains(text) }
        }
        #expect(has("needs-review", "\"%lld items\" ru is in state \"needs_review\""))
        #expect(has("missing-key", "\"Welcome\" has no ru localization"))
        #expect(has("format-mismatch", "\"Welcome\""))
        #expect(!findings.contains { $0.code == "plural-category" }, "\(findings)")
        let welcome = try #require(findings.first { $0.message.contains("\"Welcome\" has no ru") })
        #expect(welcome.line == 184, "\(welcome)")

        let status = Dictionary(uniqueKeysWithValues: folder.status().map { ($0.language, $0) })
        #expect(status["en"]?.total == 5 && status["en"]?.translated == 5)
        #expect(status["ru"]?.missing == 4 && status["ru"]?.untranslated == 1)
        #expect(status["de"]?.translated == 2 && status["de"]?.missing == 3)
    }
}

@Suite("xcstrings sync and XLIFF states")
struct XCStringsSyncTests {
    @Test func pruneRemovesStaleKeysOnly() throws {
        let dir = try makeCatalogFolder([:])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let text = try String(contentsOf: fixtureURL("Sample.xcstrings"), encoding: .utf8)
            .replacingOccurrences(of: "\"extractionState\" : \"manual\"", with: "\"extractionState\" : \"stale\"")
        try Data(text.utf8).write(to: dir.appendingPathComponent("Shop.xcstrings"))
        var folder = try LocalizationFolder(directory: dir)
        let kept = folder.sync(prune: false)
        #expect(kept.removed.isEmpty)
        let report = folder.sync(prune: true)
        #expect(report.removed["Shop.xcstrings"] == ["Tap to open"])
        _ = try folder.save()
        let cat = try XCStringsDocument(contentsOf: dir.appendingPathComponent("Shop.xcstrings"))
        #expect(cat.keys == ["", "%lld items", "%#@files@ in %#@folders@", "Sent %#@photos@", "Welcome"])
    }

    @Test func xliffStatesMapToCatalogStates() {
        #expect(XLIFF.catalogState(nil) == "translated")
        #expect(XLIFF.catalogState("final") == "translated")
        #expect(XLIFF.catalogState("needs-review-translation") == "needs_review")
        #expect(XLIFF.catalogState("new") == "new")
    }
}

@Suite("String Catalogs nested too deeply")
struct XCStringsNestingTests {
    @Test("nesting beyond the limit is an error with its position, not a stack overflow")
    func deepNestingIsAnError() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 200_000)
        #expect {
            try XCStringsDocument(parsing: Data(deep), file: "deep.xcstrings")
        } throws: { error in
            guard case StringsCatalogError.malformed(let file, let line, let column, let message) = error else {
                return false
            }
            return file == "deep.xcstrings" && line == 1 && column == JSONReader.maximumDepth + 1
                && message.contains("nests more than")
        }
    }
}
