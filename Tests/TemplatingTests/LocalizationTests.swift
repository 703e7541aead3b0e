import Locales
import Testing

@testable import Templating

/// An in-memory catalog: table → locale → key → pattern, with language fallback ("de-AT" → "de" → "en").
struct MemoryCatalog: MessageCatalog {
    var tables: [String: [String: [String: String]]]
    func message(forKey key: String, table: String, locale: String) -> String? {
        var candidates = [locale]
        if let dash = locale.firstIndex(of: "-") { candidates.append(String(locale[..<dash])) }
        candidates.append("en")
        for c in candidates { if let m = tables[table]?[c]?[key] { return m } }
        return nil
    }
}

let catalog = MemoryCatalog(tables: [
    "mail": [
        "en": [
            "guests": "{name} invited {count, plural, one {# guest} other {# guests}}.",
            "greet": "{gender, select, female {Dear Ms. {last}} male {Dear Mr. {last}} other {Dear {first} {last}}}",
            "pay": "You owe {amount, number, currency}.",
        ],
        "ru": [
            "guests": "{name} пригласил {count, plural, one {# гостя} few {# гостей} many {# гостей} other {# гостя}}."
        ],
        "de": ["guests": "{name} hat {count, plural, one {# Gast} other {# Gäste}} eingeladen."],
    ]
])

@Suite("Localized messages and helpers")
struct LocalizationTests {
    func render(_ source: String, _ ctx: MustacheValue, locale: String, escaping: Escaping = .text, strict: Bool = true)
        throws -> String
    {
        try MustacheTemplate(source, name: "t").render(
            ctx,
            options: RenderOptions(
                escaping: escaping, strict: strict, locale: locale, catalog: catalog, table: "mail"))
    }

    @Test func pluralsPerLocale() throws {
        let src = "{{#t}}guests{{/t}}"
        #expect(try render(src, ["name": "Ada", "count": 1], locale: "en") == "Ada invited 1 guest.")
        #expect(try render(src, ["name": "Ada", "count": 5], locale: "en") == "Ada invited 5 guests.")
        #expect(try render(src, ["name": "Ада", "count": 3], locale: "ru") == "Ада пригласил 3 гостей.")
        #expect(try render(src, ["name": "Ada", "count": 2], locale: "de-AT") == "Ada hat 2 Gäste eingeladen.")
        // A list counts as its number of items.
        #expect(try render(src, ["name": "Ada", "count": ["x", "y", "z"]], locale: "en") == "Ada invited 3 guests.")
    }

    @Test func argumentsComeFromTheContextStack() throws {
        let src = "{{#people}}{{#t}}greet{{/t}};{{/people}}"
        let ctx: MustacheValue = [
            "last": "Lovelace",
            "people": [
                ["gender": "female", "first": "Ada"], ["gender": "male", "last": "Turing", "first": "Alan"],
                ["gender": "other", "first": "Sam"],
            ],
        ]
        #expect(try render(src, ctx, locale: "en") == "Dear Ms. Lovelace;Dear Mr. Turing;Dear Sam Lovelace;")
    }

