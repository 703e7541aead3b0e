import Campaigns
import Composer
import ContactsCore
import ContactsSelection
import Foundation
import ICUKit
import StringsCatalog
import Templating
import Testing

@testable import PickerModel

/// Two recipients with languages of their own: Anna (German) and Ben (English).
private let recipients: [Contact] = {
    var anna = contact("anna", "Anna", "Berg", emails: ["anna@example.org"])
    anna.languages = ["de"]
    var ben = contact("ben", "Ben", "Cole", emails: ["ben@example.org"])
    ben.languages = ["en"]
    var chen = contact("chen", "Chen", "Wei", phones: ["+1 415 555 0102"])
    chen.languages = ["en"]
    return [anna, ben, chen]
}()

private func makeSheet(
    text: ComposerText? = ComposerText(
        subject: "Dinner for {{recipient.givenName}}",
        body: "Hi {{recipient.givenName}},\nthe bill is {{#number}}price{{/number}}.\n"
            + (1...30).map { "line \($0)" }.joined(separator: "\n")),
    mode: SelectionMode = .email, ids: [String] = ["anna", "ben"], delivery: Delivery? = Delivery(target: .uris),
    locale: String = "en", columns: Int = 40, lines: Int = 12, configure: (inout Campaign) -> Void = { _ in }
) throws -> ComposeSheet {
    let selection = try SelectionController(contacts: recipients) { config in
        config.mode = mode
        config.locale = locale
        config.phoneRegion = "US"
        config.nameSortOrder = .givenName
    }
    for id in ids { try selection.select(id: id) }
    var campaign = Campaign(template: "_pick")
    campaign.data = ["price": .double(1234.5)]
    campaign.from = try MailAddress(parsing: "ada@example.org")
    configure(&campaign)
    let preview = try CampaignPreview(
        selection: selection, campaign: campaign, library: try TemplateLibrary.bundled(catalog: Strings.catalog),
        text: text, delivery: delivery, locale: locale)
    return ComposeSheet(content: preview, locale: locale, columns: columns, lines: lines)
}

extension ComposeSheet {
    /// The campaign's rendering the sheet shows (what `contacts pick` fills it with).
    fileprivate var preview: CampaignPreview { content as! CampaignPreview }
}

@Suite struct ComposeSheetTests {
    @Test func eachRecipientsMessageInTheirLanguageOnePageEach() throws {
        let sheet = try makeSheet()
        #expect(sheet.preview.messages.map(\.contactID) == ["anna", "ben"])
        var text = sheet.screen().text
        #expect(text.count == 12)
        #expect(text[0].hasPrefix("Back") && text[0].contains("Anna Berg") && text[0].hasSuffix("Send"))
        #expect(text[1].hasPrefix("To: Anna Berg <anna@example.org>") && text[1].hasSuffix("1/2"))
        #expect(text[2].hasPrefix("Subject: Dinner for Anna"))
        #expect(text[3] == String(repeating: "─", count: 40))
        #expect(text[4].hasPrefix("Hi Anna,"))
        // Words written in English are rendered in English for every recipient (issue 28 item 9: never in a
        // recipient's language the words are not in): English numbers and locale for Anna (de) too.
        #expect(text[5].hasPrefix("the bill is 1,234.5."))
        #expect(sheet.preview.messages[sheet.page].locale == "en")
        #expect(text[11].hasPrefix("e Edit  s Send  Esc Back  ← →"))
        #expect(sheet.handle(.right) == nil)
        text = sheet.screen().text
        #expect(text[1].hasPrefix("To: Ben Cole <ben@example.org>") && text[1].hasSuffix("2/2"))
        #expect(text[5].hasPrefix("the bill is 1,234.5."))
        #expect(sheet.preview.messages[sheet.page].locale == "en")
        // The last page stays the last; ← goes back.
        #expect(sheet.handle(.right) == nil)
        #expect(sheet.page == 1)
        #expect(sheet.handle(.left) == nil)
        #expect(sheet.page == 0)
    }

