import Foundation
import TestSupport
import Testing

/// Folders laid out as real projects lay them out, and files that cannot be read.
@Suite("contacts strings on project trees and damaged files")
struct StringsTreeCLITests {
    /// A temporary folder with the given files (path → bytes); removed by the caller.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let dir = Scratch.path("strings-tree")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (path, bytes) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return dir
    }

    static func utf16LE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }

    @Test func lprojFoldersAndCatalogsAreFoundBelowTheFolder() throws {
        let dir = try Self.folder([
            "Localization/App/en.lproj/Localizable.strings": Array("\"Hello %@\" = \"Hello %@\";\n".utf8),
            "Localization/App/de.lproj/Localizable.strings": Array("\"Hello %@\" = \"Hallo %d\";\n".utf8),
            "Localization/Widget/en.lproj/Localizable.strings": Array("\"Open\" = \"Open\";\n".utf8),
            "Localization/Widget/de.lproj/Localizable.strings": Array("\"Open\" = \"Öffnen\";\n".utf8),
            // Build products and checkouts are not searched.
            "Localization/.build/x/de.lproj/Localizable.strings": Array("\"Open\" = \"%d\";;\n".utf8),
            "Resources/Sub/Shop.xcstrings": Array(
                """
                {
                  "sourceLanguage" : "en",
                  "strings" : {
                    "Buy" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Acheter" } } } }
                  },
                  "version" : "1.0"
                }
                """.utf8),
            "Empty/README.md": Array("nothing here\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let loc = dir.appendingPathComponent("Localization").path
        let lint = try CLI.run(["strings", "lint", loc])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("/App/de.lproj/Localizable.strings:1:"), "\(lint.stdout)")
        #expect(lint.stdout.contains("1 error,"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("Localization/.build"), "\(lint.stdout)")
        let status = try CLI.run(["strings", "status", loc, "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"language\" : \"de\""))
        #expect(status.stdout.contains("\"total\" : 2"), "\(status.stdout)")

        let resources = try CLI.run(["strings", "status", dir.appendingPathComponent("Resources").path])
        #expect(resources.status == 0 && resources.stdout.contains("fr "), "\(resources.stdout)\(resources.stderr)")

        // XLIFF round trip keeps each table in its own folder.
        let out = dir.appendingPathComponent("xliff")
        let export = try CLI.run(["strings", "export-xliff", "--dir", loc, "--out", out.path])
        #expect(export.status == 0, "\(export.stderr)")
        let xliffURL = out.appendingPathComponent("de.xliff")
        var xliff = try String(contentsOf: xliffURL, encoding: .utf8)
        #expect(xliff.contains("original=\"Widget/en.lproj/Localizable.strings\""))
        xliff = xliff.replacingOccurrences(
            of: "<target state=\"translated\">Öffnen</target>", with: "<target>Auf</target>")
        try Data(xliff.utf8).write(to: xliffURL)
        let imported = try CLI.run(["strings", "import-xliff", xliffURL.path, "--dir", loc])
        #expect(imported.status == 0 && imported.stdout.contains("1 updated"), "\(imported.stdout)\(imported.stderr)")
        let widget = try String(
            contentsOf: dir.appendingPathComponent("Localization/Widget/de.lproj/Localizable.strings"), encoding: .utf8)
        #expect(widget == "\"Open\" = \"Auf\";\n")

        for command in ["lint", "status", "sync"] {
            let none = try CLI.run(["strings", command, dir.appendingPathComponent("Empty").path])
            #expect(none.status == 1 && none.stderr.contains("no localization files in"), "\(command): \(none)")
        }
        let get = try CLI.run(["strings", "get", "x", "--dir", dir.appendingPathComponent("Empty").path])
        #expect(get.status == 1 && get.stderr.contains("no localization files in"))
    }

    @Test func aCorruptCatalogIsReportedByEveryCommand() throws {
        let dir = try Self.folder([
            "en.lproj/Localizable.strings": Array("\"Open\" = \"Open\";\n".utf8),
            "Localizable.xcstrings": Array(
                "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : { ,\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("xliff")
        let xliff = dir.appendingPathComponent("de.xliff")
        try Data(
            "<xliff version=\"1.2\"><file original=\"Localizable.xcstrings\" target-language=\"de\"><body/></file></xliff>"
                .utf8
        ).write(to: xliff)
        let runs: [[String]] = [
            ["strings", "lint", dir.path], ["strings", "status", dir.path], ["strings", "sync", dir.path],
            ["strings", "get", "a", "--dir", dir.path, "--locale", "de"],
            ["strings", "export-xliff", "--dir", dir.path, "--out", out.path, "--language", "de"],
            ["strings", "import-xliff", xliff.path, "--dir", dir.path],
        ]
        let get = try CLI.run(["strings", "get", "Open", "--dir", dir.path, "--locale", "de"])
        #expect(get.stdout == "Open\n")
        #expect(get.stderr.contains("Localizable.xcstrings could not be read; answered from en ("), "\(get.stderr)")
        #expect(get.stderr.contains("en.lproj/Localizable.strings)"), "\(get.stderr)")
        for args in runs {
            let r = try CLI.run(args)
            #expect(r.status == 1, "\(args): \(r)")
            #expect((r.stdout + r.stderr).contains("Localizable.xcstrings:4:13:"), "\(args): \(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("de.xliff").path))
    }

    @Test func getSaysWhenItFallsBackPastABrokenFile() throws {
        let dir = try Self.folder([
            "en.lproj/Localizable.strings": Array("\"Cancel\" = \"Cancel\";\n".utf8),
            // CoreFoundation rejects UTF-16 without BOM; the app shows English.
            "de.lproj/Localizable.strings": Self.utf16LE("\"Cancel\" = \"Abbrechen\";\n"),
            // Not a property list: nothing readable.
            "fr.lproj/Localizable.strings": Array("bplist00garbage".utf8),
            "it.lproj/Localizable.strings": Array("\"Cancel\" = \"Annulla\";\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let de = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "de"])
        #expect(de.stdout == "Cancel\n")
        #expect(de.status == 1)
        #expect(de.stderr.contains("de.lproj/Localizable.strings:1:1: error:"), "\(de.stderr)")
        #expect(
            de.stderr.contains("de.lproj/Localizable.strings could not be read; answered from en ("), "\(de.stderr)")
        let fr = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "fr"])
        #expect(fr.stdout == "Cancel\n" && fr.status == 0)
        #expect(fr.stderr.contains("fr.lproj/Localizable.strings has errors; answered from en"), "\(fr.stderr)")
        // The development language's broken file is named when the lookup needs it.
        try Data(Self.utf16LE("\"Cancel\" = \"Cancel\";\n")).write(
            to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        let none = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "fr"])
        #expect(none.status == 1 && none.stdout.isEmpty)
        #expect(none.stderr.contains("en.lproj/Localizable.strings could not be read; no language has the key"))
        #expect(none.stderr.contains("fr.lproj/Localizable.strings has errors; no language has the key"))
        let it = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "it"])
        #expect(it.stdout == "Annulla\n" && it.status == 0 && it.stderr.isEmpty, "\(it.stderr)")
    }
}