    @Test func messagesAreEscapedForHTML() throws {
        #expect(
            try render("{{#t}}guests{{/t}}", ["name": "<Ada & co>", "count": 1], locale: "en", escaping: .html)
                == "&lt;Ada &amp; co&gt; invited 1 guest.")
    }

    @Test func missingKeyAndArgumentAreErrors() throws {
        #expect(
            throws: TemplatingError.missingMessage(
                key: "nope", table: "mail", locale: "fr", template: "t", line: 1, column: 1)
        ) {
            try render("{{#t}}nope{{/t}}", [:], locale: "fr")
        }
        #expect(
            throws: TemplatingError.helper(
                name: "t", template: "t", line: 1, column: 1, recipient: nil,
                message: "message 'guests' needs a value for 'count'")
        ) {
            try render("{{#t}}guests{{/t}}", ["name": "Ada"], locale: "en")
        }
    }

    @Test func badPatternIsReported() throws {
        let bad = MemoryCatalog(tables: ["mail": ["en": ["x": "{count, plural, one {#}"]]])
        let t = try MustacheTemplate("{{#t}}x{{/t}}")
        #expect {
            try t.render(["count": 1], options: RenderOptions(catalog: bad, table: "mail"))
        } throws: { error in
            guard case TemplatingError.badMessage(let key, let table, let locale, _) = error else { return false }
            return key == "x" && table == "mail" && locale == "en"
        }
    }

    @Test func listHelper() throws {
        let ctx: MustacheValue = ["names": ["Alice", "Bob", "Carol"], "people": [["name": "Alice"], ["name": "Bob"]]]
        #expect(try render("{{#list}}names{{/list}}", ctx, locale: "en") == "Alice, Bob, and Carol")
        #expect(try render("{{#list}}names{{/list}}", ctx, locale: "de") == "Alice, Bob und Carol")
        #expect(try render("{{#list}}names{{/list}}", ctx, locale: "zh-Hans") == "Alice、Bob和Carol")
        #expect(try render("{{#list}}people:name{{/list}}", ctx, locale: "fr") == "Alice et Bob")
    }

    @Test func numberAndDateHelpers() throws {
        let ctx: MustacheValue = ["n": 1234.5, "when": "2025-06-03", "i": 1_234_567]
        #expect(try render("{{#number}}n{{/number}}", ctx, locale: "de") == "1.234,5")
        #expect(try render("{{#number}}i{{/number}}", ctx, locale: "en") == "1,234,567")
        #expect(try render("{{#number}}n currency/EUR{{/number}}", ctx, locale: "en") == "€1,234.50")
        #expect(try render("{{#date}}when{{/date}}", ctx, locale: "en") == "June 3, 2025")
        #expect(try render("{{#date}}when long{{/date}}", ctx, locale: "de") == "3. Juni 2025")
        #expect(try render("{{#date}}when yMMMd{{/date}}", ctx, locale: "fr") == "3 juin 2025")
        #expect(throws: TemplatingError.self) { try render("{{#date}}n2{{/date}}", ["n2": "soon"], locale: "en") }
    }

    @Test func isoDates() {
        #expect(Helpers.parseISODate("1970-01-02") == 86_400_000)
        #expect(Helpers.parseISODate("2000-03-01T12:30:00Z") == 951_913_800_000)
        #expect(Helpers.parseISODate("2000-13-01") == nil)
        #expect(Helpers.parseISODate("2000-01-01T25:00Z") == nil)
    }

    @Test func namesDirectionAndLanguage() throws {
        let ctx: MustacheValue = [
            "p": ["givenName": "太郎", "familyName": "山田"], "q": ["firstName": "Ada", "lastName": "Lovelace"],
        ]
        #expect(try render("{{#fullName}}p{{/fullName}}", ctx, locale: "ja") == "山田太郎")
        #expect(try render("{{#fullName}}q{{/fullName}}", ctx, locale: "ja") == "Ada Lovelace")
        // The name's order is its own, not the reader's (issue 18 item 4): an English name stays given-first
        // in a Hungarian message; a Hungarian or Vietnamese one (by its `language`) is family-first anywhere.
        #expect(try render("{{#fullName}}q{{/fullName}}", ctx, locale: "hu") == "Ada Lovelace")
        let own: MustacheValue = [
            "h": ["givenName": "Péter", "familyName": "Nagy", "language": "hu"],
            "v": ["givenName": "An", "middleName": "Văn", "familyName": "Nguyễn", "language": "vi"],
        ]
        #expect(try render("{{#fullName}}h{{/fullName}}", own, locale: "en") == "Nagy Péter")
        #expect(try render("{{#fullName}}v{{/fullName}}", own, locale: "de") == "Nguyễn Văn An")
        #expect(try render("{{#list}}v{{/list}}", own, locale: "en") == "Nguyễn Văn An")
        #expect(Helpers.personName(PersonName(given: "민준", family: "김")) == "김민준")  // as the list shows it
        #expect(try render("{{#fullName}}q{{/fullName}}", ctx, locale: "en") == "Ada Lovelace")
        #expect(try render("<p dir=\"{{dir}}\" lang=\"{{lang}}\">", [:], locale: "ar") == "<p dir=\"rtl\" lang=\"ar\">")
        #expect(try render("{{dir}}", [:], locale: "fr") == "ltr")
    }

    @Test func dataWinsOverHelpers() throws {
        #expect(try render("{{#list}}{{.}}{{/list}}", ["list": [1, 2]], locale: "en") == "12")
    }
}
