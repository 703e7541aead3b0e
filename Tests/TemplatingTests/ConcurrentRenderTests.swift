import Foundation
import StringsCatalog
import TestSupport
import Testing

@testable import Templating

/// Renders share the compiled ICU message formats (one cache per process) and a pool of output buffers;
/// from many threads at once they must give what one thread gets.
@Suite("Renders under concurrent use")
struct ConcurrentRenderTests {
    static let forms: [String: [String: String]] = [
        "en": ["one": "%d guest", "other": "%d guests"],
        "de": ["one": "%d Gast", "other": "%d Gäste"],
        "fr": ["one": "%d invité", "many": "%d d’invités", "other": "%d invités"],
        "ru": ["one": "%d гость", "few": "%d гостя", "many": "%d гостей", "other": "%d гостя"],
        "pl": ["one": "%d gość", "few": "%d gości", "many": "%d gości", "other": "%d gościa"],
        "ar": [
            "zero": "لا ضيوف", "one": "ضيف واحد", "two": "ضيفان", "few": "%d ضيوف", "many": "%d ضيفًا",
            "other": "%d ضيف",
        ],
        "cy": [
            "zero": "%d gwestai", "one": "%d gwestai", "two": "%d westai", "few": "%d gwestai", "many": "%d gwestai",
            "other": "%d gwestai",
        ],
        "ja": ["other": "ゲスト%d人"],
    ]

    static func catalog() -> Catalog {
        var catalog = Catalog()
        for (language, forms) in forms {
            var table = Catalog.Table()
            table.plurals["guests"] = StringsDictEntry(
                key: "guests", formatKey: "%#@guests@",
                variables: ["guests": PluralVariable(name: "guests", forms: forms)])
            table.strings["hello"] = "\(language): {name} / {people_count} / {people_list}"
            catalog.add(table, language: language, table: "party")
        }
        return catalog
    }

    @Test func messagesAndListsMatchOneThread() throws {
        let catalog = Self.catalog()
        let template = try MustacheTemplate("{{#t}}guests{{/t}} | {{#t}}hello{{/t}} | {{#people}}<{{.}}>{{/people}}")
        let locales = Self.forms.keys.sorted() + ["de-CH", "fr-CA", "ru-UA", "pt", "es-MX"]
        let cases = locales.flatMap { locale in (0..<24).map { (locale, $0) } }
        @Sendable func render(_ locale: String, _ n: Int) throws -> String {
            let people: [MustacheValue] = (0..<(n % 5)).map { .string("P\($0)") }
            return try template.render(
                ["guests": .int(n), "name": .string("N\(n)"), "people": .array(people)],
                options: RenderOptions(escaping: .text, strict: true, locale: locale, catalog: catalog, table: "party"))
        }
        let expected = try cases.map { try render($0.0, $0.1) }
        let results = try concurrently(workers: 8) { worker in
            try cases.indices.map { step in
                let i = (step + worker * 13) % cases.count
                return (i, try render(cases[i].0, cases[i].1))
            }
        }
        for (worker, got) in results.enumerated() {
            let wrong = got.filter { expected[$0.0] != $0.1 }
            #expect(wrong.isEmpty, "worker \(worker): \(wrong.prefix(3))")
        }
        // The messages really went through ICU's plural rules.
        #expect(try render("ru", 22).hasPrefix("22 гостя | ru: N22 / 2 / P0"))
        #expect(try render("ar", 2).hasPrefix("ضيفان | ar: N2"))
        #expect(try render("cy", 2).hasPrefix("2 westai | cy: N2"))
    }
}
