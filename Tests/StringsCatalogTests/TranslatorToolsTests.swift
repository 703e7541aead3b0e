import Foundation
import Testing

@testable import StringsCatalog

let pluralDictEN = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<!-- Selection count -->
    \t<key>%d selected</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%#@n@</string>
    \t\t<key>n</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>d</string>
    \t\t\t<key>one</key>
    \t\t\t<string>%d selected</string>
    \t\t\t<key>other</key>
    \t\t\t<string>%d selected</string>
    \t\t</dict>
    \t</dict>
    </dict>
    </plist>

    """

/// Russian plural entry lacking "few" and "many", with a wrong specifier in "one".
let pluralDictRUBad = pluralDictEN.replacingOccurrences(of: "<!-- Selection count -->", with: "<!-- Счётчик -->")
    .replacingOccurrences(
        of: "<string>%d selected</string>\n\t\t\t<key>other</key>",
        with: "<string>%@ выбран</string>\n\t\t\t<key>other</key>"
    )
    .replacingOccurrences(
        of: "<string>%d selected</string>\n\t\t</dict>", with: "<string>%d выбрано</string>\n\t\t</dict>")

func lintProject() throws -> URL {
    try makeCatalogFolder([
        "en.lproj/Localizable.strings": """
        /* Greeting */
        "Hello %@" = "Hello %@";
        /* Two args */
        "%@ sent %d" = "%1$@ sent %2$d";
        "Save" = "Save";
        "Quit" = "Quit";

        """,
        "en.lproj/Localizable.stringsdict": pluralDictEN,
        "ru.lproj/Localizable.strings": """
        "Hello %@" = "Привет %d";
        "%@ sent %d" = "%2$d отправил %1$@";
        "Save" = "Save";
        "Stale" = "Старый";
        "Quit" = "";
        "Hello %@" = "Привет, %@";

        """,
        "ru.lproj/Localizable.stringsdict": pluralDictRUBad,
        "de.lproj/Localizable.strings": """
        "Hello %@" = "Hallo %@"
        "Save" = "Sichern";
        # stray
        "Quit" = "Beenden";

        """,
    ])
}

@Suite("Lint, status, sync")
struct TranslatorToolsTests {
    @Test func lintFindsEveryKindOfProblem() throws {
        let dir = try lintProject()
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let findings = folder.lint()
        func has(_ code: String, _ file: String, _ line: Int? = nil, _ text: String = "") -> Bool {
            findings.contains {
                $0.code == code && $0.file == file && (line == nil || $0.line == line)
                    && (text.isEmpty || $0.message.contains(text))
            }
        }
        #expect(has("syntax", "L/de.lproj/Localizable.strings", 1, "missing ';'"))
        #expect(has("syntax", "L/de.lproj/Localizable.strings", 3))
        #expect(has("missing-key", "L/de.lproj/Localizable.strings", nil, "%@ sent %d"))
        #expect(has("duplicate-key", "L/ru.lproj/Localizable.strings", 6))
        #expect(has("extra-key", "L/ru.lproj/Localizable.strings", 4, "Stale"))
        #expect(has("empty-value", "L/ru.lproj/Localizable.strings", 5))
        #expect(has("same-as-source", "L/ru.lproj/Localizable.strings", 3))
        // The last duplicate is "Привет, %@" — correct; the first one ("%d") is a type mismatch.
        #expect(has("format-mismatch", "L/ru.lproj/Localizable.strings", 1, "type"))
        #expect(!has("format-mismatch", "L/ru.lproj/Localizable.strings", 2), "positional reordering is fine")
        let mismatch = findings.first { $0.code == "format-mismatch" && $0.file == "L/ru.lproj/Localizable.strings" }
        #expect(mismatch?.column == 14, "points at the value")
        #expect(has("plural-category", "L/ru.lproj/Localizable.stringsdict", 6, "few, many"))
        #expect(has("format-mismatch", "L/ru.lproj/Localizable.stringsdict", 6, "n.one"))
        #expect(has("missing-file", "L/de.lproj/Localizable.stringsdict"))
        #expect(
            findings.first { $0.code == "syntax" }?.description.hasPrefix("L/de.lproj/Localizable.strings:1:") == true)
    }

    @Test func orderAndCountMismatches() {
        let order = LocalizationFolder.formatFinding(
            source: "%@ has %d", translation: "%d hat %@", key: "k", file: "f", line: 1, column: 1)
        #expect(order?.message.contains("order") == true)
        let count = LocalizationFolder.formatFinding(
            source: "%@ has %d", translation: "%@ hat", key: "k", file: "f", line: 1, column: 1)
        #expect(count?.message.contains("1 format arguments, the source has 2") == true)
        #expect(
            LocalizationFolder.formatFinding(
                source: "100%", translation: "100 %", key: "k", file: "f", line: 1, column: 1) == nil)
        #expect(
            LocalizationFolder.formatFinding(source: "%ld", translation: "%d", key: "k", file: "f", line: 1, column: 1)
                == nil)
    }

    /// The documented literals (the Localizable table) lint clean; other tables in the folder (template
    /// messages) may legitimately cover fewer languages, but never have errors.
    @Test func bundledLocalizationsLintClean() throws {
        let url = try #require(Catalog.bundledLocalizationsURL())
        let findings = try LocalizationFolder(directory: url).lint()
        let localizable = findings.filter { $0.severity != .note && $0.file.contains("/Localizable.") }
        #expect(localizable.isEmpty, "\(localizable)")
        #expect(!findings.contains { $0.severity == .error }, "\(findings.filter { $0.severity == .error })")
    }

    @Test func statusCounts() throws {
        let folder = try LocalizationFolder(directory: lintProject())
        let status = Dictionary(uniqueKeysWithValues: folder.status().map { ($0.language, $0) })
        #expect(status["en"]?.total == 5 && status["en"]?.translated == 5)
        let ru = try #require(status["ru"])
        #expect(ru.total == 5 && ru.missing == 0 && ru.untranslated == 2 && ru.translated == 3)
        let de = try #require(status["de"])
        #expect(de.missing == 2 && de.translated == 3)
    }

    @Test func syncAddsMissingAndPrunesStaleTouchingNothingElse() throws {
        let dir = try makeCatalogFolder([
            "en.lproj/Localizable.strings": "/* Save button */\n\"Save\" = \"Save\";\n\"Quit\" = \"Quit\";\n",
            "en.lproj/Localizable.stringsdict": pluralDictEN,
            "fr.lproj/Localizable.strings":
                "// kept comment\n\"Save\"   =   \"Enregistrer\" ;\n\n/* old */\n\"Stale\" = \"Vieux\";\n",
        ])
        var folder = try LocalizationFolder(directory: dir)
        let report = folder.sync(prune: true)
        #expect(report.added["fr"]?.sorted() == ["%d selected", "Quit"])
        #expect(report.removed["fr"] == ["Stale"])
        let written = try folder.save()
        #expect(written.count == 2)
        let fr = try String(contentsOf: dir.appendingPathComponent("fr.lproj/Localizable.strings"), encoding: .utf8)
        #expect(
            fr
                == "// kept comment\n\"Save\"   =   \"Enregistrer\" ;\n\n/* NEEDS TRANSLATION (copied from en) */\n\"Quit\" = \"Quit\";\n"
        )
        let dict = try StringsDictDocument(contentsOf: dir.appendingPathComponent("fr.lproj/Localizable.stringsdict"))
        #expect(dict.diagnostics.isEmpty)
        #expect(dict.entries["%d selected"]?.variables["n"]?.forms["other"] == "%d selected")
        #expect(dict.entries["%d selected"]?.comment == "NEEDS TRANSLATION (copied from en): Selection count")
        // A second sync changes nothing.
        var again = try LocalizationFolder(directory: dir)
        let second = again.sync(prune: true)
        #expect(second.added.isEmpty && second.removed.isEmpty)
        #expect(try again.save().isEmpty)
        // English untouched.
        #expect(
            try String(contentsOf: dir.appendingPathComponent("en.lproj/Localizable.strings"), encoding: .utf8)
                == "/* Save button */\n\"Save\" = \"Save\";\n\"Quit\" = \"Quit\";\n")
    }

    @Test func stringsdictInPlaceEdits() throws {
        var doc = StringsDictDocument(parsing: Data(pluralDictEN.utf8))
        let setOne = doc.setForm("Eins", key: "%d selected", variable: "n", category: "one")
        let setMany = doc.setForm("%d ausgewählt (viele)", key: "%d selected", variable: "n", category: "many")
        #expect(setOne && setMany)
        let text = String(decoding: doc.data(), as: UTF8.self)
        #expect(
            text
                == pluralDictEN.replacingOccurrences(
                    of: "<key>one</key>\n\t\t\t<string>%d selected</string>",
                    with: "<key>one</key>\n\t\t\t<string>Eins</string>"
                )
                .replacingOccurrences(
                    of: "<string>%d selected</string>\n\t\t</dict>",
                    with:
                        "<string>%d selected</string>\n\t\t\t<key>many</key>\n\t\t\t<string>%d ausgewählt (viele)</string>\n\t\t</dict>"
                ))
        #expect(doc.entries["%d selected"]?.variables["n"]?.forms["many"] == "%d ausgewählt (viele)")
        let removed = doc.removeEntry("%d selected")
        #expect(removed)
        #expect(doc.entries.isEmpty)
        #expect(!String(decoding: doc.data(), as: UTF8.self).contains("Selection count"))
    }
}
