import Composer
import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import Testing

@testable import Campaigns

/// A transport that records what it was given.
final class RecordingTransport: MailTransport, MessageTransport, @unchecked Sendable {
    let canSendMail: Bool
    let canSendText: Bool
    var mails: [MailDraft] = []
    var messages: [MessageDraft] = []
    init(mail: Bool, text: Bool) {
        canSendMail = mail
        canSendText = text
    }
    func send(_ draft: MailDraft) throws -> ComposeResult {
        mails.append(draft)
        return .saved
    }
    func send(_ draft: MessageDraft) throws -> ComposeResult {
        messages.append(draft)
        return .sent
    }
}

@Suite struct SelectActionTests {
    @Test func customHandlerGetsContactsInListOrder() throws {
        final class Box: @unchecked Sendable { var got: [String] = [] }
        let box = Box()
        let s = try SelectionController(contacts: book) {
            $0.customSelectButtonHandler = { contacts in box.got = contacts.map(\.id) }
        }
        try s.select(id: "helene")
        try s.select(id: "bruno")
        let outcome = try s.performSelectAction(ComposerText(subject: "", body: ""), mail: nil, messages: nil)
        guard case .handled(let contacts) = outcome else {
            Issue.record("expected handled")
            return
        }
        #expect(contacts.map(\.id) == ["bruno", "helene"])
        #expect(box.got == ["bruno", "helene"])
    }

    @Test func emailModeComposesOneMailWithSubject() throws {
        let s = try SelectionController(contacts: book) { $0.mode = .email }
        try s.select(id: "felipe")
        try s.select(id: "emailonly")
        let t = RecordingTransport(mail: true, text: true)
        let settings = ComposerText(subject: "Team dinner", body: "<p>Join us &amp; friends</p>", format: .html)
        let outcome = try s.performSelectAction(settings, mail: t, messages: t)
        guard case .composed(let mail, let message) = outcome else {
            Issue.record("expected composed")
            return
        }
        #expect(mail == .saved && message == nil)
        #expect(t.mails.count == 1)
        #expect(t.mails[0].subject == "Team dinner")
        #expect(t.mails[0].to.map(\.address) == ["erin@example.net", "felipe@example.com"])
        #expect(t.mails[0].htmlBody == "<p>Join us &amp; friends</p>")
        #expect(t.mails[0].textBody == "Join us & friends")
    }

    @Test func theSelectActionTakesTheComposeSettingsCampaignsTakeAMarkdownBodyAmongThem() throws {
        let s = try SelectionController(contacts: book) { $0.mode = .email }
        try s.select(id: "felipe")
        let t = RecordingTransport(mail: true, text: true)
        let text = ComposerText(subject: "Team dinner", body: "Join *us*", format: .markdown, messageBody: "Hi!")
        let ada = try MailAddress(name: "Ada", address: "ada@example.org")
        _ = try s.performSelectAction(text, from: ada, mail: t, messages: t)
        #expect(t.mails.count == 1 && t.mails[0].from == ada)
        #expect(t.mails[0].textBody == "Join *us*")
        #expect(t.mails[0].htmlBody?.contains("<em>us</em>") == true)
    }

    @Test func messagesModeComposesOneMessage() throws {
        let s = try SelectionController(contacts: book)
        try s.select(id: "felipe")
        try s.select(id: "zhang")
        let t = RecordingTransport(mail: true, text: true)
        _ = try s.performSelectAction(ComposerText(subject: "", body: "", messageBody: "Hi!"), mail: t, messages: t)
        #expect(t.messages.count == 1)
        #expect(Set(t.messages[0].recipients) == ["+14155550100", "+861055550100"])
        #expect(t.messages[0].body == "Hi!")
        #expect(t.mails.isEmpty)
    }