    @Test func arrowsAndPagesScrollTheBodyWithinItsLength() throws {
        let sheet = try makeSheet()
        // 32 body lines, 7 shown (12 lines less title, To, Subject, rule and status).
        #expect(sheet.bodyLines.count == 32)
        _ = sheet.handle(.down)
        #expect(sheet.scroll == 1)
        #expect(sheet.screen().text[4].hasPrefix("the bill is"))
        _ = sheet.handle(.pageDown)
        #expect(sheet.scroll == 7)
        _ = sheet.handle(.end)
        #expect(sheet.scroll == 25)
        #expect(sheet.screen().text[10].hasPrefix("line 30"))
        _ = sheet.handle(.pageDown)
        #expect(sheet.scroll == 25)
        _ = sheet.handle(.pageUp)
        #expect(sheet.scroll == 19)
        _ = sheet.handle(.home)
        _ = sheet.handle(.up)
        #expect(sheet.scroll == 0)
        // A page turn starts at the top of the next message.
        _ = sheet.handle(.end)
        _ = sheet.handle(.right)
        #expect(sheet.scroll == 0)
        // A taller screen shows more and scrolls less.
        sheet.resize(columns: 40, lines: 40)
        _ = sheet.handle(.end)
        #expect(sheet.scroll == 0)
    }

    @Test func editedSubjectAndBodyAreRenderedAgainForEveryone() throws {
        let sheet = try makeSheet()
        #expect(sheet.handle(.text("e")) == .edit)
        let editable = try #require(sheet.preview.text?.editable)
        #expect(editable.hasPrefix("Subject: Dinner for {{recipient.givenName}}\n\nHi {{recipient.givenName}},\n"))
        sheet.edited("Subject: Lunch, {{recipient.givenName}}\n\nSee you at noon.\n", file: "/tmp/m.txt")
        #expect(sheet.error == nil)
        #expect(sheet.preview.messages.map { $0.mail?.subject } == ["Lunch, Anna", "Lunch, Ben"])
        #expect(sheet.preview.messages.map(\.rendered.textBody) == ["See you at noon.\n", "See you at noon.\n"])
        #expect(sheet.screen().text[2].hasPrefix("Subject: Lunch, Anna"))
        // An editor that writes CRLF line ends.
        sheet.edited("Subject: Tea\r\n\r\nAt four.\r\n", file: "/tmp/m.txt")
        #expect(sheet.preview.messages.map { $0.mail?.subject } == ["Tea", "Tea"])
        #expect(sheet.preview.text?.body == "At four.\n")
    }

    @Test func anEditThatCannotBeUsedKeepsTheMessageAndSaysWhy() throws {
        let sheet = try makeSheet()
        let before = sheet.preview.messages.map { $0.mail?.subject }
        sheet.edited("Lunch\n\nSee you.\n", file: "/tmp/m.txt")
        #expect(sheet.error == "/tmp/m.txt:1:1: expected 'Subject: …' on the first line")
        // Shown whole: wrapped over the last lines of the 40-column screen, not cut at its width.
        let shown = sheet.screen().text
        #expect(shown.count == 12)
        #expect(shown[10].hasPrefix("/tmp/m.txt:1:1: expected 'Subject: …'"))
        #expect(shown[11].hasPrefix("the first line"))
        sheet.edited("Subject: Hi\nno blank line\n", file: "/tmp/m.txt")
        #expect(sheet.error?.hasPrefix("/tmp/m.txt:2:1: expected a blank line") == true)
        sheet.edited("Subject: Hi {{recipient.givenName\n\nBody\n", file: "/tmp/m.txt")
        #expect(sheet.error?.contains("subject") == true)
        sheet.editorFailed("vi exited with 1")
        #expect(sheet.error == "vi exited with 1")
        #expect(sheet.preview.messages.map { $0.mail?.subject } == before)
        #expect(sheet.preview.text?.subject == "Dinner for {{recipient.givenName}}")
        // The next key clears the error.
        _ = sheet.handle(.down)
        #expect(sheet.error == nil)
    }

