import Foundation
import TestSupport
import Testing

/// Strings whose values are Unicode MessageFormat 2 messages: `strings get --arg` formats them, and the
/// translators' round trips (`.po`, XLIFF) bring them back byte for byte.
@Suite("contacts strings with MessageFormat 2 values")
struct StringsMessageFormat2CLITests {
    /// key → (English, German): `.match`, quoted literals with escapes, markup, `{{…}}` with the spaces and
    /// braces a quoted pattern keeps, XML's and gettext's special characters, several lines, a tab.
    static let messages: [(String, String, String)] = [
        (
            "files_mf2",
            ".input {$count :integer}\n.match $count\none {{You have {$count} file.}}\n* {{You have {$count} files.}}",
            ".input {$count :integer}\n.match $count\none {{Sie haben {$count} Datei.}}\n* {{Sie haben {$count} Dateien.}}"
        ),
        (
            "quoted_mf2",
            #".local $label = {|Hello, {world}!\|\\| :string}{{{$label} "{$name}"}}"#,
            #".local $label = {|Hallo, {Welt}!\|\\| :string}{{{$label} „{$name}“}}"#
        ),
        (
            "markup_mf2",
            #"{#link href=|https://example.org/?a=1&b=<2>|}Open{/link} {#img src=|x.png| /}\#tnow & then"#,
            #"{#link href=|https://example.org/?a=1&b=<2>|}Öffnen{/link} {#img src=|x.png| /}\#tjetzt & dann"#
        ),
        (
            "pattern_mf2",
            "{{  two spaces, \\{braces\\} and {$name}  }}",
            "{{  zwei Leerzeichen, \\{Klammern\\} und {$name}  }}"
        ),
        ("plain", "Cancel", "Abbrechen"),
    ]

    /// A `.strings` file of the messages in one language, each with a comment, in the layout Xcode writes.
    static func stringsFile(_ language: Int) -> String {
        func quoted(_ s: String) -> String {
            "\""
                + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
        }
        return Self.messages.map { key, en, de in
            "/* \(key) */\n\(quoted(key)) = \(quoted(language == 0 ? en : de));\n"
        }.joined(separator: "\n")
    }