    @Test func cannotSendGivesLocalizedAlert() throws {
        let s = try SelectionController(contacts: book) { $0.locale = "en" }
        try s.select(id: "felipe")
        let outcome = try s.performSelectAction(
            ComposerText(subject: "", body: ""), mail: nil, messages: RecordingTransport(mail: false, text: false))
        guard case .alert(let alert) = outcome else {
            Issue.record("expected alert")
            return
        }
        #expect(
            alert
                == ComposeAlert(
                    title: "Messaging not supported", message: "Messaging on this device is not supported.",
                    button: "OK"))
        let mail = try SelectionController(contacts: book) {
            $0.mode = .email
            $0.locale = "en"
        }
        try mail.select(id: "felipe")
        guard
            case .alert(let a2) = try mail.performSelectAction(
                ComposerText(subject: "", body: ""), mail: RecordingTransport(mail: false, text: false), messages: nil)
        else {
            Issue.record("expected alert")
            return
        }
        #expect(a2.message == "Sending emails from this device is not supported.")
        let de = try SelectionController(contacts: book) { $0.locale = "de" }
        try de.select(id: "felipe")
        guard
            case .alert(let a3) = try de.performSelectAction(
                ComposerText(subject: "", body: ""), mail: nil, messages: nil)
        else {
            Issue.record("expected alert")
            return
        }
        #expect(a3.title != "Messaging not supported" && !a3.title.isEmpty)
    }

    @Test func nothingSelected() throws {
        let s = try SelectionController(contacts: book)
        guard
            case .nothingSelected = try s.performSelectAction(
                ComposerText(subject: "", body: ""), mail: nil, messages: nil)
        else {
            Issue.record("expected nothing")
            return
        }
    }
}

/// `pick`'s written message (``ComposerText``) and the alert for a delivery that cannot carry it.
@Suite struct ComposerTextTests {
    @Test func partsByFormat() {
        let plain = ComposerText(subject: "S", body: "B")
        #expect(plain.parts == [.subject: "S", .textBody: "B"])
        let html = ComposerText(subject: "S", body: "<p>Hi &amp; bye</p>", format: .html, messageBody: "M")
        #expect(
            html.parts == [.subject: "S", .htmlBody: "<p>Hi &amp; bye</p>", .textBody: "Hi & bye", .messageBody: "M"])
        let markdown = ComposerText(subject: "S", body: "*B*", format: .markdown)
        #expect(markdown.parts == [.subject: "S", .markdownBody: "*B*"])
    }

    @Test func editedTextIsReadBackOrRefusedWithItsLine() throws {
        let text = ComposerText(subject: "Dinner", body: "Hi\n", format: .markdown, messageBody: "M")
        #expect(text.editable == "Subject: Dinner\n\nHi\n")
        let edited = try text.edited("subject:   Lunch\n\nSee you\n", file: "m.md")
        #expect(edited == ComposerText(subject: "Lunch", body: "See you\n", format: .markdown, messageBody: "M"))
        #expect(try text.edited("Subject: Only", file: "m.md").body == "")
        #expect(
            throws: CampaignError.editedMessage(
                file: "m.md", line: 1, reason: "expected 'Subject: …' on the first line")
        ) {
            try text.edited("Lunch\n", file: "m.md")
        }
        #expect(throws: CampaignError.self) { try text.edited("Subject: x\nbody\n", file: "m.md") }
    }

    @Test func alertWhenTheDeliveryCannotCarryTheMessages() {
        #expect(
            ComposeAlert.unavailable(mail: true, texts: false, through: nil, locale: "en")
                == .cannotSend(mail: true, locale: "en"))
        #expect(
            ComposeAlert.unavailable(mail: true, texts: true, through: nil, locale: "fr")
                == .cannotSend(mail: false, locale: "fr"))
        let mbox = Delivery(target: .mbox(URL(fileURLWithPath: "/tmp/m")))
        #expect(ComposeAlert.unavailable(mail: true, texts: false, through: mbox, locale: "en") == nil)
        #expect(
            ComposeAlert.unavailable(mail: false, texts: true, through: mbox, locale: "en")
                == .cannotSend(mail: false, locale: "en"))
        #expect(
            ComposeAlert.unavailable(mail: true, texts: true, through: Delivery(target: .uris), locale: "en") == nil)
        #expect(ComposeAlert.unavailable(mail: false, texts: false, through: nil, locale: "en") == nil)
    }
}
