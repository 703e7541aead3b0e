import Foundation
import MessageFormat2
import TestSupport
import Testing

@testable import StringsCatalog

/// The library calls a translator tool makes, one per job: where the folder is, reading it as a tool does,
/// the catalog a rendering command may use, a checked sync, an export of every language, and `strings get`'s
/// answer; each with the message the command prints.
@Suite struct ToolFrontDoorTests {
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = Scratch.path("front-door")
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let corruptCatalog = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : { ,\n"

    @Test func aPlaceIsAnExistingFolder() throws {
        let dir = try Self.folder(["en.lproj/Localizable.strings": "\"a\" = \"A\";\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: StringsCatalogError.noSuchFolder(dir.path + "/nothing")) {
            try LocalizationPlace(dir.path + "/nothing")
        }
        let file = dir.appendingPathComponent("en.lproj/Localizable.strings").path
        #expect(throws: StringsCatalogError.notAFolder(file)) { try LocalizationPlace(file) }
        #expect("\(StringsCatalogError.notAFolder("x"))" == "x is not a folder")
        #expect(try LocalizationPlace(dir.path).display == dir.path)
    }

    @Test func aToolRefusesAnEmptyFolderAndUnreadableFilesWhenAsked() throws {
        let empty = try Self.folder([:])
        let damaged = try Self.folder([
            "en.lproj/Localizable.strings": "\"Open\" = \"Open\";\n", "Localizable.xcstrings": Self.corruptCatalog,
        ])
        defer { for d in [empty, damaged] { try? FileManager.default.removeItem(at: d) } }
        let none = try LocalizationPlace(empty.path)
        #expect(throws: StringsCatalogError.noLocalizationFiles(empty.path)) {
            try LocalizationFolder(at: none, developmentLanguage: "en", unreadable: .keep)
        }
        #expect("\(StringsCatalogError.noLocalizationFiles("L"))".hasPrefix("no localization files in L: no <lang>"))
        let place = try LocalizationPlace(damaged.path)
        do {
            _ = try LocalizationFolder(at: place, developmentLanguage: "en", unreadable: .refuse)
            Issue.record("a folder with an unreadable file was read")
        } catch let error as StringsCatalogError {
            #expect(error.findings.count == 1)
            #expect(error.findings.first?.file.hasSuffix("Localizable.xcstrings") == true)
            #expect("\(error)" == "1 file could not be read (see above); nothing done")
        }
        let kept = try LocalizationFolder(at: place, developmentLanguage: "en", unreadable: .report)
        #expect(kept.loadErrors.count == 1)
        #expect(kept.uncountedFilesNote == "1 file could not be read and is not counted")
        let listed = try LocalizationFolder(at: place, developmentLanguage: "en", unreadable: .keep)
        #expect(listed.strings["en"] != nil && listed.loadErrors.count == 1)
    }

    @Test func aRenderingCatalogIsRefusedWhenAFileHasErrors() throws {
        let dir = try Self.folder([
            "en.lproj/Localizable.strings": "\"a\" = \"A\";\n",
            "de.lproj/Localizable.strings": "\"a\" = \"A\"\n\"b\" = ",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try Catalog(renderingFrom: LocalizationPlace(dir.path))
            Issue.record("a damaged catalog was accepted for rendering")
        } catch {
            #expect(!error.findings.isEmpty)
            #expect(error.findings.allSatisfy { $0.severity == .error && $0.line > 0 })
            #expect(
                "\(error)"
                    == "1 strings file has errors (see above; 'contacts strings lint \(dir.path)' lists them all); nothing done"
            )
        }
        // The same folder is still served, as far as it can be, to a lookup.
        #expect(try Catalog(at: LocalizationPlace(dir.path)).string("a", locale: "en") == "A")
    }

    @Test func syncRefusesSyntaxErrorsAndSaysWhatItDid() throws {
        let bad = try Self.folder([
            "en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
            "de.lproj/Localizable.strings": "\"a\" = \"A\"\n\"c\" = ",
        ])
        let good = try Self.folder([
            "en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
            "de.lproj/Localizable.strings": "\"a\" = \"Ä\";\n\"old\" = \"Alt\";\n",
        ])
        defer { for d in [bad, good] { try? FileManager.default.removeItem(at: d) } }
        var broken = try LocalizationFolder(directory: bad)
        #expect {
            _ = try broken.syncChecked(prune: true)
        } throws: { error in
            guard case .fixSyntaxFirst(let d) = error as? StringsCatalogError else { return false }
            return "\(error)".hasPrefix("fix syntax errors first (nothing written): ") && d.file.contains("de.lproj")
        }
        var folder = try LocalizationFolder(directory: good)
        let report = try folder.syncChecked(prune: true)
        #expect(report.changeLines == ["de: + b", "de: - old"])
        #expect(report.summary(dryRun: false) == "1 added, 1 removed")
        #expect(report.summary(dryRun: true) == "1 added, 1 removed (dry run, nothing written)")
        var imported = XLIFF.ImportReport()
        imported.updated = 2
        imported.problems = ["x"]
        #expect(imported.summary(dryRun: false) == "2 updated, 0 unchanged, 1 skipped")
    }

