import Foundation
import Testing

@testable import StringsCatalog

/// gettext export: every file passes `msgfmt --check`; plurals, fuzzy, obsolete and format flags.
@Suite struct POExportTests {
    static let localizations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/StringsCatalog/Localizations").standardized

    /// Runs `msgfmt --check` on a text; returns its exit status and messages.
    func msgfmtCheck(_ text: String, name: String) throws -> (Int32, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("po-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_"))
        try Data(text.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        p.arguments = ["--check", "-o", "/dev/null", file.path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func projectLocalizationsPassMsgfmt() throws {
        let folder = try LocalizationFolder(directory: Self.localizations)
        let files = POExport.files(folder)
        #expect(files.contains { $0.path == "Localizable/Localizable.pot" })
        #expect(files.contains { $0.path == "Localizable/pt_BR.po" })
        #expect(files.count >= 3 * folder.allLanguages.count - 3)
        for (path, po) in files {
            let (status, messages) = try msgfmtCheck(po.text(), name: path)
            #expect(status == 0, "\(path): \(messages)")
        }
        let ru = try #require(files.first { $0.path == "Localizable/ru.po" }?.document)
        let plural = try #require(ru.entries.first { $0.msgidPlural != nil })
        #expect(plural.msgstr.count == 3)
        #expect(ru.header["Plural-Forms"] == PluralForms(language: "ru").header)
        #expect(ru.header["Language"] == "ru")
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Gone" : {
              "extractionState" : "stale",
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Weg" } },
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Gone" } }
              }
            },
            "Review %@" : {
              "comment" : "Two lines\\nof comment",
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Prüfe %@" } },
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Review %@" } }
              }
            },
            "%lld files" : {
              "localizations" : {
                "de" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Datei" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Dateien" } } } } },
                "en" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld files" } } } } }
              }
            }
          },
          "version" : "1.0"
        }
        """

    func fixtureFolder() throws -> LocalizationFolder {
        let dir = try makeCatalogFolder([
            "en.lproj/Localizable.strings":
                "/* Quote and tab */\n\"Quote\" = \"Say \\\"hi\\\"\\tnow\";\n\"Lines\" = \"one\\ntwo\\n\";\n",
            "de.lproj/Localizable.strings":
                "\"Quote\" = \"Sag \\\"hallo\\\"\\tjetzt\";\n\"Lines\" = \"eins\\nzwei\\n\";\n",
            "en.lproj/Localizable.stringsdict": pluralDictEN,
            "Shop.xcstrings": Self.catalog,
        ])
        return try LocalizationFolder(directory: dir)
    }

    @Test func fixturesPassMsgfmtWithFlagsPluralsAndObsolete() throws {
        let files = POExport.files(try fixtureFolder())
        for (path, po) in files {
            let (status, messages) = try msgfmtCheck(po.text(), name: path)
            #expect(status == 0, "\(path): \(messages)")
        }
        let de = try #require(files.first { $0.path == "Shop/de.po" }?.document)
        let review = try #require(de.entries.first { $0.context == "Review %@" })
        #expect(review.flags == ["fuzzy", "objc-format"])
        #expect(review.extractedComments == ["Two lines", "of comment"])
        let gone = try #require(de.entries.first { $0.context == "Gone" })
        #expect(gone.obsolete)
        #expect(POFile.text(of: gone).hasPrefix("#~ msgctxt \"Gone\"\n#~ msgid \"Gone\"\n#~ msgstr \"Weg\""))
        let files2 = try #require(de.entries.first { $0.context == "%lld files" })
        #expect(files2.msgid == "%lld file" && files2.msgidPlural == "%lld files")
        #expect(files2.msgstr == ["%lld Datei", "%lld Dateien"])
        #expect(files2.flags == ["c-format"])
        let strings = try #require(files.first { $0.path == "Localizable/de.po" }?.document)
        let lines = try #require(strings.entries.first { $0.context == "Lines" })
        #expect(POFile.text(of: lines).contains("msgstr \"\"\n\"eins\\n\"\n\"zwei\\n\"\n"))
        let quote = try #require(strings.entries.first { $0.context == "Quote" })
        #expect(POFile.text(of: quote).contains("msgstr \"Sag \\\"hallo\\\"\\tjetzt\""))
        // What is written reads back the same.
        for (path, po) in files {
            let back = POFile(parsing: po.text(), file: path)
            #expect(back.problems.isEmpty, "\(path): \(back.problems)")
            #expect(back.entries.map(\.msgstr) == po.entries.map(\.msgstr), "\(path)")
            #expect(back.entries.map(\.context) == po.entries.map(\.context), "\(path)")
        }
    }
}
