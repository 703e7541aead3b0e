import Composer
import ContactsCore
import Foundation
import StringsCatalog
import Templating
import TestSupport
import Testing

@testable import ContactsSelection

@Suite struct RecipientDataTests {
    func load(_ text: String, _ name: String = "extra.csv") throws -> RecipientData {
        try RecipientData(data: Data(text.utf8), fileName: name)
    }

    @Test func csvWithQuotesBOMAndSemicolons() throws {
        let csv =
            "\u{FEFF}email;table;note\r\nFelipe@Example.com;7;\"Window seat; \"\"quiet\"\"\"\r\nbruno@example.org;3;\"two\nlines\"\r\n"
        let data = try load(csv)
        #expect(data.diagnostics.isEmpty)
        #expect(data.rows["felipe@example.com"]?["table"].flatMap(\.scalarText) == "7")
        #expect(data.rows["felipe@example.com"]?["note"].flatMap(\.scalarText) == "Window seat; \"quiet\"")
        #expect(data.rows["bruno@example.org"]?["note"].flatMap(\.scalarText) == "two\nlines")
    }

    @Test func badRowsAreReportedAndTheRestKept() throws {
        let csv = "id,table\nfelipe,7\nbruno,3,extra\n,4\nhelene,5\n"
        let data = try load(csv)
        #expect(Set(data.rows.keys) == ["felipe", "helene"])
        #expect(data.diagnostics.map(\.line) == [3, 4])
        #expect(data.diagnostics[0].description == "extra.csv:3: expected 2 fields, found 3; row skipped")
    }

    @Test func errorsNameFileLineAndColumn() throws {
        #expect(throws: RecipientData.LoadError.noJoinColumn(file: "x.csv", columns: ["name", "table"])) {
            try load("name,table\nA,1\n", "x.csv")
        }
        do {
            _ = try load("id,note\nfelipe,\"never closed\n", "q.csv")
            Issue.record("expected an error")
        } catch let RecipientData.LoadError.invalid(d) {
            #expect(d.line == 2 && d.column == 8)
        }
        #expect(throws: RecipientData.LoadError.notUTF8(file: "b.csv")) {
            try RecipientData(data: Data([0x69, 0x64, 0x0A, 0xFF]), fileName: "b.csv")
        }
    }

    @Test func json() throws {
        let data = try load(
            #"[{"id": "felipe", "table": 7}, 3, {"email": "B@example.org", "vip": true}]"#, "extra.json")
        #expect(data.rows["felipe"]?["table"].flatMap(\.scalarText) == "7")
        #expect(data.rows["b@example.org"] != nil)
        #expect(data.diagnostics.count == 1)
    }
}

@Suite struct CampaignTests {
    func library() throws -> TemplateLibrary {
        let dir = Scratch.path("campaign")
        let t = dir.appendingPathComponent("hello")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "Hello {{recipient.givenName}} ({{lang}})".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Table {{table}} for {{recipient.name}}; others: {{#others}}{{givenName}} {{/others}}\n"
            .write(to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        try "Hi {{recipient.givenName}}".write(
            to: t.appendingPathComponent("message.txt.mustache"), atomically: true, encoding: .utf8)
        return try TemplateLibrary(directory: dir)
    }

    @Test func perRecipientLanguageDataAndChannels() throws {
        var felipe = person(
            "felipe", given: "Felipe", family: "Baytelman", phones: ["+1 415 555 0100"], emails: ["felipe@example.com"])
        felipe.languages = ["es"]
        let contacts = [felipe, person("bruno", given: "Bruno", family: "Finstein", phones: ["+1 415 555 0101"])]
        let selection = try ContactsSelection(contacts: contacts) {
            $0.mode = .both
            $0.locale = "en"
        }
        try selection.select(id: "felipe")
        try selection.select(id: "bruno")
        try selection.choose(value: "felipe@example.com", for: "felipe")
        var campaign = Campaign(template: "hello")
        campaign.from = try MailAddress(address: "ada@example.org")
        campaign.recipientData = ["felipe": ["table": "7"], "bruno": ["table": "3"]]
        let (messages, failures) = campaign.compose(selection, library: try library())
        #expect(failures.isEmpty)
        #expect(messages.count == 2)
        let m = Dictionary(uniqueKeysWithValues: messages.map { ($0.contactID, $0) })
        #expect(m["felipe"]?.channel == .email)
        #expect(m["felipe"]?.locale == "es")
        #expect(m["felipe"]?.mail?.subject == "Hello Felipe (es)")
        #expect(m["felipe"]?.mail?.textBody == "Table 7 for Felipe Baytelman; others: Bruno \n")
        #expect(m["felipe"]?.mail?.to.first?.address == "felipe@example.com")
        #expect(m["bruno"]?.channel == .message)
        #expect(m["bruno"]?.locale == "en")
        #expect(m["bruno"]?.message == MessageDraft(recipients: ["+14155550101"], body: "Hi Bruno"))
    }

    @Test func aMissingVariableFailsOnlyThatRecipient() throws {
        let contacts = [
            person("felipe", given: "Felipe", family: "Baytelman", phones: ["+1 415 555 0100"]),
            person("bruno", given: "Bruno", family: "Finstein", phones: ["+1 415 555 0101"]),
        ]
        let selection = try ContactsSelection(contacts: contacts)
        selection.selectAll()
        var campaign = Campaign(template: "hello")
        campaign.recipientData = ["felipe": ["table": "7"]]
        let (messages, failures) = campaign.compose(selection, library: try library())
        #expect(messages.map(\.contactID) == ["felipe"])
        #expect(failures.map(\.contactID) == ["bruno"])
        #expect("\(failures[0])".contains("table"))
    }
}
