import Foundation
import Testing

@testable import StringsCatalog

/// gettext import: export → import changes no byte; edits land; bad entries are reported, good ones kept.
@Suite struct POImportTests {
    func snapshot(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)! {
            if let d = try? Data(contentsOf: url), !url.hasDirectoryPath { out[url.path] = d }
        }
        return out
    }

    func roundTrip(_ dir: URL) throws {
        let before = try snapshot(dir)
        var folder = try LocalizationFolder(directory: dir)
        for (path, po) in POExport.files(folder) where path.hasSuffix(".po") {
            let back = POFile(parsing: po.text(), file: path)
            let report = POImport.apply(back, file: path, into: &folder, includeFuzzy: true)
            #expect(report.problems.isEmpty, "\(path): \(report.problems)")
            #expect(report.updated == 0, "\(path)")
        }
        _ = try folder.save()
        #expect(try snapshot(dir) == before)
    }

    @Test func exportImportChangesNoByteOfTheProject() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("po-rt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: POExportTests.localizations, to: dir)
        try roundTrip(dir)
    }

    @Test func exportImportChangesNoByteOfFixtures() throws {
        try roundTrip(try POExportTests().fixtureFolder().directory)
    }

    @Test func editsLandAndBadEntriesAreReportedNotFatal() throws {
        var folder = try POExportTests().fixtureFolder()
        let po = try #require(POExport.files(folder).first { $0.path == "Shop/de.po" }?.document)
        var text = po.text()
        text = text.replacingOccurrences(of: "msgstr[1] \"%lld Dateien\"", with: "msgstr[1] \"%lld Akten\"")
        text = text.replacingOccurrences(of: "msgid \"Review %@\"", with: "msgid \"Check %@\"")
        text += "\nmsgctxt \"Broken\"\nmsgid \"x\nmsgstr \"y\"\n"
        let parsed = POFile(parsing: text, file: "de.po")
        let broken = try #require(parsed.problems.first)
        #expect(broken.column == 9 && broken.message.contains("expected a closing '\"'"))
        let report = POImport.apply(parsed, file: "de.po", into: &folder)
        #expect(report.updated == 1)
        #expect(report.problems.contains { $0.hasPrefix("de.po:") && $0.contains("no longer matches") })
        #expect(report.problems.contains { $0.contains("expected a closing") })
        let value = folder.catalogs["Shop"]?.pluralEntry("%lld files", language: "de")
        #expect(value?.variables.values.first?.forms["other"] == "%lld Akten")
    }

    @Test func badPluralFormsHeaderNamesLineAndColumn() {
        #expect(
            POImport.check(pluralForms: "nplurals=2; plural=(n != 1;", against: PluralForms(language: "de"))?.column
                == 27)
        #expect(
            POImport.check(pluralForms: "nplurals=2; plural=(n != 1);", against: PluralForms(language: "de")) == nil)
        #expect(POImport.check(pluralForms: "nplurals=2; plural=n>1;", against: PluralForms(language: "de")) != nil)
    }
}
