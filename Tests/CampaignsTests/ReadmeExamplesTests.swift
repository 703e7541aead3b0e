import Campaigns
import Collation
import Composer
import ContactsCore
import ContactsSelection
import Foundation
import StringsCatalog
import Templating
import TestSupport
import Testing

/// The README's five-line examples, run as written (so the README cannot drift from the API).
@Suite struct ReadmeExamplesTests {
    @Test func collation() throws {
        let sv = try LocalizedCollation(locale: "sv")
        #expect(sv.sorted(["Örjan", "Zoe", "Åsa", "Anna"]) == ["Anna", "Zoe", "Åsa", "Örjan"])
        #expect(sv.sections(["Örjan", "Anna", "42 Club"]).map(\.title) == ["A", "Ö", "#"])
        let z = try #require(sv.indexTitles.firstIndex(of: "Z"))
        #expect(sv.indexTitles[(z + 1)...(z + 3)] == ["Å", "Ä", "Ö"])
        #expect(sv.indexTitles.contains("Б") && sv.indexTitles.contains("あ") && sv.indexTitles.last == "#")
        #expect(sv.sections(["Борис", "Anna"]).map(\.title) == ["A", "Б"])
        let enZh = try LocalizedCollation(locales: ["en", "zh-Hans"])
        #expect(enZh.sections(["王伟", "Walter", "Anna"]).map(\.title) == ["A", "W"])
        #expect(try SearchFolding().keys(for: "张伟").initials == "zw")
    }

    @Test func contactsCore() throws {
        let dir = Scratch.path("readme")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("contacts.vcf")
        try
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Berg;Anna;;;\r\nFN:Anna Berg\r\nTEL:+46 8 555 010 00\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken\r\n"
            .write(to: url, atomically: true, encoding: .utf8)
        let book = try AddressBook(contentsOf: url)
        #expect(!book.diagnostics.isEmpty)
        let anna = book.contacts.first { $0.givenName == "Anna" }
        #expect(anna != nil)
        #expect(PhoneNumber.parse("(415) 555-0100", region: "US").e164 == "+14155550100")
        let text = VCardWriter.string(for: book, version: .v4)
        #expect(AddressBook(data: Data(text.utf8), fileName: "again.vcf").contacts == book.contacts)
    }

    @Test func selectionAndCampaign() throws {
        let book = try AddressBook.sample()
        let drafts = Scratch.path("readme")
        let selection = try SelectionController(contacts: book.contacts) { config in
            config.mode = .email
            config.searchByKeywords = true
        }
        selection.search("f b")
        selection.selectAll()
        let compose = ComposerText(subject: "Team dinner", body: "See you at eight.")
        let outcome = try selection.performSelectAction(
            compose, from: try MailAddress(name: "Ada Lovelace", address: "ada@example.org"),
            mail: FileTransport(directory: drafts), messages: nil)
        guard case .composed(let mail, _) = outcome else {
            Issue.record("expected composed")
            return
        }
        #expect(mail == .saved)

        var campaign = Campaign(template: "invite")
        campaign.data = [
            "inviter": ["givenName": "Ada", "familyName": "Lovelace"], "project": "Atlas",
            "url": "https://example.com/join", "expires": "2026-12-31",
        ]
        campaign.from = try MailAddress(name: "Ada Lovelace", address: "ada@example.org")
        let (messages, failures) = campaign.compose(
            selection, library: try TemplateLibrary.bundled(catalog: Catalog.bundled()))
        #expect(failures.isEmpty)
        #expect(messages.count == selection.selectedRows.count)
        #expect(messages.allSatisfy { $0.mail?.from?.address == "ada@example.org" })
    }

    @Test func stringsCatalog() throws {
        #expect(Strings.select(locale: "de") == "Auswählen")
        #expect(Strings.contactsSelected(count: 3, locale: "ru") == "Выбрано 3 контакта")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let catalog = try Catalog(directory: root.appendingPathComponent("Localizations"))
        #expect(
            catalog.string("Search contacts", locale: "es-MX") == catalog.string("Search contacts", locale: "es-419"))
        let dir = Scratch.path("readme")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("Localizable.strings")
        try "/* greeting */\n\"Hello\" = \"Hello\";\n\n// keep me\n\"Bye\" = \"Bye\";\n".write(
            to: url, atomically: true, encoding: .utf8)
        var doc = try StringsDocument(contentsOf: url)
        doc.setValue("Hej", forKey: "Hello")
        try doc.write(to: url)
        #expect(
            try String(contentsOf: url, encoding: .utf8)
                == "/* greeting */\n\"Hello\" = \"Hej\";\n\n// keep me\n\"Bye\" = \"Bye\";\n")
    }

    @Test func templating() throws {
        struct Party: MessageCatalog {
            func message(forKey key: String, table: String, locale: String) -> String? {
                key == "guests" && locale == "ru"
                    ? "{count, plural, one {# гость} few {# гостя} many {# гостей} other {# гостя}}" : nil
            }
        }
        let t = try MustacheTemplate("Hi {{name}}, {{#t}}guests{{/t}}")
        let html = try t.render(
            ["name": "Ada & Bob", "count": 3],
            options: RenderOptions(escaping: .html, strict: true, locale: "ru", catalog: Party(), table: "party"))
        #expect(html == "Hi Ada &amp; Bob, 3 гостя")
        let library = try TemplateLibrary.bundled(catalog: try Catalog.bundled())
        let context = try #require(try library.template(named: "invite").sample)
        let message = try library.render("invite", context: context, locale: "ja")
        #expect(
            message.locale == "ja" && !message.subject.isEmpty && message.htmlBody != nil && message.messageBody != nil)
    }

    @Test func composer() throws {
        var draft = MailDraft(subject: "Grüße", textBody: "Hallo!", locale: "de")
        draft.from = try MailAddress(name: "Anna", address: "anna@example.com")
        draft.to = [try MailAddress(name: "Jürgen Müller, Esq.", address: "jm@example.org")]
        let eml = try MIMEWriter().write(draft)
        let text = String(decoding: eml, as: UTF8.self)
        #expect(text.contains("Subject: =?UTF-8?"))
        #expect(!text.contains("\n") || !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        _ = try SMTPTransport(configuration: SMTPConfiguration(url: "smtps://mail.example.org"))
    }
}
