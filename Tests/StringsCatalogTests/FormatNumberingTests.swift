import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// Mixed positional and plain printf specifiers, numbered as CoreFoundation numbers them, and the lint
/// findings that valid translations used to draw (fixtures below written for these tests, modelled on
/// catalogs of shipping iOS apps).
@Suite("Format numbering and lint of valid translations")
struct FormatNumberingTests {
    @Test func mixedSpecifiersAreNumberedAsCoreFoundationNumbersThem() throws {
        #expect(try PrintfFormat.format("%1$d Stück, %d", arguments: [5]) == "5 Stück, 5")
        #expect(try PrintfFormat.format("%2$@ und %@", arguments: ["X", "Y"]) == "Y und X")
        #expect(try PrintfFormat.arguments(of: "%@ %1$@ %@").map(\.index) == [0, 0, 1])
        #expect(try PrintfFormat.positional("%2$@ und %@ (100%%)") == "%2$@ und %1$@ (100%%)")
        // Foundation's String(format:) on Linux is CoreFoundation's own formatter: the same results.
        let cases: [(String, [String])] = [
            ("%2$@ und %@", ["X", "Y"]), ("%@ %1$@ %@", ["X", "Y"]), ("%2$@ %@ %@", ["X", "Y"]),
            ("%@, %2$@, %1$@", ["A", "B"]),
        ]
        for (pattern, values) in cases {
            let expected = String(format: pattern, arguments: values.map { $0 as NSString })
            #expect(try PrintfFormat.format(pattern, arguments: values.map { .string($0) }) == expected, "\(pattern)")
        }
        #expect(try PrintfFormat.format("%1$d Stück, %d", arguments: [5]) == String(format: "%1$d Stück, %d", 5))
    }

    @Test func stringsdictExpansionKeepsTheNumbering() throws {
        // "%@" after a plural variable is the second plain specifier: argument 2.
        let entry = StringsDictEntry(
            key: "k", formatKey: "%#@files@ in %@",
            variables: ["files": PluralVariable(name: "files", forms: ["one": "%d file", "other": "%d files"])])
        #expect(try entry.format(locale: "en", arguments: [3, "Docs"]) == "3 files in Docs")
        #expect(try StringsDictEntry.pinSequential("%d of %#@total@", to: 2) == "%2$d of %3$#@total@")
    }

