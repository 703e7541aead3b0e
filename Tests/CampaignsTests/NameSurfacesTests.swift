import Composer
import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// One name per contact (issue 18 item 4): a contact's name is the same in the list, the template's
/// `fullName`, `recipient.name` and `others`, and the To: header, whoever reads it — its order is the
/// name's own (its script, for Latin-script names its `LANG`), never the list's or the message's locale.
@Suite struct NameSurfacesTests {
    /// (id, given, middle, family, the contact's LANG, the name everywhere)
    static let table: [(String, String, String, String, String?, String)] = [
        ("ja", "太郎", "", "山田", "ja", "山田太郎"),
        ("zh", "伟", "", "王", "zh-Hans", "王伟"),
        ("ko", "민준", "", "김", "ko", "김민준"),
        ("hu", "Péter", "", "Nagy", "hu", "Nagy Péter"),
        ("vi", "An", "Văn", "Nguyễn", "vi", "Nguyễn Văn An"),
        ("en", "Anna", "", "Berg", "en", "Anna Berg"),
        ("ja-in-en", "太郎", "", "山田", "en", "山田太郎"),
        // No LANG: rendered in the campaign's Hungarian, still given-first.
        ("john", "John", "", "Smith", nil, "John Smith"),
    ]

    static func contacts() -> [Contact] {
        Self.table.map { id, given, middle, family, language, _ in
            var c = person(id, given: given, family: family, emails: ["\(id)@example.com"])
            c.middleName = middle
            c.languages = language.map { [$0] } ?? []
            return c
        }
    }

    @Test(arguments: ["en", "hu", "ja"]) func everySurfaceAgrees(listLocale: String) throws {
        let selection = try SelectionController(contacts: Self.contacts()) {
            $0.mode = .email
            $0.locale = listLocale
        }
        selection.selectAll()
        let listed = Dictionary(
            uniqueKeysWithValues: try #require(selection.dataSource).rows.map { ($0.id, $0.displayName) })

        let dir = try Scratch.directory("names")
        let t = dir.appendingPathComponent("names")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "{{#fullName}}recipient{{/fullName}}".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "{{recipient.name}}|{{#others}}{{name}};{{/others}}".write(
            to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        var campaign = Campaign(template: "names")
        campaign.locale = "hu"
        let (messages, failures) = campaign.compose(selection, library: try TemplateLibrary(directory: dir))
        #expect(failures.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: messages.map { ($0.contactID, $0) })
        #expect(byID["john"]?.locale == "hu")

        for (id, _, _, _, _, name) in Self.table {
            #expect(listed[id] == name, "\(id): list in \(listLocale)")
            #expect(Self.contacts().first { $0.id == id }?.displayName == name, "\(id): Contact.displayName")
            let m = try #require(byID[id])
            #expect(m.mail?.subject == name, "\(id): fullName")
            #expect(m.mail?.textBody.hasPrefix(name + "|") == true, "\(id): recipient.name")
            #expect(m.mail?.to.first?.name == name, "\(id): To:")
            #expect(m.displayName == name, "\(id): the draft's name")
            // Every other recipient's message that lists co-recipients (`others`) names this one the same way,
            // in its own language.
            for other in messages where other.contactID != id {
                let others = (other.mail?.textBody ?? "").split(separator: "|").dropFirst().joined()
                guard !others.isEmpty else { continue }
                #expect(others.split(separator: ";").contains { $0 == name }, "\(id) in \(other.contactID)'s others")
            }
        }
    }
}