    /// A rejected edit is what the next `e` opens (the user's own text, not the message before it), and an
    /// error longer than the screen is wider is shown whole.
    @Test func aRejectedEditIsReopenedAndItsLongErrorShownWhole() throws {
        let sheet = try makeSheet(columns: 80, lines: 14)
        let original = try #require(sheet.textToEdit)
        #expect(original == sheet.preview.text?.editable)
        let mine = "Lunch {{recipient.givenName}}\n\nMy long carefully written paragraph.\n"
        sheet.edited(mine, file: "/tmp/a-folder-with-a-rather-long-name/and-another-one-below-it/message.txt")
        let error = try #require(sheet.error)
        #expect(error.count > 80, "\(error)")
        #expect(sheet.rejectedText == mine)
        #expect(sheet.textToEdit == mine)
        let screen = sheet.screen().text
        #expect(screen.count == 14)
        let errorLines = ComposeSheet.wrap(error, width: 80)
        #expect(errorLines.count >= 2)
        #expect(Array(screen.suffix(errorLines.count)).map { $0.trimmingCharacters(in: .whitespaces) } == errorLines)
        // The message is as it was until an edit is taken; then the next edit starts from it.
        #expect(sheet.preview.messages.map { $0.mail?.subject } == ["Dinner for Anna", "Dinner for Ben"])
        sheet.edited("Subject: Lunch {{recipient.givenName}}\n\nMy paragraph.\n", file: "message.txt")
        #expect(sheet.error == nil && sheet.rejectedText == nil)
        #expect(sheet.textToEdit == sheet.preview.text?.editable)
        #expect(sheet.preview.messages.map { $0.mail?.subject } == ["Lunch Anna", "Lunch Ben"])
        // A failed editor keeps the rejected text as it was.
        sheet.edited("no subject\n", file: "message.txt")
        sheet.editorFailed("vi exited with 1")
        #expect(sheet.textToEdit == "no subject\n")
    }

    @Test func sendDeliversEveryRenderedMessageAndEscapeGoesBack() throws {
        let sheet = try makeSheet(mode: .both, ids: ["anna", "chen"])
        #expect(sheet.handle(.text("s")) == .send)
        #expect(sheet.preview.batch.mail.map(\.key) == ["anna"])
        #expect(sheet.preview.batch.mail.first?.draft.subject == "Dinner for Anna")
        #expect(sheet.preview.batch.messages.map(\.draft.recipients) == [["+14155550102"]])
        #expect(sheet.preview.batch.messages.first?.draft.body.hasPrefix("Hi Chen,") == true)
        #expect(sheet.handle(.escape) == .back)
        #expect(sheet.handle(.control("c")) == .cancel)
        // The title bar's buttons: Back on the left, Send on the right (mirrored in Arabic).
        #expect(sheet.handle(.click(line: 0, column: 1)) == .back)
        #expect(sheet.handle(.click(line: 0, column: 39)) == .send)
        #expect(sheet.handle(.click(line: 0, column: 20)) == nil)
        let ar = try makeSheet(locale: "ar")
        #expect(ar.handle(.click(line: 0, column: 39)) == .back)
        #expect(ar.handle(.click(line: 0, column: 0)) == .send)
    }

    @Test func aMarkdownBodyMakesTheHTMLPartAndATextMessageBodyItsOwn() throws {
        let text = ComposerText(
            subject: "Dinner", body: "# Dinner\n\nHi *{{recipient.givenName}}* & co\n", format: .markdown,
            messageBody: "Dinner at 8, {{recipient.givenName}}")
        let sheet = try makeSheet(text: text, mode: .both, ids: ["anna", "chen"])
        let mail = try #require(sheet.preview.messages.first?.mail)
        #expect(mail.htmlBody == "<h1>Dinner</h1>\n<p>Hi <em>Anna</em> &amp; co</p>\n")
        #expect(mail.textBody == "# Dinner\n\nHi *Anna* & co\n")
        #expect(sheet.preview.messages.last?.message?.body == "Dinner at 8, Chen")
        #expect(ComposerText.format(fileName: "note.md", html: false) == .markdown)
        #expect(ComposerText.format(fileName: "note.html", html: true) == .html)
        #expect(ComposerText.format(fileName: nil, html: false) == .plain)
    }

