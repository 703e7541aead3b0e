import Foundation
import StringsCatalog
import TestSupport
import Testing

@testable import Templating

let localizations = SpecFiles.packageRoot.appendingPathComponent("Sources/StringsCatalog/Localizations")
let builtInLocales = ["en", "de", "fr", "es", "ru", "ar", "ja", "zh-Hans"]

let inviteContext: MustacheValue = [
    "recipient": ["givenName": "Grace", "familyName": "Hopper"],
    "inviter": ["givenName": "Ada", "familyName": "Lovelace"],
    "project": "Atlas & <Co>",
    "others": [["givenName": "Alan", "familyName": "Turing"], ["name": "Team Blue"]],
    "url": "https://example.com/join?id=1&t=2",
    "expires": "2025-07-01",
]

let shareContext: MustacheValue = [
    "recipient": ["givenName": "Grace", "familyName": "Hopper"],
    "sender": ["givenName": "Ada", "familyName": "Lovelace"],
    "contact": ["givenName": "Alan", "familyName": "Turing"],
    "phones": ["+1 555-0100", "+1 555-0101"],
    "emails": ["alan@example.com"],
]

@Suite("Template library and built-in templates")
struct TemplateLibraryTests {
    let library: TemplateLibrary

    init() throws {
        library = try TemplateLibrary.bundled(catalog: try Catalog(directory: localizations))
    }

    @Test func builtInTemplatesAreListed() {
        #expect(library.names == ["invite", "share-contact"])
        let invite = library.templates["invite"]
        #expect(invite?.availableParts == [.subject, .textBody, .htmlBody, .messageBody])
        #expect(invite?.overrideLocales == ["ar"])
    }

