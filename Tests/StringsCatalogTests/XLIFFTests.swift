import Foundation
import Testing

@testable import StringsCatalog

@Suite("XLIFF export and import")
struct XLIFFTests {
    func project() throws -> URL {
        let dir = try makeCatalogFolder([
            "en.lproj/Localizable.strings":
                "/* Save <button> & more */\n\"Save\" = \"Save\";\n\"Quit \\\"now\\\"\" = \"Quit \\\"now\\\"\";\n",
            "en.lproj/Localizable.stringsdict": pluralDictEN,
            "pl.lproj/Localizable.strings": "// Polish\n\"Save\"  =  \"Zapisz\";\n",
        ])
        try FileManager.default.copyItem(
            at: fixtureURL("Sample.xcstrings"), to: dir.appendingPathComponent("Shop.xcstrings"))
        return dir
    }

    @Test func exportHasXcodeStructure() throws {
        let folder = try LocalizationFolder(directory: project())
        let files = XLIFF.files(folder, language: "pl")
        #expect(
            files.map(\.original) == [
                "en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict", "Shop.xcstrings",
            ])
        let strings = files[0].units
        #expect(strings.map(\.id) == ["Save", "Quit \"now\""])
        #expect(strings[0].target == "Zapisz" && strings[0].note == "Save <button> & more")
        #expect(strings[1].target == nil)
        // Polish needs one/few/many/other.
        #expect(
            files[1].units.map(\.id) == [
                "/%d selected:dict/NSStringLocalizedFormatKey:dict/:string",
                "/%d selected:dict/n:dict/one:dict/:string",
                "/%d selected:dict/n:dict/few:dict/:string", "/%d selected:dict/n:dict/many:dict/:string",
                "/%d selected:dict/n:dict/other:dict/:string",
            ])
        let ids = files[2].units.map(\.id)
        #expect(ids.contains("%lld items|==|plural.few"))
        #expect(ids.contains("%#@files@ in %#@folders@|==|substitutions.files.plural.many"))
        #expect(ids.contains("Tap to open|==|device.mac"))
        #expect(ids.contains("Welcome"))
        // The document parses back to the same units.
        let xml = XLIFF.document(files)
        #expect(try XLIFF.parse(Data(xml.utf8), file: "pl.xliff") == files)
    }

    @Test func exportTranslateImportRoundTrip() throws {
        let dir = try project()
        var folder = try LocalizationFolder(directory: dir)
        var files = XLIFF.files(folder, language: "pl")
        let translations: [String: String] = [
            "Quit \"now\"": "Zakończ \"teraz\"",
            "/%d selected:dict/NSStringLocalizedFormatKey:dict/:string": "%#@n@",
            "/%d selected:dict/n:dict/one:dict/:string": "Wybrano %d",
            "/%d selected:dict/n:dict/few:dict/:string": "Wybrano %d (few)",
            "/%d selected:dict/n:dict/many:dict/:string": "Wybrano %d (many)",
            "/%d selected:dict/n:dict/other:dict/:string": "Wybrano %d (other)",
            "%lld items|==|plural.one": "%lld rzecz", "%lld items|==|plural.few": "%lld rzeczy",
            "%lld items|==|plural.many": "%lld rzeczy (many)", "%lld items|==|plural.other": "%lld rzeczy (other)",
            "%#@files@ in %#@folders@": "%#@files@ w %#@folders@",
            "%#@files@ in %#@folders@|==|substitutions.files.plural.one": "%arg plik",
            "%#@files@ in %#@folders@|==|substitutions.files.plural.other": "%arg plików",
            "%#@files@ in %#@folders@|==|substitutions.folders.plural.one": "%arg folderze",
            "%#@files@ in %#@folders@|==|substitutions.folders.plural.other": "%arg folderach",
            "Welcome": "Witamy",
        ]
        for f in files.indices {
            for u in files[f].units.indices {
                if let t = translations[files[f].units[u].id] { files[f].units[u].target = t }
            }
        }
        files[0].units.append(XLIFFUnit(id: "Unknown key", source: "x", target: "y", state: nil, note: nil))
        let parsed = try XLIFF.parse(Data(XLIFF.document(files).utf8), file: "pl.xliff")
        let report = XLIFF.importFiles(parsed, into: &folder)
        #expect(report.problems.count == 1 && report.problems[0].contains("Unknown key"))
        // The format key "%#@n@" equals the copied source entry's, so it counts as unchanged.
        #expect(report.updated == translations.count - 1 && report.unchanged >= 1)
        #expect(try folder.save().count == 3)

        // The untouched Polish entry keeps its exact spacing; the new one is appended.
        let pl = try String(contentsOf: dir.appendingPathComponent("pl.lproj/Localizable.strings"), encoding: .utf8)
        #expect(pl == "// Polish\n\"Save\"  =  \"Zapisz\";\n\n\"Quit \\\"now\\\"\" = \"Zakończ \\\"teraz\\\"\";\n")
        let catalog = try Catalog(directory: dir)
        #expect(catalog.string("Quit \"now\"", locale: "pl") == "Zakończ \"teraz\"")
        #expect(try catalog.format("%d selected", locale: "pl", arguments: [3]) == "Wybrano 3 (few)")
        #expect(try catalog.format("%d selected", locale: "pl", arguments: [5]) == "Wybrano 5 (many)")
        #expect(try catalog.format("%lld items", table: "Shop", locale: "pl", arguments: [22]) == "22 rzeczy")
        #expect(
            try catalog.format("%#@files@ in %#@folders@", table: "Shop", locale: "pl", arguments: [1, 1])
                == "1 plik w 1 folderze")
        #expect(catalog.string("Welcome", table: "Shop", locale: "pl") == "Witamy")
        let cat = try XCStringsDocument(contentsOf: dir.appendingPathComponent("Shop.xcstrings"))
        #expect(cat.entry("%#@files@ in %#@folders@")?.localizations["pl"]?.substitutions["folders"]?.argNum == 2)

        // Export again: every target comes back; importing the same file again changes nothing.
        var again = try LocalizationFolder(directory: dir)
        let second = XLIFF.files(again, language: "pl")
        for f in second {
            for u in f.units where translations[u.id] != nil { #expect(u.target == translations[u.id], "\(u.id)") }
        }
        let report2 = XLIFF.importFiles(parsed, into: &again)
        #expect(report2.updated == 0)
        #expect(try again.save().isEmpty)
    }

    @Test func catalogImportRewritesOnlyChangedEntriesAndLeavesCopiesAlone() throws {
        // Values with escapes Xcode would not write (\u00e9, \/): an entry the import leaves alone keeps them.
        let count = 40
        var text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
        for i in 0..<count {
            text +=
                "    \"k\(i)\" : {\n      \"localizations\" : {\n        \"de\" : {\n          \"stringUnit\" : {\n"
                + "            \"state\" : \"translated\",\n            \"value\" : \"Caf\\u00e9 \\/ \(i)\"\n"
                + "          }\n        }\n      }\n    }" + (i == count - 1 ? "\n" : ",\n")
        }
        text += "  },\n  \"version\" : \"1.0\"\n}\n"
        let dir = try makeCatalogFolder(["Cat.xcstrings": text])
        var folder = try LocalizationFolder(directory: dir)
        let copy = folder
        let changed = stride(from: 0, to: count, by: 2).map {
            XLIFFUnit(id: "k\($0)", source: "k\($0)", target: "Neu \($0)", state: "translated", note: nil)
        }
        let same = XLIFFUnit(id: "k1", source: "k1", target: "Café / 1", state: "translated", note: nil)
        let report = XLIFF.importFiles(
            [XLIFFFile(original: "Cat.xcstrings", sourceLanguage: "en", targetLanguage: "de", units: changed + [same])],
            into: &folder)
        #expect(report.updated == count / 2 && report.unchanged == 1 && report.problems.isEmpty)

        // Every changed value written Xcode's way, every other byte as it was.
        var expected = text
        for i in stride(from: 0, to: count, by: 2) {
            expected = expected.replacingOccurrences(
                of: "\"Caf\\u00e9 \\/ \(i)\"\n", with: "\"Neu \(i)\"\n")
        }
        let cat = try #require(folder.catalogs["Cat"])
        #expect(String(decoding: cat.data(), as: UTF8.self) == expected)
        #expect(cat.entry("k2")?.localizations["de"]?.value == "Neu 2")
        #expect(cat.entry("k3")?.localizations["de"]?.value == "Café / 3")
        #expect(cat.keys.count == count)
        // The folder taken before the import is a value: the catalog was edited in place, not through it.
        #expect(copy.catalogs["Cat"]?.data() == Data(text.utf8))
        #expect(copy.catalogs["Cat"]?.entry("k2")?.localizations["de"]?.value == "Café / 2")
    }

    @Test func malformedXLIFFNamesLine() {
        #expect {
            try XLIFF.parse(
                Data("<xliff version=\"1.2\">\n<file original=\"a\" target-language=\"de\">\n<body>\n</file>".utf8),
                file: "bad.xliff")
        } throws: { error in
            guard case StringsCatalogError.malformed(let file, let line, _, _) = error else { return false }
            return file == "bad.xliff" && line >= 3
        }
        #expect(throws: StringsCatalogError.self) { try XLIFF.parse(Data("<html/>".utf8), file: "x.xliff") }
    }
}

@Suite("XLIFF without target-language")
struct XLIFFTargetLanguageTests {
    let xml =
        #"<xliff version="1.2"><file original="en.lproj/Localizable.strings" source-language="en"><body></body></file></xliff>"#

    @Test func languageFromFileNameOrOption() throws {
        #expect(try XLIFF.parse(Data(xml.utf8), file: "/tmp/de.xliff")[0].targetLanguage == "de")
        #expect(try XLIFF.parse(Data(xml.utf8), file: "export.xliff", language: "pt-BR")[0].targetLanguage == "pt-BR")
        #expect(throws: StringsCatalogError.self) { try XLIFF.parse(Data(xml.utf8), file: "export.xliff") }
    }
}
