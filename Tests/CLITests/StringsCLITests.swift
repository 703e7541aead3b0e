import Foundation
import TestSupport
import Testing

/// Temporary folder with the given files (path → UTF-8 text).
private func stringsFolder(_ files: [String: String]) throws -> URL {
    let dir = Scratch.path("strings-cli")
    for (path, text) in files {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return dir
}

@Suite("contacts strings")
struct StringsCLITests {
    @Test func getResolvesBundledLiteralsWithFallbackAndPlurals() throws {
        let ru = try CLI.run(["strings", "get", "%d contacts selected", "--locale", "ru", "--count", "3"])
        #expect(ru.status == 0 && ru.stdout == "Выбрано 3 контакта\n", "\(ru.stderr)")
        let zh = try CLI.run(["strings", "get", "Select", "--locale", "zh-HK"])
        #expect(zh.stdout == "選取\n")
        let env = try CLI.run(
            ["strings", "get", "Cancel"],
            environment: ["LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"])
        #expect(env.stdout == "Abbrechen\n")
        // A language without a translation (Swahili) falls back to the development language; a language
        // ICU does not know (xx) is a usage error.
        let fallback = try CLI.run(["strings", "get", "No contacts", "--locale", "sw-KE"])
        #expect(fallback.stdout == "No contacts\n")
        #expect(try CLI.run(["strings", "get", "No contacts", "--locale", "xx-YY"]).status == 2)
        let missing = try CLI.run(["strings", "get", "No such key", "--locale", "de"])
        #expect(missing.status == 1 && missing.stderr.contains("No such key"))
        let bad = try CLI.run(["strings", "get", "%d contacts selected", "--locale", "de", "--count", "x"])
        #expect(bad.status == 2)
    }

    @Test func getFromAFolderWithArguments() throws {
        let dir = try stringsFolder(["en.lproj/Localizable.strings": "\"greet\" = \"Hello %@, you have %d\";\n"])
        let r = try CLI.run(["strings", "get", "greet", "Ana", "4", "--dir", dir.path, "--locale", "en"])
        #expect(r.status == 0 && r.stdout == "Hello Ana, you have 4\n", "\(r.stderr)")
        let mismatch = try CLI.run(["strings", "get", "greet", "Ana", "--dir", dir.path, "--locale", "en"])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("needs argument 2"))
    }

    @Test func lintReportsAndExitsOneOnErrors() throws {
        let dir = try stringsFolder([
            "en.lproj/Localizable.strings": "\"a %@\" = \"a %@\";\n\"b\" = \"B\";\n",
            "de.lproj/Localizable.strings": "\"a %@\" = \"A %d\";\n\"b\" = \"Bee\";;\n\"c\" = \"C\";\n",
        ])
        let r = try CLI.run(["strings", "lint", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("de.lproj/Localizable.strings:2:13: error [syntax] stray ';'"), "\(r.stdout)")
        #expect(r.stdout.contains("format arguments differ in type"))
        #expect(r.stdout.contains("\"c\" is not in en"))
        let json = try CLI.run(["strings", "lint", dir.path, "--json"])
        let items = try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]]
        #expect(
            items?.contains {
                $0["code"] as? String == "syntax" && $0["line"] as? Int == 2 && $0["column"] as? Int == 13
            } == true)
        let clean = try CLI.run(
            ["strings", "lint", "--quiet"],
            currentDirectory: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        // The package's own folder has no errors, and the documented literals (Localizable) no findings.
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("0 errors, "))
        #expect(!clean.stdout.contains("/Localizable."), "\(clean.stdout)")
        let none = try CLI.run(["strings", "lint", "/nonexistent-\(UUID().uuidString)"])
        #expect(none.status == 2)
    }

    @Test func statusSyncAndXLIFFRoundTrip() throws {
        let dir = try stringsFolder([
            "en.lproj/Localizable.strings": "/* Save */\n\"Save\" = \"Save\";\n\"Quit\" = \"Quit\";\n",
            "fr.lproj/Localizable.strings": "\"Save\" = \"Enregistrer\";\n\"Old\" = \"Vieux\";\n",
        ])
        let status = try CLI.run(["strings", "status", dir.path, "--json"])
        let rows = try JSONSerialization.jsonObject(with: status.stdoutData) as? [[String: Any]]
        let fr = rows?.first { $0["language"] as? String == "fr" }
        #expect(fr?["missing"] as? Int == 1 && fr?["translated"] as? Int == 1)

        let sync = try CLI.run(["strings", "sync", dir.path, "--prune"])
        #expect(
            sync.status == 0 && sync.stdout.contains("fr: + Quit") && sync.stdout.contains("fr: - Old"),
            "\(sync.stdout)\(sync.stderr)")
        let frText = try String(contentsOf: dir.appendingPathComponent("fr.lproj/Localizable.strings"), encoding: .utf8)
        #expect(
            frText == "\"Save\" = \"Enregistrer\";\n\n/* NEEDS TRANSLATION (copied from en) */\n\"Quit\" = \"Quit\";\n")

        let out = dir.appendingPathComponent("xliff")
        let export = try CLI.run(["strings", "export-xliff", "--dir", dir.path, "--out", out.path])
        #expect(export.status == 0, "\(export.stderr)")
        var xliff = try String(contentsOf: out.appendingPathComponent("fr.xliff"), encoding: .utf8)
        #expect(
            xliff.contains(
                "<trans-unit id=\"Quit\" xml:space=\"preserve\">\n        <source>Quit</source>\n      </trans-unit>"))
        xliff = xliff.replacingOccurrences(
            of: "<source>Quit</source>\n", with: "<source>Quit</source>\n        <target>Quitter</target>\n")
        try Data(xliff.utf8).write(to: out.appendingPathComponent("fr.xliff"))
        let imp = try CLI.run([
            "strings", "import-xliff", out.appendingPathComponent("fr.xliff").path, "--dir", dir.path,
        ])
        #expect(imp.status == 0 && imp.stdout.contains("1 updated"), "\(imp.stdout)\(imp.stderr)")
        let get = try CLI.run(["strings", "get", "Quit", "--dir", dir.path, "--locale", "fr-CA"])
        #expect(get.stdout == "Quitter\n")
        let missingDir = try CLI.run(["strings", "export-xliff", "--out", out.path])
        #expect(missingDir.status == 2)
    }

    /// A damaged XLIFF from a translator (one byte of invalid UTF-8 in an attribute name: the 11 bytes that
    /// used to trap inside Foundation's XML parser) is an error with file, line and column; the strings
    /// folder is left as it was.
    @Test func importOfInvalidUTF8XLIFFIsAnErrorNotACrash() throws {
        let original = "\"Save\" = \"Sichern\";\n"
        let dir = try stringsFolder([
            "en.lproj/Localizable.strings": "\"Save\" = \"Save\";\n", "de.lproj/Localizable.strings": original,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.xliff")
        try Data([0x3C, 0x78, 0x20, 0x61, 0xE8, 0x3D, 0x22, 0x31, 0x22, 0x2F, 0x3E]).write(to: bad)
        let r = try CLI.run(["strings", "import-xliff", bad.path, "--dir", dir.path])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("bad.xliff:1:5:") && r.stderr.contains("0xE8"), "\(r.stderr)")
        let after = try String(contentsOf: dir.appendingPathComponent("de.lproj/Localizable.strings"), encoding: .utf8)
        #expect(after == original)
    }
}
