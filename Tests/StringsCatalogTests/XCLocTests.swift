import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// `.xcloc` bundles as Xcode writes them: export, import, states both ways (fixtures written for these tests).
@Suite("Xcode localization catalogs (.xcloc)")
struct XCLocTests {
    static func unit(_ state: String, _ value: String) -> String {
        "{ \"stringUnit\" : { \"state\" : \"\(state)\", \"value\" : \"\(value)\" } }"
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Buy" : {
              "localizations" : {
                "de" : \(unit("needs_review", "Kauf"))
              }
            },
            "Cart" : {
              "localizations" : {
                "de" : \(unit("translated", "Warenkorb"))
              }
            },
            "Pay" : {
              "localizations" : {
                "de" : \(unit("new", "Pay"))
              }
            }
          },
          "version" : "1.0"
        }

        """

    static func project() throws -> URL {
        let dir = try Scratch.directory("xcloc")
        try Scratch.write(Self.catalog, to: dir.appendingPathComponent("Shop.xcstrings"))
        try Scratch.write(
            "/* Title */\n\"title\" = \"Shop\";\n", to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try Scratch.write("\"title\" = \"Laden\";\n", to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        return dir
    }

    @Test func exportWritesXcodesLayoutAndImportRoundTripsStates() throws {
        let dir = try Self.project()
        let out = try Scratch.directory("xcloc-out")
        var folder = try LocalizationFolder(directory: dir)
        let bundle = try XCLocBundle.write(folder, language: "de", into: out)
        #expect(bundle.lastPathComponent == "de.xcloc")
        let contents = try String(contentsOf: bundle.appendingPathComponent("contents.json"), encoding: .utf8)
        #expect(contents.contains("\"targetLocale\" : \"de\"") && contents.contains("\"developmentRegion\" : \"en\""))
        let xliffURL = bundle.appendingPathComponent("Localized Contents/de.xliff")
        var xliff = try String(contentsOf: xliffURL, encoding: .utf8)
        #expect(xliff.contains("<target state=\"needs-review-translation\">Kauf</target>"), "\(xliff)")
        #expect(xliff.contains("<target state=\"new\">Pay</target>"))
        #expect(
            try Data(contentsOf: bundle.appendingPathComponent("Source Contents/en.lproj/Localizable.strings"))
                == Data("/* Title */\n\"title\" = \"Shop\";\n".utf8))
        #expect(
            FileManager.default.fileExists(atPath: bundle.appendingPathComponent("Source Contents/Shop.xcstrings").path)
        )
        #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("Notes").path))

        // Without edits: nothing changes.
        let before = try Data(contentsOf: dir.appendingPathComponent("Shop.xcstrings"))
        let unchanged = XLIFF.importFiles(try XCLocBundle.read(bundle), into: &folder)
        #expect(unchanged.problems.isEmpty && unchanged.updated == 0, "\(unchanged)")
        _ = try folder.save()
        #expect(try Data(contentsOf: dir.appendingPathComponent("Shop.xcstrings")) == before)

        // Reviewed, sent back for review, translated: the catalog's states follow.
        xliff = xliff.replacingOccurrences(
            of: "<target state=\"needs-review-translation\">Kauf</target>",
            with: "<target state=\"translated\">Kaufen</target>")
        xliff = xliff.replacingOccurrences(
            of: "<target state=\"translated\">Warenkorb</target>",
            with: "<target state=\"needs-review-translation\">Warenkorb</target>")
        xliff = xliff.replacingOccurrences(
            of: "<target state=\"new\">Pay</target>", with: "<target state=\"translated\">Bezahlen</target>")
        try xliff.write(to: xliffURL, atomically: true, encoding: .utf8)
        let report = XLIFF.importFiles(try XCLocBundle.read(bundle), into: &folder)
        #expect(report.problems.isEmpty && report.updated == 3, "\(report)")
        let cat = try #require(folder.catalogs["Shop"])
        #expect(cat.entry("Buy")?.localizations["de"] == .init(state: "translated", value: "Kaufen"))
        #expect(cat.entry("Cart")?.localizations["de"] == .init(state: "needs_review", value: "Warenkorb"))
        #expect(cat.entry("Pay")?.localizations["de"] == .init(state: "translated", value: "Bezahlen"))
        // And back out: the states are the XLIFF's.
        let again = XLIFF.document(XLIFF.files(folder, language: "de"))
        #expect(again.contains("<target state=\"needs-review-translation\">Warenkorb</target>"))
    }

    @Test func aBundleWithoutItsXLIFFIsAnError() throws {
        let bundle = try Scratch.directory("broken").appendingPathComponent("fr.xcloc")
        try Scratch.write("{ \"targetLocale\" : \"fr\" }", to: bundle.appendingPathComponent("contents.json"))
        #expect(throws: StringsCatalogError.self) { try XCLocBundle.read(bundle) }
        try Scratch.write("{ \"targetLocale\" : ", to: bundle.appendingPathComponent("contents.json"))
        do {
            _ = try XCLocBundle.read(bundle)
            Issue.record("a damaged contents.json was read")
        } catch let error as StringsCatalogError {
            #expect("\(error)".contains("contents.json:1:"), "\(error)")
        }
    }
}
