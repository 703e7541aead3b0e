import Composer
import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import StringsCatalog
import Templating
import TestSupport
import Testing

@testable import Campaigns

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

    @Test func aCampaignTakesTheRowsTheirOriginsAndTheFilesFolder() throws {
        var campaign = Campaign(template: "invite")
        campaign.useRecipients(try load("id,table\nfelipe,7\n", "lists/extra.csv"), from: "lists/extra.csv")
        #expect(campaign.recipientData["felipe"]?["table"].flatMap(\.scalarText) == "7")
        #expect(campaign.recipientOrigins["felipe"] == "lists/extra.csv:2")
        #expect(campaign.attachmentsDirectory?.path == URL(fileURLWithPath: "lists").path)
    }

    @Test func campaignVariablesAreAJSONObject() throws {
        let data = try Campaign.variables(json: Array(#"{"project": "Atlas", "n": 3}"#.utf8), file: "v.json")
        #expect(data["project"]?.scalarText == "Atlas" && data.count == 2)
        #expect(throws: CampaignError.invalidVariables("v.json:1:1: expected a JSON object of variables")) {
            try Campaign.variables(json: Array("[1, 2]".utf8), file: "v.json")
        }
        do {
            _ = try Campaign.variables(json: Array("{\"a\": }".utf8), file: "v.json")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".hasPrefix("v.json:1:"), "\(error)")
        }
    }

    @Test func badRowsAreReportedAndTheRestKept() throws {
        let csv = "id,table\nfelipe,7\nbruno,3,extra\n,4\nhelene,5\n"
        let data = try load(csv)
        #expect(Set(data.rows.keys) == ["felipe", "helene"])
        #expect(data.diagnostics.map(\.line) == [3, 4])
        #expect(data.diagnostics[0].description == "extra.csv:3: expected 2 fields, found 3; row skipped")
    }

    @Test func errorsNameFileLineAndColumn() throws {
        #expect(throws: CampaignError.recipientData(.noJoinColumn(file: "x.csv", columns: ["name", "table"]))) {
            try load("name,table\nA,1\n", "x.csv")
        }
        do {
            _ = try load("id,note\nfelipe,\"never closed\n", "q.csv")
            Issue.record("expected an error")
        } catch let CampaignError.recipientData(.invalid(d)) {
            #expect(d.line == 2 && d.column == 8)
        }
        #expect(throws: CampaignError.recipientData(.notUTF8(file: "b.csv"))) {
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
        let selection = try SelectionController(contacts: contacts) {
            $0.mode = .both
            $0.locale = "en"
        }
        try selection.select(id: "felipe")
        try selection.select(id: "bruno")
        try selection.choose(value: "felipe@example.com", for: "felipe")
        var campaign = Campaign(template: "hello")
        campaign.from = try MailAddress(address: "ada@example.org")
        campaign.recipientData = ["felipe": ["table": "7"], "bruno": ["table": "3"]]
        campaign.shareRecipientNames = true
        let (messages, failures) = campaign.compose(selection, library: try library())
        #expect(failures.isEmpty)
        #expect(messages.count == 2)
        let m = Dictionary(uniqueKeysWithValues: messages.map { ($0.contactID, $0) })
        #expect(m["felipe"]?.channel == .email)
        // The template's words are English (the campaign's locale): Felipe's LANG es is not what they are in.
        #expect(m["felipe"]?.locale == "en")
        #expect(m["felipe"]?.mail?.subject == "Hello Felipe (en)")
        #expect(m["felipe"]?.mail?.textBody == "Table 7 for Felipe Baytelman; others: Bruno \n")
        #expect(m["felipe"]?.mail?.to.first?.address == "felipe@example.com")
        #expect(m["bruno"]?.channel == .message)
        #expect(m["bruno"]?.locale == "en")
        #expect(m["bruno"]?.message == MessageDraft(recipients: ["+14155550101"], body: "Hi Bruno"))
    }

    @Test func recipientsByQueryIDsOrMembers() throws {
        let contacts = [
            person("felipe", given: "Felipe", family: "Baytelman", emails: ["felipe@example.com"]),
            person("bruno", given: "Bruno", family: "Finstein", emails: ["bruno@example.org"]),
            person("noah", given: "Noah", family: "White", phones: ["+1 415 555 0102"]),
        ]
        func selection() throws -> SelectionController {
            try SelectionController(contacts: contacts) { $0.mode = .email }
        }
        let byQuery = try selection()
        #expect(byQuery.selectRecipients(query: "bru", ids: "felipe", from: contacts).isEmpty)
        #expect(byQuery.selectedRows.map(\.id) == ["bruno"])
        let byIDs = try selection()
        let leftOut = byIDs.selectRecipients(query: nil, ids: " felipe,, noah ,nobody", from: contacts)
        #expect(byIDs.selectedRows.map(\.id) == ["felipe"])
        #expect(leftOut.map(\.contactID) == ["noah", "nobody"])
        let members = try selection()
        let noAddress = members.selectRecipients(query: nil, ids: nil, from: contacts)
        #expect(Set(members.selectedRows.map(\.id)) == ["felipe", "bruno"])
        #expect(noAddress.map(\.contactID) == ["noah"])
    }

    @Test func aMissingVariableFailsOnlyThatRecipient() throws {
        let contacts = [
            person("felipe", given: "Felipe", family: "Baytelman", phones: ["+1 415 555 0100"]),
            person("bruno", given: "Bruno", family: "Finstein", phones: ["+1 415 555 0101"]),
        ]
        let selection = try SelectionController(contacts: contacts)
        selection.selectAll()
        var campaign = Campaign(template: "hello")
        campaign.recipientData = ["felipe": ["table": "7"]]
        let (messages, failures) = campaign.compose(selection, library: try library())
        #expect(messages.map(\.contactID) == ["felipe"])
        #expect(failures.map(\.contactID) == ["bruno"])
        #expect("\(failures[0])".contains("table"))
    }
}

