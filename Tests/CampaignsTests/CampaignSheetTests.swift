import Composer
import ContactsSelection
import Foundation
import StringsCatalog
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// A recipient sheet on its own (mail merge): every row a recipient, in the sheet's order, with its own
/// language, sender, copies, reply address, attachments and variables.
@Suite struct CampaignSheetTests {
    let data: [String: MustacheValue] = [
        "inviter": ["givenName": "Ada", "familyName": "Lovelace"], "project": "Atlas",
        "url": "https://example.com/j", "expires": "2025-07-01",
    ]

    @Test("each row is mailed once, in order, with its language, sender, copies and attachments")
    func rowsAreRecipients() throws {
        let dir = Scratch.path("sheet")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data("plan".utf8).write(to: dir.appendingPathComponent("files/plan.txt"))
        let csv =
            "email;name;lang;from;cc;bcc;reply_to;attachments;table\n"
            + "zoe@example.org;Zoë Zed;de;Sales <sales@example.com>;cc@example.org;audit@example.org;"
            + "help@example.org;files/plan.txt;7\n"
            + "amy@example.org;Amy Ash;;;;;;;3\n"
            + "ZOE@example.org;Zoë again;fr;;;;;;9\n"
            + "nobody;No One;en;;;;;;1\n"
            + "bo@example.org;Bo;en;;;;;../outside.txt;2\n"
        let path = dir.appendingPathComponent("people.csv").path
        let list = try RecipientList(data: Data(csv.utf8), fileName: path)
        #expect(list.diagnostics.map(\.line) == [4, 5])  // the duplicate, the bad address
        var campaign = Campaign(template: "invite")
        campaign.data = data
        campaign.from = try MailAddress(address: "ada@example.org")
        let contacts = campaign.useSheet(list, from: path)
        #expect(contacts.map(\.id) == ["zoe@example.org", "amy@example.org", "bo@example.org"])
        let selection = try SelectionController(contacts: contacts) {
            $0.mode = .email
            $0.locale = "en"
        }
        #expect(selection.selectRecipients(ids: contacts.map(\.id), from: contacts).isEmpty)
        let library = try TemplateLibrary.bundled(catalog: try Catalog.bundled())
        let (messages, failures) = campaign.compose(selection, library: library)
        // The sheet's order (the list would sort Amy first).
        #expect(messages.map(\.contactID) == ["zoe@example.org", "amy@example.org"])
        #expect(failures.map(\.contactID) == ["bo@example.org"])
        #expect("\(failures[0])".contains("people.csv:6: column 'attachments'"))
        let zoe = try #require(messages.first?.mail)
        #expect(zoe.locale == "de" && messages[0].rendered.textBody.contains("Juli 2025"))
        #expect(zoe.from?.address == "sales@example.com" && zoe.to.map(\.name) == ["Zoë Zed"])
        #expect(zoe.cc.map(\.address) == ["cc@example.org"] && zoe.bcc.map(\.address) == ["audit@example.org"])
        #expect(zoe.replyTo.map(\.address) == ["help@example.org"])
        #expect(zoe.attachments.map(\.filename) == ["plan.txt"])
        let amy = try #require(messages.last?.mail)
        #expect(amy.locale == "en" && messages[1].rendered.textBody.contains("July 1, 2025"))
        #expect(amy.from?.address == "ada@example.org" && amy.cc.isEmpty && amy.attachments.isEmpty)
        let eml = String(decoding: try MIMEWriter().write(zoe), as: UTF8.self)
        #expect(eml.contains("Content-Language: de\r\n"))
    }

    @Test("every other column is a template variable")
    func columnsAreVariables() throws {
        let dir = Scratch.path("sheet-vars")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = dir.appendingPathComponent("note")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "Table {{table}} for {{recipient.name}}".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Seat {{Seat}}\n".write(
            to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        let list = try RecipientList(
            data: Data("Email,Name,table,Seat\nada@example.org,Ada,7,B\n".utf8), fileName: "p.csv")
        var campaign = Campaign(template: "note")
        let contacts = campaign.useSheet(list, from: "p.csv")
        let selection = try SelectionController(contacts: contacts) { $0.mode = .email }
        _ = selection.selectRecipients(ids: contacts.map(\.id), from: contacts)
        let (messages, failures) = campaign.compose(selection, library: try TemplateLibrary(directory: dir))
        #expect(failures.isEmpty)
        #expect(messages.first?.rendered.subject == "Table 7 for Ada")
        #expect(messages.first?.rendered.textBody.hasPrefix("Seat B") == true)
    }
}