    static func dict(_ key: String, _ format: String, _ variables: [(String, [(String, String)])]) -> String {
        var out = "<key>\(key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(format)</string>"
        for (name, forms) in variables {
            out += "<key>\(name)</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            out += "<key>NSStringFormatValueTypeKey</key><string>d</string>"
            for (c, f) in forms { out += "<key>\(c)</key><string>\(f)</string>" }
            out += "</dict>"
        }
        return out + "</dict>"
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>\(body)</dict></plist>
        """
    }

    @Test func validStringsdictTranslationsDrawNoErrors() throws {
        let dir = try Scratch.directory("numbering-lint")
        try Scratch.write(
            Self.plist(
                Self.dict("files", "%#@v1@", [("v1", [("one", "File"), ("other", "Files")])])
                    + Self.dict("mixed", "%#@n@, %2$@", [("n", [("one", "%d item"), ("other", "%d items")])])),
            to: dir.appendingPathComponent("en.lproj/Localizable.stringsdict"))
        // Renamed variable, the count shown where the source does not show it, mixed numbering.
        try Scratch.write(
            Self.plist(
                Self.dict("files", "%#@v0@", [("v0", [("one", "%d Datei"), ("other", "%d Dateien")])])
                    + Self.dict("mixed", "%2$@: %#@n@", [("n", [("one", "%d Stück"), ("other", "%d Stück")])])),
            to: dir.appendingPathComponent("de.lproj/Localizable.stringsdict"))
        // Real problems: a string where the count is, a category Polish does not have.
        try Scratch.write(
            Self.plist(
                Self.dict(
                    "files", "%#@v1@",
                    [
                        (
                            "v1",
                            [
                                ("one", "%d plik"), ("two", "%d pliki"), ("few", "%d pliki"), ("many", "%@ plików"),
                                ("other", "%d pliku"),
                            ]
                        )
                    ])
                    + Self.dict(
                        "mixed", "%#@n@", [("n", [("one", "%d"), ("few", "%d"), ("many", "%d"), ("other", "%d")])])),
            to: dir.appendingPathComponent("pl.lproj/Localizable.stringsdict"))
        // Hebrew `many`, which CLDR 42 dropped, is still selected by older systems: no warning.
        try Scratch.write(
            Self.plist(
                Self.dict(
                    "files", "%#@v1@",
                    [("v1", [("one", "קובץ"), ("two", "%d קבצים"), ("many", "%d קבצים"), ("other", "%d קבצים")])])
                    + Self.dict("mixed", "%#@n@, %2$@", [("n", [("one", "%d"), ("two", "%d"), ("other", "%d")])])),
            to: dir.appendingPathComponent("he.lproj/Localizable.stringsdict"))
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let findings = folder.lint()
        let hebrew = findings.filter { $0.file.contains("he.lproj") && $0.severity != .note }
        #expect(hebrew.isEmpty, "\(hebrew)")
        let german = findings.filter { $0.file.contains("de.lproj") && $0.severity != .note }
        #expect(german.isEmpty, "\(german)")
        let polish = findings.filter { $0.file.contains("pl.lproj") }
        #expect(
            polish.contains {
                $0.severity == .warning && $0.code == "plural-category" && $0.message.contains("two")
                    && $0.message.contains("does not use")
            }, "\(polish)")
        #expect(
            polish.contains {
                $0.severity == .error && $0.code == "format-mismatch" && $0.message.contains("v1.many")
            }, "\(polish)")
        // The dropped "%@" of "mixed" is an error.
        #expect(
            polish.contains { $0.severity == .error && $0.message.contains("\"mixed\"") }, "\(polish)")
    }

    @Test func stringsWithMixedSpecifiersAndRealMismatches() throws {
        let dir = try Scratch.directory("numbering-strings")
        try Scratch.write(
            "\"pieces\" = \"%d pieces, %1$d in stock\";\n\"swap\" = \"%@ and %@\";\n\"typed\" = \"%1$@ has %2$d\";\n",
            to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try Scratch.write(
            "\"pieces\" = \"%1$d Stück, %d auf Lager\";\n\"swap\" = \"%2$@ und %@\";\n\"typed\" = \"%2$@ hat %1$d\";\n",
            to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let errors = folder.lint().filter { $0.severity == .error }
        // pieces and swap are valid; typed swaps the types of its positional arguments.
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.message.contains("\"typed\"") == true)
        #expect(errors.first?.message.contains("differ in type") == true)
    }

    @Test func baseBundlesAndUnrelatedBundles() throws {
        let dir = try Scratch.directory("bundles-lint")
        // App: Base.lproj and de, no en.lproj. Widget: en and fr only.
        try Scratch.write(
            "\"title\" = \"Contacts\";\n\"done\" = \"Done\";\n",
            to: dir.appendingPathComponent("App/Base.lproj/Localizable.strings"))
        try Scratch.write(
            "\"title\" = \"Kontakte\";\n\"gone\" = \"Weg\";\n",
            to: dir.appendingPathComponent("App/de.lproj/Localizable.strings"))
        try Scratch.write("\"w\" = \"Widget\";\n", to: dir.appendingPathComponent("Widget/en.lproj/Widget.strings"))
        try Scratch.write("\"w\" = \"Gadget\";\n", to: dir.appendingPathComponent("Widget/fr.lproj/Widget.strings"))
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let findings = folder.lint()
        #expect(!findings.contains { $0.code == "no-source" }, "\(findings)")
        #expect(!findings.contains { $0.code == "missing-file" }, "\(findings)")
        let missing = findings.filter { $0.code == "missing-key" }
        #expect(missing.count == 1 && missing[0].message == "\"done\" is missing (present in Base)", "\(missing)")
        #expect(findings.contains { $0.code == "extra-key" && $0.message.hasPrefix("\"gone\" is not in Base") })
        // A language of the same bundle that lacks the table is still reported.
        try Scratch.write("\"x\" = \"y\";\n", to: dir.appendingPathComponent("App/fr.lproj/Other.strings"))
        let again = try LocalizationFolder(directory: dir, displayRoot: "L").lint()
        #expect(again.filter { $0.code == "missing-file" }.map(\.file) == ["L/App/fr.lproj/Localizable.strings"])
    }
}