/// Issue 18, items 10, 13 and 14: the language used, privacy of co-recipients, recipient rows reported.
@Suite struct CampaignPrivacyAndLanguageTests {
    func selection(_ contacts: [Contact]) throws -> SelectionController {
        let selection = try SelectionController(contacts: contacts) {
            $0.mode = .email
            $0.locale = "en"
        }
        selection.selectAll()
        return selection
    }

    let data: [String: MustacheValue] = [
        "inviter": ["givenName": "Ada", "familyName": "Lovelace"], "project": "Atlas",
        "url": "https://example.com/j", "expires": "2025-07-01",
    ]

    @Test("no recipient is named to another unless asked")
    func othersAreNotSharedByDefault() throws {
        let contacts = (0..<3).map { i in
            person("p\(i)", given: "P\(i)", family: "Q", emails: ["p\(i)@example.org"])
        }
        let library = try TemplateLibrary.bundled(catalog: try Catalog.bundled())
        var campaign = Campaign(template: "invite")
        campaign.data = data
        campaign.from = try MailAddress(address: "ada@example.org")
        let (messages, failures) = campaign.compose(try selection(contacts), library: library)
        #expect(failures.isEmpty)
        #expect(messages.count == 3)
        for m in messages {
            let body = m.rendered.textBody + (m.rendered.htmlBody ?? "")
            for other in contacts where other.id != m.contactID {
                #expect(!body.contains(other.givenName) && !body.contains(other.emails[0].value), "\(m.contactID)")
            }
            #expect(!body.contains("invited too") && !body.contains("first person"))
            #expect(!m.rendered.textBody.contains("\n\n\n"))  // no empty line left where the list would be
        }
        // Asked for: every co-recipient is listed.
        campaign.shareRecipientNames = true
        let shared = campaign.compose(try selection(contacts), library: library).messages
        #expect(shared.first?.rendered.textBody.contains("2 other people are invited too: P1 Q and P2 Q.") == true)
        // Given by the data: that list, shared or not.
        campaign.shareRecipientNames = false
        campaign.data["others"] = [["givenName": "Team", "familyName": "Blue"]]
        let given = campaign.compose(try selection(contacts), library: library).messages
        #expect(given.allSatisfy { $0.rendered.textBody.contains("Team Blue is invited too.") })
    }