    @Test func inviteInEnglish() throws {
        let m = try library.render("invite", context: inviteContext, locale: "en", recipient: "grace@example.com")
        #expect(m.locale == "en")
        #expect(m.subject == "Ada Lovelace invited you to Atlas & <Co>")
        #expect(
            m.textBody
                == """
                Hello Grace Hopper,

                Ada Lovelace would like you to join the project “Atlas & <Co>”.
                Alan Turing and Team Blue is invited too.
                Join the project: https://example.com/join?id=1&t=2
                This invitation expires on July 1, 2025.

                Best regards,
                Ada Lovelace

                """.replacingOccurrences(
                    of: "Alan Turing and Team Blue is invited too.",
                    with: "2 other people are invited too: Alan Turing and Team Blue."))
        #expect(m.messageBody == "Ada Lovelace invited you to Atlas & <Co>: https://example.com/join?id=1&t=2\n")
        let html = try #require(m.htmlBody)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">"))
        #expect(html.contains("<title>Ada Lovelace invited you to Atlas &amp; &lt;Co&gt;</title>"))
        #expect(html.contains("<a href=\"https://example.com/join?id=1&amp;t=2\">Join the project</a>"))
        #expect(!html.contains("{{") && !html.contains("text-align: right"))
    }

    @Test(arguments: builtInLocales)
    func everyBuiltInRendersInEveryLocale(_ locale: String) throws {
        for (name, ctx) in [("invite", inviteContext), ("share-contact", shareContext)] {
            let m = try library.render(name, context: ctx, locale: locale)
            #expect(m.locale == locale)
            #expect(!m.subject.isEmpty && !m.subject.contains("\n") && !m.subject.contains("{"))
            #expect(
                !m.textBody.contains("{") && !(m.htmlBody ?? "").contains("{") && !(m.messageBody ?? "").contains("{"))
            #expect(m.htmlBody?.contains("lang=\"\(locale)\" dir=\"\(locale == "ar" ? "rtl" : "ltr")\"") == true)
            #expect(m.textBody.contains(name == "invite" ? "https://example.com/join?id=1&t=2" : "+1 555-0101"))
        }
    }

    @Test func translatedWordsAndPluralsDiffer() throws {
        let de = try library.render("invite", context: inviteContext, locale: "de")
        #expect(de.subject == "Ada Lovelace hat Sie zu Atlas & <Co> eingeladen")
        #expect(de.textBody.contains("2 weitere Personen sind ebenfalls eingeladen: Alan Turing und Team Blue."))
        #expect(de.textBody.contains("Diese Einladung läuft am 1. Juli 2025 ab."))
        let ja = try library.render("invite", context: inviteContext, locale: "ja")
        #expect(ja.textBody.contains("ほかに2人が招待されています"))
        var one = inviteContext
        if case .dictionary(var d) = one {
            d["others"] = [["givenName": "Alan", "familyName": "Turing"]]
            one = .dictionary(d)
        }
        let ru = try library.render("invite", context: one, locale: "ru")
        #expect(ru.textBody.contains("Также приглашён(а) Alan Turing."))
        let zh = try library.render("share-contact", context: shareContext, locale: "zh-Hans")
        #expect(zh.subject == "Ada Lovelace与你共享了联系人：Alan Turing")
        // The phone count comes from a .stringsdict plural entry.
        #expect(zh.textBody.contains("2个电话号码\n"))
        let share = try library.render("share-contact", context: shareContext, locale: "ru")
        #expect(share.textBody.contains("2 номера телефона\nТелефон: +1 555-0100\n"))
    }

    @Test func arabicUsesItsOverrideAndRightToLeft() throws {
        let ar = try library.render("invite", context: inviteContext, locale: "ar-EG")
        let html = try #require(ar.htmlBody)
        #expect(html.contains("dir=\"rtl\""))
        #expect(html.contains("text-align: right;"))
        #expect(ar.subject.hasPrefix("دعاك"))
    }

    @Test func strictRenderNamesPartAndRecipient() throws {
        var ctx = inviteContext
        if case .dictionary(var d) = ctx {
            d["url"] = nil
            ctx = .dictionary(d)
        }
        #expect(
            throws: TemplatingError.helper(
                name: "t", template: "invite/body.txt.mustache", line: 5, column: 1,
                recipient: "grace@example.com", message: "message 'action_link' needs a value for 'url'")
        ) {
            try library.render("invite", context: ctx, locale: "en", recipient: "grace@example.com")
        }
        #expect(throws: TemplatingError.self) { try library.render("nope", context: [:], locale: "en") }
    }

    @Test func localeFallbackChains() {
        #expect(TemplateLibrary.localeFallbacks("de-AT") == ["de-AT", "de-Latn-AT", "de-Latn", "de"])
        #expect(TemplateLibrary.localeFallbacks("zh-TW") == ["zh-TW", "zh-Hant-TW", "zh-Hant"])
        #expect(TemplateLibrary.localeFallbacks("zh_CN") == ["zh-CN", "zh-Hans-CN", "zh-Hans", "zh"])
        #expect(TemplateLibrary.localeFallbacks("ar").first == "ar")
        #expect(TemplateLibrary.renderLocale(recipient: " ", campaign: "fr_CA", environment: "en") == "fr-CA")
        #expect(TemplateLibrary.renderLocale(recipient: "ja", campaign: "fr", environment: "en") == "ja")
        #expect(TemplateLibrary.renderLocale(recipient: nil, campaign: nil, environment: "de") == "de")
    }

    @Test func brokenLibraryFoldersAreReported() throws {
        let dir = Scratch.path("tmpl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("a"), withIntermediateDirectories: true)
        try "Hi".write(to: dir.appendingPathComponent("a/subject.mustache"), atomically: true, encoding: .utf8)
        // A broken folder is refused alone, with its path and the reason; naming it gives both.
        let missing = TemplatingError.templateNotFound(
            name: "a",
            detail: "missing body.txt.mustache (or body.md.mustache) in \(dir.appendingPathComponent("a").path)")
        #expect(try TemplateLibrary(directory: dir).refused["a"]?.reason == "\(missing)")
        try "x\n{{#open}}".write(
            to: dir.appendingPathComponent("a/body.txt.mustache"), atomically: true, encoding: .utf8)
        let unclosed = TemplatingError.parse(
            template: "a/body.txt.mustache", line: 2, column: 1,
            message: "unclosed section 'open': expected '{{/open}}' before the end of the template")
        let broken = try TemplateLibrary(directory: dir)
        #expect(
            broken.refused["a"]
                == RefusedTemplate(name: "a", path: dir.appendingPathComponent("a").path, reason: "\(unclosed)"))
        #expect(
            throws: TemplatingError.templateNotFound(
                name: "a", detail: "refused: \(dir.appendingPathComponent("a").path): \(unclosed)")
        ) {
            try broken.template(named: "a")
        }
        try "ok {{x}}".write(to: dir.appendingPathComponent("a/body.txt.mustache"), atomically: true, encoding: .utf8)
        try "Hallo".write(to: dir.appendingPathComponent("a/subject.de.mustache"), atomically: true, encoding: .utf8)
        let lib = try TemplateLibrary(directory: dir)
        #expect(try lib.render("a", context: ["x": 1], locale: "de-CH").subject == "Hallo")
        #expect(try lib.render("a", context: ["x": 1], locale: "fr").subject == "Hi")
    }
}