    @Test func anExportOfEveryLanguageNeedsOneBesidesTheSource() throws {
        let only = try Self.folder(["en.lproj/Localizable.strings": "\"a\" = \"A\";\n"])
        let two = try Self.folder([
            "en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
            "de.lproj/Localizable.strings": "\"a\" = \"Ä\";\n",
        ])
        defer { for d in [only, two] { try? FileManager.default.removeItem(at: d) } }
        let single = try LocalizationFolder(directory: only, displayRoot: "L")
        #expect(throws: StringsCatalogError.invalidArgument("L has no language besides en to export")) {
            try XLIFF.write(single, languages: [], into: only.appendingPathComponent("out"))
        }
        let written = try XLIFF.write(
            LocalizationFolder(directory: two), languages: [], into: two.appendingPathComponent("out/xliff"))
        #expect(written.map(\.url.lastPathComponent) == ["de.xliff"])
        #expect(written.first?.entries == 2 && written.first?.untranslated == 1)
    }

    @Test func getAnswersWithFallbackPrintfAndMessages() throws {
        let dir = try Self.folder([
            "en.lproj/Localizable.strings":
                "\"hi\" = \"Hello %@\";\n\"n_mf2\" = \"{$n} files\";\n\"plain\" = \"Plain\";\n",
            "de.lproj/Localizable.strings": "\"hi\" = \"Hallo %@\";\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = try Catalog(at: LocalizationPlace(dir.path))
        #expect(try catalog.answer("plain", locale: "de").text == "Plain")
        #expect(
            try catalog.answer("hi", locale: "de", arguments: [CatalogArgument(commandLine: "Ada")]).text == "Hallo Ada"
        )
        let message = try catalog.answer("n_mf2", locale: "de", named: ["n": .decimal("3")], bidiIsolation: .none)
        #expect(message.text == "3 files" && message.errors.isEmpty)
        let failed = try catalog.answer("n_mf2", locale: "de", named: ["m": .decimal("3")], bidiIsolation: .none)
        #expect(failed.text == "{$n} files" && !failed.errors.isEmpty)
        #expect(throws: StringsCatalogError.missingKey(key: "nope", table: "Localizable", locale: "de")) {
            try catalog.answer("nope", locale: "de")
        }
        #expect(CatalogArgument(commandLine: "42") == .int(42))
    }
}

@Suite struct StringsCatalogErrorAudienceTests {
    @Test func casesAreSplitByAudience() {
        #expect(StringsCatalogError.noSuchFolder("L").isUsageError)
        #expect(StringsCatalogError.malformed(file: "f", line: 1, column: 1, message: "m").isUsageError)
        #expect(!StringsCatalogError.io(path: "p", message: "m").isUsageError)
    }
}