    @Test("a recipient whose language has no words gets the fallback language, and the draft says so")
    func draftLocaleIsTheLanguageUsed() throws {
        var vi = person("vi", given: "An", family: "Nguyen", emails: ["an@example.vn"])
        vi.languages = ["vi"]
        var fr = person("fr", given: "Luc", family: "Martin", emails: ["luc@example.fr"])
        fr.languages = ["fr-CA"]
        let library = try TemplateLibrary.bundled(catalog: try Catalog.bundled())
        var campaign = Campaign(template: "invite")
        campaign.data = data
        campaign.data["others"] = [["givenName": "Q", "familyName": "P0"]]
        campaign.from = try MailAddress(address: "ada@example.org")
        let (messages, failures) = campaign.compose(try selection([vi, fr]), library: library)
        #expect(failures.isEmpty)
        let m = Dictionary(uniqueKeysWithValues: messages.map { ($0.contactID, $0) })
        #expect(m["vi"]?.locale == "en")
        #expect(m["vi"]?.mail?.locale == "en")
        #expect(m["vi"]?.rendered.textBody.contains("Q P0 is invited too.") == true)
        #expect(m["vi"]?.rendered.textBody.contains("July 1, 2025") == true)
        let eml = try MIMEWriter().write(try #require(m["vi"]?.mail))
        #expect(String(decoding: eml, as: UTF8.self).contains("Content-Language: en\r\n"))
        #expect(m["fr"]?.locale == "fr-CA")
    }

    @Test("recipient rows that match no selected contact are listed with file and line")
    func unmatchedRowsAreReported() throws {
        let contacts = [
            person("felipe", given: "Felipe", emails: ["felipe@example.com"]),
            person("bruno", given: "Bruno", emails: ["bruno@example.org"]),
        ]
        let csv = "id,email,table\nfelipe,,7\nnobody,,3\n,BRUNO@example.org,4\n,ghost@example.org,5\n"
        let extra = try RecipientData(data: Data(csv.utf8), fileName: "guests.csv")
        let unmatched = try extra.unmatchedRows(in: try selection(contacts))
        #expect(
            unmatched.map(\.description) == [
                "guests.csv:3: row for 'nobody' matches no selected contact",
                "guests.csv:5: row for 'ghost@example.org' matches no selected contact",
            ])
    }

    @Test("a repeated column is reported; an empty file is an error naming it")
    func duplicateColumnsAndEmptyFiles() throws {
        let extra = try RecipientData(data: Data("id,table,table\nfelipe,1,2\n".utf8), fileName: "d.csv")
        #expect(
            extra.diagnostics.map(\.description) == [
                "d.csv:1: column 'table' appears twice (fields 2 and 3); the later one wins"
            ])
        #expect(extra.rows["felipe"]?["table"].flatMap(\.scalarText) == "2")
        let json = try RecipientData(data: Data(#"[{"id": "a", "t": 1, "t": 2}]"#.utf8), fileName: "d.json")
        #expect(json.diagnostics.map(\.description) == ["d.json item 1:1: key 't' appears twice; the later one wins"])
        for empty in ["", "\u{FEFF}", " \n\r\n"] {
            #expect(throws: CampaignError.recipientData(.empty(file: "e.csv"))) {
                try RecipientData(data: Data(empty.utf8), fileName: "e.csv")
            }
        }
        #expect("\(CampaignError.recipientData(.empty(file: "e.csv")))".hasPrefix("e.csv: the file is empty"))
    }
}
