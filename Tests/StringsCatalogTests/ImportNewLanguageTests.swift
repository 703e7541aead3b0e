import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// Importing a language the project does not have yet creates its `.lproj` files with the development
/// language's layout, as Xcode's import does (fixtures written for these tests).
@Suite("Import of a new language")
struct ImportNewLanguageTests {
    static let english = """
        /* Title of the list. */
        "title" = "Contacts";

        /* Button. */
        "cancel" = "Cancel";

        """

    static func project() throws -> URL {
        let dir = try Scratch.directory("new-language")
        try Scratch.write(Self.english, to: dir.appendingPathComponent("App/en.lproj/Localizable.strings"))
        try Scratch.write(
            "\"title\" = \"Kontakte\";\n", to: dir.appendingPathComponent("App/de.lproj/Localizable.strings"))
        let dict = StringsDictDocument.xmlDocument([
            StringsDictEntry(
                key: "%d contacts", formatKey: "%#@n@",
                variables: ["n": PluralVariable(name: "n", forms: ["one": "%d contact", "other": "%d contacts"])])
        ])
        try Scratch.write(dict, to: dir.appendingPathComponent("App/en.lproj/Localizable.stringsdict"))
        return dir
    }

    @Test func xliffImportCreatesTheLanguageFromTheSourceLayout() throws {
        let dir = try Self.project()
        var folder = try LocalizationFolder(directory: dir)
        var files = XLIFF.files(folder, language: "fr")
        for f in files.indices {
            for u in files[f].units.indices {
                let unit = files[f].units[u]
                switch unit.source {
                case "Contacts": files[f].units[u].target = "Contacts"
                case "Cancel": files[f].units[u].target = "Annuler"
                case "%d contact": files[f].units[u].target = "%d contact"
                case "%d contacts": files[f].units[u].target = "%d contacts (fr)"
                default: break
                }
            }
        }
        let parsed = try XLIFF.parse(Data(XLIFF.document(files).utf8), file: "fr.xliff")
        let report = XLIFF.importFiles(parsed, into: &folder)
        #expect(report.problems.isEmpty, "\(report.problems)")
        _ = try folder.save()
        let strings = try String(
            contentsOf: dir.appendingPathComponent("App/fr.lproj/Localizable.strings"), encoding: .utf8)
        #expect(strings == Self.english.replacingOccurrences(of: "\"Cancel\";", with: "\"Annuler\";"))
        let reread = try LocalizationFolder(directory: dir)
        let forms = reread.stringsDicts["fr"]?["App/Localizable"]?.entries["%d contacts"]?.variables["n"]?.forms
        #expect(forms?["other"] == "%d contacts (fr)" && forms?["one"] == "%d contact")
        #expect(!reread.lint().contains { $0.severity == .error })
    }

    @Test func poImportCreatesTheLanguageToo() throws {
        let dir = try Self.project()
        var folder = try LocalizationFolder(directory: dir)
        let po = try #require(POExport.files(folder, languages: ["sv"]).first { $0.path.hasSuffix("sv.po") })
        var text = po.document.text()
        text = text.replacingOccurrences(
            of: "msgctxt \"cancel\"\nmsgid \"Cancel\"\nmsgstr \"\"",
            with: "msgctxt \"cancel\"\nmsgid \"Cancel\"\nmsgstr \"Avbryt\"")
        #expect(text.contains("msgstr \"Avbryt\""), "\(text)")
        let report = POImport.apply(POFile(parsing: text, file: "sv.po"), file: "sv.po", into: &folder)
        #expect(report.problems.isEmpty && report.updated == 1, "\(report)")
        _ = try folder.save()
        let strings = try String(
            contentsOf: dir.appendingPathComponent("App/sv.lproj/Localizable.strings"), encoding: .utf8)
        #expect(strings == Self.english.replacingOccurrences(of: "\"Cancel\";", with: "\"Avbryt\";"))
    }
}
