import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// Pseudolanguages: placeholders stay as written, plural forms for every category of the language, and the
/// catalog serves them (fixtures written for these tests).
@Suite("Pseudolocalizer")
struct PseudolocalizerTests {
    static let samples = [
        "Delete %d contacts?", "%2$@ sent %1$lld files to %@", "Hello {name}, you have {count, number} new",
        "{count, plural, offset:1 =0 {No one} one {Just # friend} other {# friends and {name}}}",
        "{gender, select, female {She} male {He} other {They}} wrote", "Dear {{first_name}}, {{{html}}} {{#t}}x{{/t}}",
        "%#@files@ in %1$#@folders@", "100%% done, 'quoted {brace}'", "%arg photos", "%-5.2lf km",
    ]

    @Test func placeholdersStayAsWritten() throws {
        for style in Pseudolocalizer.Style.allCases {
            let p = Pseudolocalizer(style: style)
            for text in Self.samples {
                let out = p.transform(text)
                if !text.contains("%arg") {
                    let a = try PrintfFormat.arguments(of: text).map { "\($0.index):\($0.specifier.text)" }
                    let b = try PrintfFormat.arguments(of: out).map { "\($0.index):\($0.specifier.text)" }
                    #expect(a == b, "\(style) \(text) → \(out)")
                }
                for kept in ["{name}", "{count, number}", "{{first_name}}", "{{{html}}}", "{{#t}}", "{{/t}}", "%arg"]
                where text.contains(kept) {
                    #expect(out.contains(kept), "\(style) \(text) → \(out)")
                }
            }
        }
    }

    @Test func styles() {
        #expect(Pseudolocalizer(style: .accented).transform("Delete %d contacts?") == "Ðéļéţé %d çöñţåçţš?")
        #expect(Pseudolocalizer(style: .bounded).transform("OK") == "[# OK #]")
        #expect(Pseudolocalizer(style: .double).transform("Send %@ now") == "Send Send %@ now now")
        #expect(Pseudolocalizer(style: .rtl).transform("Hi %@!") == "\u{200F}\u{202E}Hi\u{202C}\u{200F} %@!")
        // ICU plural: keywords and '#' kept, branches changed, every category of the language added.
        let plural = Pseudolocalizer(style: .accented, pluralLanguage: "ar-XB").transform(
            "{n, plural, one {# file} other {# files}}")
        #expect(
            plural
                == "{n, plural, one {# ƒîļé} zero {# ƒîļéš} two {# ƒîļéš} few {# ƒîļéš} many {# ƒîļéš} other {# ƒîļéš}}",
            "\(plural)")
        #expect(Pseudolocalizer.isPseudoLanguage("en-XA") && Pseudolocalizer.isPseudoLanguage("ar-XB"))
        #expect(!Pseudolocalizer.isPseudoLanguage("de") && !Pseudolocalizer.isPseudoLanguage("es-419"))
    }

    /// A String Catalog with a plural key ("%lld photos", English forms) and `keys` without localizations.
    static func photosCatalog(keys: [String]) -> String {
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "%lld photos" : {
              "comment" : "Photos in an album",
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld photo" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld photos" } }
                    }
                  }
                }
              }
            }\(keys.map { ",\n    \"\($0)\" : { }" }.joined())
          },
          "version" : "1.0"
        }
        """
    }

    @Test func aFolderGetsThePseudolanguageAndTheCatalogServesIt() throws {
        let dir = try Scratch.directory("pseudo")
        try Scratch.write(
            "/* The title */\n\"title\" = \"Contacts\";\n\"greet\" = \"Hello %@\";\n",
            to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try Scratch.write("\"title\" = \"Kontakte\";\n", to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        let dict = StringsDictDocument.xmlDocument([
            StringsDictEntry(
                key: "%d files", formatKey: "%#@files@",
                variables: ["files": PluralVariable(name: "files", forms: ["one": "%d file", "other": "%d files"])])
        ])
        try Scratch.write(dict, to: dir.appendingPathComponent("en.lproj/Localizable.stringsdict"))
        try Scratch.write(Self.photosCatalog(keys: ["Done"]), to: dir.appendingPathComponent("Photos.xcstrings"))
        var folder = try LocalizationFolder(directory: dir)
        let report = try folder.pseudolocalize(
            Pseudolocalizer(style: .accented, pluralLanguage: "ar-XB"), into: "ar-XB")
        #expect(report.strings == 2 && report.plurals == 1 && report.catalogKeys == 2)
        _ = try folder.save()
        let strings = try String(
            contentsOf: dir.appendingPathComponent("ar-XB.lproj/Localizable.strings"), encoding: .utf8)
        #expect(strings == "/* The title */\n\"title\" = \"Çöñţåçţš\";\n\"greet\" = \"Ĥéļļö %@\";\n")
        let reread = try LocalizationFolder(directory: dir)
        let forms = reread.stringsDicts["ar-XB"]?["Localizable"]?.entries["%d files"]?.variables["files"]?.forms
        #expect(Set(forms?.keys ?? [:].keys) == ["zero", "one", "two", "few", "many", "other"])
        #expect(forms?["few"] == "%d ƒîļéš")
        let photos = try #require(reread.catalogs["Photos"]?.entry("%lld photos")?.localizations["ar-XB"])
        #expect(photos.plural.count == 6 && photos.plural["one"]?.value == "%lld þĥöţö")
        #expect(reread.catalogs["Photos"]?.entry("Done")?.localizations["ar-XB"]?.value == "Ðöñé")
        #expect(!reread.lint().contains { $0.severity == .error })
        // The catalog serves the pseudolanguage, plurals by the language's rules.
        let catalog = try Catalog(directory: dir)
        #expect(catalog.string("greet", table: "Localizable", locale: "ar-XB") == "Ĥéļļö %@")
        #expect(try catalog.format("%d files", table: "Localizable", locale: "ar-XB", arguments: [3]) == "3 ƒîļéš")
        // Running again replaces it; a language with translations is refused.
        var again = try LocalizationFolder(directory: dir)
        _ = try again.pseudolocalize(Pseudolocalizer(style: .bounded), into: "ar-XB")
        #expect(again.strings["ar-XB"]?["Localizable"]?.dictionary["title"] == "[# Contacts #]")
        #expect(throws: StringsCatalogError.self) {
            try again.pseudolocalize(Pseudolocalizer(style: .bounded), into: "de")
        }
        #expect(throws: StringsCatalogError.self) {
            try again.pseudolocalize(Pseudolocalizer(style: .bounded), into: "en")
        }
    }
}
