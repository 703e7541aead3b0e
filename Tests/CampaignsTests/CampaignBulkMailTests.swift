import Composer
import ContactsSelection
import Foundation
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// The bulk-mail parts of a campaign, in the library: header fields, List-Id, unsubscribe tokens,
/// suppressions, VERP, a limited or test send.
@Suite struct CampaignBulkMailTests {
    func sheetCampaign(_ csv: String, folder: URL) throws -> (Campaign, SelectionController, TemplateLibrary) {
        let t = folder.appendingPathComponent("note")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "Hi {{recipient.name}}".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Token {{unsubscribe_token}}\n".write(
            to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        var campaign = Campaign(template: "note")
        campaign.from = try MailAddress(address: "ada@example.org")
        let contacts = campaign.useSheet(
            try RecipientList(data: Data(csv.utf8), fileName: "p.csv"),
            from: folder.appendingPathComponent("p.csv").path)
        let selection = try SelectionController(contacts: contacts) { $0.mode = .email }
        _ = selection.selectRecipients(ids: contacts.map(\.id), from: contacts)
        return (campaign, selection, try TemplateLibrary(directory: folder))
    }

    @Test("headers rendered per recipient, List-Id, tokens kept, suppressed and VERP")
    func headersTokensSuppressionsVERP() throws {
        let dir = Scratch.path("bulk")
        defer { try? FileManager.default.removeItem(at: dir) }
        var (campaign, selection, library) = try sheetCampaign(
            "email,name\nzoe@example.org,Zoë\namy@example.org,Amy\nbo@example.org,Bo\n", folder: dir)
        campaign.headers = [try CampaignHeader(parsing: "X-Who: {{recipient.name}}")]
        campaign.listID = "News <news.example.org>"
        let tokens = try UnsubscribeTokens(file: dir.appendingPathComponent("t.tsv").path)
        campaign.unsubscribeTokens = tokens
        campaign.suppressions = SuppressionList(text: "bo@example.org\tbounce 5.1.1\n", file: "s.txt")
        campaign.verpReturnPath = "bounces@example.org"
        let (messages, failures) = campaign.compose(selection, library: library)
        #expect(messages.map(\.value) == ["zoe@example.org", "amy@example.org"])
        #expect(failures.map { "\($0.error)" } == ["bo@example.org: suppressed (bounce 5.1.1, line 1): not sent"])
        let zoe = try #require(messages.first?.mail)
        #expect(zoe.extraHeaders.contains(MailHeader(name: "X-Who", value: "Zoë")))
        #expect(zoe.extraHeaders.contains(MailHeader(name: "List-Id", value: "News <news.example.org>")))
        #expect(zoe.envelopeSender == "bounces+zoe=example.org@example.org")
        #expect(messages[0].rendered.textBody == "Token \(tokens.token(for: "ZOE@example.org"))\n")
        try tokens.save()
        #expect(
            try UnsubscribeTokens(file: tokens.file).token(for: "amy@example.org")
                == tokens.token(for: "amy@example.org"))
        #expect(throws: ComposerError.self) { try CampaignHeader(parsing: "Precedence: list") }
        #expect(throws: ComposerError.self) { try CampaignHeader(parsing: "From: x") }
        #expect(throws: ComposerError.self) { try CampaignHeader.checkListID("news") }
    }

    @Test("a limit keeps the first messages; a test send readdresses them, [TEST], no copies, no VERP")
    func limitAndTest() throws {
        let dir = Scratch.path("bulk-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        var (campaign, selection, library) = try sheetCampaign(
            "email,name,cc\nzoe@example.org,Zoë,cc@example.org\namy@example.org,Amy,\n", folder: dir)
        campaign.verpReturnPath = "bounces@example.org"
        campaign.unsubscribeTokens = try UnsubscribeTokens(file: dir.appendingPathComponent("t.tsv").path)
        let (messages, failures) = campaign.compose(selection, library: library)
        #expect(failures.isEmpty, "\(failures)")
        var sending = CampaignSending(delivery: Delivery(target: .uris), outboxFolder: dir)
        sending.limit = 1
        let limited = sending.choose(messages, identity: nil)
        #expect(limited.messages.map(\.value) == ["zoe@example.org"] && limited.heldBack == 1)
        sending.limit = nil
        sending.testTo = try MailAddress(address: "me@example.net")
        let test = sending.choose(messages, identity: nil)
        let draft = try #require(test.messages.first?.mail)
        #expect(test.messages.count == 1 && draft.to.map(\.address) == ["me@example.net"])
        #expect(draft.cc.isEmpty && draft.envelopeSender == nil && draft.subject == "[TEST] Hi Zoë")
        #expect(sending.identity("v1-x") != "v1-x")
        let previews = campaign.previews(selection, library: library, sending: sending, count: nil).previews
        #expect(previews.count == 1 && previews[0].contains("Subject: [TEST] Hi Zoë\n"))
    }
}
