import Foundation
import StringsCatalog
import TestSupport
import Testing

@testable import Templating

@Suite("Strings catalog as the message source")
struct CatalogMessagesTests {
    func catalog() -> Catalog {
        var catalog = Catalog()
        var en = Catalog.Table()
        en.strings["hello"] = "Hello {name}!"
        en.plurals["guests"] = StringsDictEntry(
            key: "guests", formatKey: "%#@guests@ for {name}'s party",
            variables: [
                "guests": PluralVariable(
                    name: "guests", forms: ["zero": "nobody", "one": "%d guest", "other": "%d guests"])
            ])
        catalog.add(en, language: "en", table: "party")
        var ru = Catalog.Table()
        ru.plurals["guests"] = StringsDictEntry(
            key: "guests", formatKey: "%#@guests@",
            variables: [
                "guests": PluralVariable(
                    name: "guests",
                    forms: ["one": "%d гость", "few": "%d гостя", "many": "%d гостей", "other": "%d гостя"])
            ])
        catalog.add(ru, language: "ru", table: "party")
        return catalog
    }

    @Test func stringsdictEntriesBecomeICUPlurals() throws {
        let c = catalog()
        #expect(
            c.message(forKey: "guests", table: "party", locale: "en")
                == "{guests, plural, =0 {nobody} one {# guest} other {# guests}} for '{'name'}'''s party")
        #expect(c.message(forKey: "hello", table: "party", locale: "de") == "Hello {name}!")
        let t = try MustacheTemplate("{{#t}}guests{{/t}} / {{#t}}hello{{/t}}")
        func render(_ n: Int, _ locale: String) throws -> String {
            try t.render(
                ["guests": .int(n), "name": "Ada"],
                options: RenderOptions(escaping: .text, strict: true, locale: locale, catalog: c, table: "party"))
        }
        #expect(try render(0, "en") == "nobody for {name}'s party / Hello Ada!")
        #expect(try render(1, "en") == "1 guest for {name}'s party / Hello Ada!")
        #expect(try render(5, "ru") == "5 гостей / Hello Ada!")
        #expect(try render(22, "ru") == "22 гостя / Hello Ada!")
    }

    @Test func catalogFallbacksChooseTemplateOverrides() throws {
        var c = Catalog()
        c.add(Catalog.Table(), language: "es-419", table: "t")
        c.add(Catalog.Table(), language: "es", table: "t")
        c.add(Catalog.Table(), language: "en", table: "t")
        #expect(c.fallbackLocales(for: "es-MX").prefix(2) == ["es-419", "es"])
        #expect(!c.fallbackLocales(for: "fr").contains("en"))
        #expect(c.fallbackLocales(for: "en-GB").contains("en"))
        let dir = Scratch.path("tmpl")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("m"), withIntermediateDirectories: true)
        for (file, text) in [
            ("subject", "base"), ("subject.es-419", "latam"), ("subject.en", "english"), ("body.txt", "b"),
        ] {
            try text.write(to: dir.appendingPathComponent("m/\(file).mustache"), atomically: true, encoding: .utf8)
        }
        let library = try TemplateLibrary(directory: dir, catalog: c)
        #expect(try library.render("m", context: [:], locale: "es-MX").subject == "latam")
        #expect(try library.render("m", context: [:], locale: "fr").subject == "base")
        #expect(try library.render("m", context: [:], locale: "en-US").subject == "english")
    }

    @Test func nestedVariablesAndLiterals() {
        let entry = StringsDictEntry(
            key: "k", formatKey: "%#@files@ in %#@folders@ (100%%)",
            variables: [
                "files": PluralVariable(name: "files", forms: ["one": "one file", "other": "%ld files #"]),
                "folders": PluralVariable(name: "folders", forms: ["other": "%lu folders"]),
            ])
        #expect(
            StringsdictPattern.icuPattern(entry)
                == "{files, plural, one {one file} other {# files '#'}} in {folders, plural, other {# folders}} (100%)")
        #expect(StringsdictPattern.icuPattern(StringsDictEntry(key: "x", formatKey: nil)) == nil)
    }

    /// Numbered as CoreFoundation numbers printf arguments: in a form of the variable taking argument 2,
    /// `%2$d` and a plain `%d` are its number, `%1$d` is another argument's.
    @Test func positionalVariablesAndForms() {
        let entry = StringsDictEntry(
            key: "k", formatKey: "%1$@: %2$#@n@",
            variables: ["n": PluralVariable(name: "n", forms: ["one": "%2$d Stück", "other": "%d Stück (%1$d)"])])
        #expect(
            StringsdictPattern.icuPattern(entry) == "%1$@: {n, plural, one {# Stück} other {# Stück (%1$d)}}")
    }
}
