import Foundation
import Testing

@testable import StringsCatalog

/// A key written twice in a String Catalog is a lint error at the second one, and counted once.
@Suite struct XCStringsDuplicateKeyTests {
    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Cancel" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Abbrechen" } },
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Cancel" } }
              }
            },
            "Cancel" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Stornieren" } },
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Doppelt" } }
              }
            }
          },
          "version" : "1.0"
        }

        """

    @Test func aRepeatedKeyIsAnErrorNamingFileLineAndColumn() throws {
        let dir = try makeCatalogFolder(["Localizable.xcstrings": Self.catalog])
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let duplicates = folder.lint().filter { $0.code == "duplicate-key" }
        #expect(
            duplicates.map(\.description) == [
                #"L/Localizable.xcstrings:10:5: error: duplicate key "Cancel" (first at line 4, column 5); only the first is read"#,
                #"L/Localizable.xcstrings:13:9: error: duplicate key "de" (first at line 12, column 9); only the first is read"#,
            ])
        // The first is what a lookup reads; the key is one key.
        let cat = try #require(folder.catalogs.values.first)
        #expect(cat.keys == ["Cancel"])
        #expect(cat.entries.count == 1)
        #expect(cat.value("Cancel", language: "de") == "Abbrechen")
        let de = try #require(folder.status().first { $0.language == "de" })
        #expect(de.total == 1 && de.translated == 1)
    }

    @Test func aCatalogWithoutRepeatsHasNoSuchFinding() throws {
        let text = #"{"sourceLanguage":"en","strings":{"Cancel":{},"OK":{"localizations":{"de":{},"en":{}}}}}"#
        let doc = try XCStringsDocument(parsing: Data(text.utf8))
        #expect(doc.duplicateKeys.isEmpty)
        #expect(doc.keys == ["Cancel", "OK"])
        // Many members (the reader indexes them past eight): a repeat late in a big object is found.
        let many = (0..<20).map { "\"k\($0)\":{}" }.joined(separator: ",") + ",\"k3\":{}"
        let big = try XCStringsDocument(parsing: Data((#"{"sourceLanguage":"en","strings":{"# + many + "}}").utf8))
        #expect(big.duplicateKeys.map(\.key) == ["k3"])
        #expect(big.keys.count == 20)
    }
}
