import Foundation
import StringsCatalog
import Testing

@testable import Templating

/// Issue 18, items 10, 17 and 22: the language a message is really written in drives every locale-aware
/// part of it; `{{#date}}` reads only real dates; the invite's link line comes from the catalog.
@Suite("Fallback language, dates and catalog literals")
struct FallbackLanguageTests {
    let library: TemplateLibrary
    let catalog: Catalog

    init() throws {
        catalog = try Catalog(directory: localizations)
        library = try TemplateLibrary.bundled(catalog: catalog)
    }

    func context(others: [MustacheValue]) -> MustacheValue {
        guard case .dictionary(var d) = inviteContext else { return inviteContext }
        d["others"] = .array(others)
        return .dictionary(d)
    }

    @Test("a language without words (vi, th, id, hu) is rendered wholly in the fallback language")
    func untranslatedLanguageRendersInTheLanguageUsed() throws {
        for asked in ["vi", "th", "id", "hu"] {
            let one = try library.render(
                "invite", context: context(others: [["givenName": "Q", "familyName": "P0"]]), locale: asked)
            #expect(one.locale == "en", "\(asked)")
            // English plural category ("one"), not the asked language's ("other" in vi/th/id)
            #expect(one.textBody.contains("Q P0 is invited too."), "\(asked)")
            #expect(!one.textBody.contains("1 other people"), "\(asked)")
            #expect(one.textBody.contains("This invitation expires on July 1, 2025."), "\(asked)")
            #expect(one.htmlBody?.contains("<html lang=\"en\" dir=\"ltr\">") == true, "\(asked)")
            let two = try library.render("invite", context: inviteContext, locale: asked)
            #expect(two.textBody.contains("Alan Turing and Team Blue."), "\(asked)")  // not "và"
        }
        // Right-to-left asked, left-to-right words: the direction follows the words.
        let fa = try library.render("invite", context: inviteContext, locale: "fa")
        #expect(fa.locale == "en")
        #expect(fa.htmlBody?.contains("dir=\"ltr\"") == true)
        #expect(library.resolvedLocale("invite", locale: "vi") == "en")
    }

    @Test("a regional variant of a translated language keeps its own formats")
    func regionalVariantKeepsItsLocale() throws {
        let gb = try library.render("invite", context: inviteContext, locale: "en-GB")
        #expect(gb.locale == "en-GB")
        #expect(gb.textBody.contains("This invitation expires on 1 July 2025."))
        #expect(library.resolvedLocale("invite", locale: "de_AT") == "de-AT")
        // Without a catalog nothing says which language the words are in: the asked locale is kept.
        let bare = try TemplateLibrary.bundled()
        #expect(bare.resolvedLocale("invite", locale: "vi") == "vi")
    }

    @Test("the invite's link line is a catalog literal in every shipped language (French: ' : ')")
    func actionLinkComesFromTheCatalog() throws {
        let fr = try library.render("invite", context: inviteContext, locale: "fr")
        #expect(fr.textBody.contains("Rejoindre le projet : https://example.com/join?id=1&t=2\n"))
        #expect(!fr.textBody.contains("Rejoindre le projet:"))
        for language in catalog.languages where catalog.tables[language]?["invite"] != nil {
            #expect(catalog.language(of: "action_link", table: "invite", locale: language) == language, "\(language)")
            #expect(catalog.string("action_link", table: "invite", locale: language)?.contains("{url}") == true)
        }
        let ja = try library.render("invite", context: inviteContext, locale: "ja")
        #expect(ja.textBody.contains("プロジェクトに参加する：https://example.com/join"))
    }

    func date(_ source: String, _ value: MustacheValue, locale: String = "en") throws -> String {
        try MustacheTemplate(source, name: "when.mustache").render(
            ["when": value], options: RenderOptions(escaping: .text, strict: true, locale: locale))
    }

    @Test("{{#date}} rejects impossible days and names template, line and the expected form")
    func impossibleDatesAreErrors() throws {
        for bad in ["2026-02-29", "2025-04-31", "2026-00-10", "2026-01-01T24:00:00Z", "2026-01-01T10:00:00+25:00"] {
            do {
                _ = try date("Due:\n{{#date}}when{{/date}}", .string(bad))
                Issue.record("\(bad) was accepted")
            } catch {
                let text = "\(error)"
                #expect(text.hasPrefix("when.mustache:2:1: date: 'when' is not a date"), "\(text)")
                #expect(text.contains("YYYY-MM-DD") && text.contains(bad), "\(text)")
            }
        }
        #expect(throws: TemplatingError.self) { try date("{{#date}}when{{/date}}", "2026-02-29") }
        #expect(try date("{{#date}}when{{/date}}", "2024-02-29") == "February 29, 2024")
        #expect(Helpers.parseISODate("2026-02-29") == nil)
        #expect(Helpers.parseISODate("2000-02-29") != nil && Helpers.parseISODate("1900-02-29") == nil)
    }