    /// A String Catalog (`Messages.xcstrings`) of the messages, German included or not.
    static func catalogFile(german: Bool) throws -> String {
        var strings: [String: Any] = [:]
        for (key, en, de) in messages {
            var localizations: [String: Any] = ["en": ["stringUnit": ["state": "translated", "value": en]]]
            if german { localizations["de"] = ["stringUnit": ["state": "translated", "value": de]] }
            strings[key] = ["localizations": localizations]
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["sourceLanguage": "en", "strings": strings, "version": "1.0"], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A folder with English and German (`german`: false leaves German out, for an import to fill): a
    /// `.strings` table and a String Catalog.
    static func project(_ name: String, german: Bool) throws -> URL {
        let dir = try Scratch.directory(name)
        try Scratch.write(stringsFile(0), to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        if german {
            try Scratch.write(stringsFile(1), to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        }
        try Scratch.write(try catalogFile(german: german), to: dir.appendingPathComponent("Messages.xcstrings"))
        return dir
    }

    @Test func getFormatsMessageFormat2AndICUValues() throws {
        let dir = try Self.project("mf2-get", german: true)
        func get(_ key: String, _ locale: String, _ args: [String]) throws -> CLIResult {
            try CLI.run(
                ["strings", "get", key, "--dir", dir.path, "--locale", locale, "--no-bidi"]
                    + args.flatMap { ["--arg", $0] })
        }
        let one = try get("files_mf2", "de", ["count=1"])
        #expect(one.status == 0 && one.stdout == "Sie haben 1 Datei.\n", "\(one.stdout) \(one.stderr)")
        let many = try get("files_mf2", "en-GB", ["count=3"])
        #expect(many.stdout == "You have 3 files.\n", "\(many.stdout) \(many.stderr)")
        let quoted = try get("quoted_mf2", "en", ["name=Ada"])
        #expect(quoted.stdout == #"Hello, {world}!|\ "Ada""# + "\n", "\(quoted.stdout) \(quoted.stderr)")
        let markup = try get("markup_mf2", "de", ["x=1"])
        #expect(markup.stdout == "Öffnen \tjetzt & dann\n", "\(markup.stdout) \(markup.stderr)")
        let pattern = try get("pattern_mf2", "en", ["name=Ada"])
        #expect(pattern.stdout == "  two spaces, {braces} and Ada  \n", "\(pattern.stdout)")
        // Isolation by default, as the MessageFormat 2 specification has it.
        let isolated = try CLI.run(
            ["strings", "get", "pattern_mf2", "--dir", dir.path, "--locale", "en", "--arg", "name=Ada"])
        #expect(isolated.stdout.contains("\u{2068}Ada\u{2069}"), "\(isolated.stdout)")
        // A missing argument: the fallback in the text, the error on stderr, exit 1.
        let missing = try get("pattern_mf2", "en", ["other=1"])
        #expect(missing.status == 1 && missing.stdout.contains("{$name}"), "\(missing.stdout)")
        #expect(missing.stderr.contains("unresolved-variable"), "\(missing.stderr)")
        // Any other value is an ICU MessageFormat pattern.
        let icuDir = try Scratch.directory("mf1-get")
        try Scratch.write(
            "\"guests\" = \"{n, plural, one {# guest} other {# guests}} for {host}\";\n",
            to: icuDir.appendingPathComponent("en.lproj/Localizable.strings"))
        let icu = try CLI.run(
            ["strings", "get", "guests", "--dir", icuDir.path, "--locale", "en", "--arg", "n=2", "--arg", "host=Ada"])
        #expect(icu.status == 0 && icu.stdout == "2 guests for Ada\n", "\(icu.stdout) \(icu.stderr)")
        // A broken MF2 value names the syntax error's place; --arg beside printf arguments is a usage error.
        try Scratch.write(
            "\"bad_mf2\" = \".match {{x}}\";\n", to: icuDir.appendingPathComponent("en.lproj/Localizable.strings"))
        let bad = try CLI.run(["strings", "get", "bad_mf2", "--dir", icuDir.path, "--locale", "en", "--arg", "n=1"])
        #expect(bad.status == 1 && bad.stderr.contains("syntax error at line 1, column"), "\(bad.stderr)")
        let mixed = try CLI.run(["strings", "get", "plain", "--dir", dir.path, "--arg", "n=1", "--count", "2"])
        #expect(mixed.status == 2, "\(mixed.stderr)")
    }

    /// German exported from a project that has it and imported into one that does not: the file written is
    /// byte for byte the original, for `.po` and for XLIFF.
    @Test(arguments: ["po", "xliff"])
    func translatorRoundTripKeepsMessagesByteForByte(_ kind: String) throws {
        let source = try Self.project("mf2-\(kind)-source", german: true)
        let target = try Self.project("mf2-\(kind)-target", german: false)
        let out = try Scratch.directory("mf2-\(kind)-out")
        let export = try CLI.run(
            ["strings", "export-\(kind)", "--dir", source.path, "--out", out.path, "--language", "de"])
        #expect(export.status == 0, "\(export.stderr)")
        let files = kind == "po" ? ["Localizable/de.po", "Messages/de.po"] : ["de.xliff"]
        for file in files {
            let imported = try CLI.run(
                ["strings", "import-\(kind)", out.appendingPathComponent(file).path, "--dir", target.path])
            #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
            let count = Self.messages.count * (kind == "po" ? 1 : 2)
            #expect(imported.stdout.contains("\(count) updated"), "\(imported.stdout)")
        }
        let written = try Data(contentsOf: target.appendingPathComponent("de.lproj/Localizable.strings"))
        let original = try Data(contentsOf: source.appendingPathComponent("de.lproj/Localizable.strings"))
        #expect(
            written == original,
            "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: original, as: UTF8.self))")
        // The catalog's German values are the source's, character for character.
        for (key, _, de) in Self.messages {
            let value = try CLI.run([
                "strings", "get", key, "--dir", target.path, "--table", "Messages", "--locale", "de",
            ])
            #expect(value.stdout == de + "\n", "\(key): \(value.stdout) \(value.stderr)")
        }
        // And the imported messages still format.
        let get = try CLI.run(
            ["strings", "get", "files_mf2", "--dir", target.path, "--locale", "de", "--arg", "count=2"])
        #expect(get.stdout == "Sie haben 2 Dateien.\n", "\(get.stdout) \(get.stderr)")
    }
}