    @Test func noDeliveryShowsTheDocumentedAlertInTheUsersLanguage() throws {
        let sheet = try makeSheet(delivery: nil, locale: "de", columns: 60)
        #expect(sheet.alert == ComposeAlert.cannotSend(mail: true, locale: "de").pickerAlert)
        let text = sheet.screen().text
        #expect(text.count == 12)
        #expect(text.contains { $0.contains("Nachrichten nicht unterstützt") })
        #expect(text.contains { $0.contains("Das Senden von E-Mails wird auf diesem Gerät nicht") })
        #expect(text.contains { $0.contains("[ OK ]") })
        // Keys other than OK's do nothing; OK goes back to the list.
        #expect(sheet.handle(.text("s")) == nil)
        #expect(sheet.handle(.enter) == .back)
        // Text messages through a delivery that carries mail only: the messaging alert.
        let texts = try makeSheet(
            mode: .messages, ids: ["chen"], delivery: Delivery(target: .mbox(URL(fileURLWithPath: "/tmp/x"))))
        #expect(texts.alert == ComposeAlert.cannotSend(mail: false, locale: "en").pickerAlert)
        // A delivery that carries them: no alert.
        #expect(try makeSheet(mode: .messages, ids: ["chen"]).alert == nil)
    }

    @Test func literalsComeFromTheCatalogAndArabicMirrorsTheLayout() throws {
        let de = try makeSheet(locale: "de").screen().text
        #expect(de[0].hasPrefix("Zurück") && de[0].hasSuffix("Senden"))
        #expect(de[1].hasPrefix("An: Anna Berg"))
        #expect(de[2].hasPrefix("Betreff: "))
        #expect(de[11].hasPrefix("e Bearbeiten  s Senden  Esc Zurück"))
        let sheet = try makeSheet(locale: "ar")
        let ar = sheet.screen().text
        #expect(ar[0].hasPrefix("إرسال") && ar[0].hasSuffix("رجوع"))
        // A space between each label and its value, mirrored too.
        #expect(ar[1].hasPrefix("1/2") && ar[1].hasSuffix("<anna@example.org> إلى:"), "\(ar[1])")
        #expect(ar[2].hasSuffix("Dinner for Anna الموضوع:"), "\(ar[2])")
        let he = try makeSheet(locale: "he").screen().text
        #expect(he[1].hasSuffix("<anna@example.org> " + Strings.to(locale: "he") + ":"), "\(he[1])")
        // ← is "next" in a right-to-left layout.
        _ = sheet.handle(.left)
        #expect(sheet.page == 1)
    }