    @Test("{{#date}} reads RFC 3339 offsets and shows the date written")
    func rfc3339Offsets() throws {
        #expect(try date("{{#date}}when{{/date}}", "2026-01-01T23:30:00-05:00") == "January 1, 2026")
        #expect(try date("{{#date}}when{{/date}}", "2026-01-02T01:00:00+02:00") == "January 2, 2026")
        #expect(try date("{{#date}}when{{/date}}", "2026-01-01t23:30:00.250z") == "January 1, 2026")
        #expect(Helpers.parseISODate("2026-01-01T23:30:00-05:00") == Helpers.parseISODate("2026-01-02T04:30:00Z"))
        #expect(Helpers.parseISODate("2026-01-01T12:00:00+0530") == Helpers.parseISODate("2026-01-01T06:30:00Z"))
    }

    @Test("{{#date}} reads a number as Unix seconds and refuses milliseconds")
    func numbersAreUnixSeconds() throws {
        #expect(try date("{{#date}}when{{/date}}", 1_767_225_600) == "January 1, 2026")
        #expect(try date("{{#date}}when{{/date}}", .double(1_767_225_600.5)) == "January 1, 2026")
        do {
            _ = try date("{{#date}}when{{/date}}", 1_767_225_600_000)
            Issue.record("milliseconds were accepted as seconds")
        } catch {
            #expect("\(error)".contains("when.mustache:1:1: date: 'when' is 1767225600000, beyond the year 9999"))
            #expect("\(error)".contains("Unix seconds"))
        }
        // A message argument {x_date} follows the same rule.
        let cat = FixedCatalog(pattern: "Due {when_date}.")
        let text = try MustacheTemplate("{{#t}}due{{/t}}", name: "m").render(
            ["when": 1_767_225_600], options: RenderOptions(escaping: .text, locale: "en", catalog: cat, table: "x"))
        #expect(text == "Due January 1, 2026.")
    }
}

/// Issue 18, item 11: left-to-right values in right-to-left plain text are isolated.
@Suite("Bidi isolation of plain-text values")
struct BidiIsolationTests {
    let library: TemplateLibrary

    init() throws {
        library = try TemplateLibrary.bundled(catalog: try Catalog(directory: localizations))
    }

    @Test("Arabic and Hebrew text and SMS bodies isolate names, URLs and numbers; HTML and LTR do not")
    func rightToLeftBodiesIsolateValues() throws {
        let fsi = "\u{2068}"
        let pdi = "\u{2069}"
        for locale in ["ar", "he"] {
            let m = try library.render("invite", context: inviteContext, locale: locale)
            #expect(m.textBody.contains(fsi + "Ada Lovelace" + pdi), "\(locale)")
            #expect(m.textBody.contains(fsi + "https://example.com/join?id=1&t=2" + pdi), "\(locale)")
            // a list is isolated item by item, the conjunction stays in the sentence's direction
            #expect(m.textBody.contains(fsi + "Alan Turing" + pdi) && m.textBody.contains(fsi + "Team Blue" + pdi))
            let sms = try #require(m.messageBody)
            #expect(sms.contains(fsi + "https://example.com/join?id=1&t=2" + pdi), "\(locale)")
            #expect(sms.contains(fsi + "Ada Lovelace" + pdi), "\(locale)")
            #expect(!(m.htmlBody ?? "").contains(fsi), "\(locale)")
            // every isolate is closed
            let opened = m.textBody.unicodeScalars.filter { $0 == "\u{2068}" }.count
            #expect(opened == m.textBody.unicodeScalars.filter { $0 == "\u{2069}" }.count)
        }
        let he = try library.render("invite", context: inviteContext, locale: "he")
        #expect(he.textBody.contains(fsi + "1 ביולי 2025" + pdi))
        for locale in ["en", "de", "ja"] {
            let m = try library.render("invite", context: inviteContext, locale: locale)
            #expect(!m.textBody.contains(fsi) && !(m.messageBody ?? "").contains(fsi), "\(locale)")
        }
    }

    @Test("a value in a right-to-left script is left as it is; marks for displays without isolates")
    func wrapRules() throws {
        #expect(BidiIsolation.isolates.wrap("محمد") == "محمد")
        #expect(BidiIsolation.isolates.wrap("+1 555 0100") == "\u{2068}+1 555 0100\u{2069}")
        #expect(BidiIsolation.marks.wrap("Ada") == "\u{200E}Ada\u{200E}")
        #expect(BidiIsolation.none.wrap("Ada") == "Ada")
        var options = RenderOptions(escaping: .text, strict: true, locale: "ar")
        options.bidiIsolation = .isolates
        let text = try MustacheTemplate("{{name}}: {{{url}}} {{n}} {{ar}}", name: "t").render(
            ["name": "Ada", "url": "https://x.example/a", "n": "42", "ar": "سلام"], options: options)
        #expect(text == "\u{2068}Ada\u{2069}: \u{2068}https://x.example/a\u{2069} \u{2068}42\u{2069} سلام")
    }
}

/// A catalog with one pattern for every key.
struct FixedCatalog: MessageCatalog {
    var pattern: String
    func message(forKey key: String, table: String, locale: String) -> String? { pattern }
}