    @Test func pickedContactsAreSelectedByIdAtTheValueTheyWerePickedWith() throws {
        let selection = try SelectionController(contacts: people) { config in
            config.mode = .messages
            config.phoneRegion = "US"
        }
        try selection.select([
            FormattedContact(id: "berg-ben", name: "Ben Berg", value: "+14155550999", channel: .message),
            FormattedContact(id: "adams-anna", name: "Anna Adams", value: "+14155550100", channel: .message),
        ])
        #expect(selection.selectedRows.map(\.id).sorted() == ["adams-anna", "berg-ben"])
        #expect(selection.value(for: "berg-ben")?.value == "+14155550999")
        #expect(selection.value(for: "adams-anna")?.value == "+14155550100")
        #expect(throws: SelectionError.self) {
            try selection.select([FormattedContact(id: "nobody", name: "", value: "", channel: .message)])
        }
        #expect(throws: SelectionError.self) {
            try selection.select([FormattedContact(id: "cole-anna", name: "", value: "+19999999999", channel: .message)]
            )
        }
    }

    @Test func recipientsThatCannotBeRenderedAreShownNotHidden() throws {
        // Strict rendering: a variable the data lacks fails every recipient, then only Chen's text.
        let none = try makeSheet(text: ComposerText(subject: "S", body: "{{missing}}"))
        #expect(none.preview.messages.isEmpty && none.failures.count == 2)
        #expect(none.screen().text[3].hasPrefix("Anna Berg (anna):"))
        #expect(none.handle(.text("s")) == nil)
        // Only Anna's row of recipient data has the table.
        let some = try makeSheet(text: ComposerText(subject: "S", body: "Table {{table}}"), ids: ["anna", "ben"]) {
            $0.recipientData = ["anna": ["table": .string("7")]]
        }
        #expect(some.preview.messages.map(\.contactID) == ["anna"])
        let text = some.screen().text
        #expect(text[4].hasPrefix("Table 7"))
        #expect(text[10].hasPrefix("✗ Ben Cole (ben):"), "\(text)")
        #expect(text[11].hasPrefix("e Edit  s Send  Esc Back"))
    }

    @Test func everySizeFillsTheScreenExactly() throws {
        let sheet = try makeSheet()
        for (columns, lines) in [(40, 10), (20, 5), (300, 100), (1, 1)] {
            sheet.resize(columns: columns, lines: lines)
            _ = sheet.handle(.end)
            let text = sheet.screen().text
            #expect(text.count == lines)
            #expect(text.allSatisfy { DisplayWidth.measure($0) == columns }, "\(columns)×\(lines): \(text)")
        }
        let alert = try makeSheet(delivery: nil, columns: 20, lines: 6)
        #expect(alert.screen().text.count == 6)
    }

    @Test func wrappingBreaksAtSpacesAndNeverInsideACluster() {
        #expect(ComposeSheet.wrap("Hallo Zoë, bis bald", width: 10) == ["Hallo Zoë,", "bis bald"])
        #expect(ComposeSheet.wrap("陈伟陈伟陈伟", width: 5) == ["陈伟", "陈伟", "陈伟"])
        #expect(ComposeSheet.wrap("a\n\nb", width: 5) == ["a", "", "b"])
        #expect(ComposeSheet.wrap("abcdefgh", width: 3) == ["abc", "def", "gh"])
    }
}

/// A front end's own content: the sheet shows whatever pages it is given, with no campaign behind them.
private final class Pages: ComposeSheetContent {
    var pages: [ComposePage]
    var failures: [String] = []
    var alert: PickerAlert?
    var editableText: String? = "Subject: x\n\n"
    init(_ names: [String]) {
        pages = names.map { ComposePage(displayName: $0, value: "\($0)@example.org", subject: nil, body: "Hi \($0)") }
    }
    func edit(_ text: String, file: String) throws {
        guard text != "bad" else { throw CampaignError.editedMessage(file: file, line: 1, reason: "bad") }
        pages = Array(pages.prefix(1))
    }
}

@Suite struct ComposeSheetContentTests {
    @Test func theSheetShowsTheFrontEndsPagesAndKeepsThePageWithinThemAfterAnEdit() {
        let content = Pages(["Ann", "Bo"])
        let sheet = ComposeSheet(content: content, locale: "en", columns: 30, lines: 8)
        #expect(sheet.handle(.right) == nil)
        var text = sheet.screen().text
        #expect(text[1].hasPrefix("To: Bo <Bo@example.org>") && text[1].hasSuffix("2/2"))
        // A text message: no Subject line, the body under the rule.
        #expect(text[3].hasPrefix("Hi Bo"))
        #expect(sheet.handle(.text("e")) == .edit)
        sheet.edited("bad", file: "message.txt")
        #expect(sheet.rejectedText == "bad" && sheet.page == 1)
        sheet.edited("good", file: "message.txt")
        #expect(sheet.page == 0 && sheet.rejectedText == nil)
        text = sheet.screen().text
        #expect(text[1].hasPrefix("To: Ann <Ann@example.org>") && text[1].hasSuffix("1/1"))
        content.alert = PickerAlert(title: "No", message: "Cannot send.", button: "OK")
        #expect(sheet.handle(.text("s")) == nil)
        #expect(sheet.handle(.enter) == .back)
    }
}
