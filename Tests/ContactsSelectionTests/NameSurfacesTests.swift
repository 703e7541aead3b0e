import Composer
import ContactsCore
import Foundation
import Templating
import TestSupport
import Testing

@testable import ContactsSelection

/// One name rule everywhere: a contact's name is the same in the list, the template's `fullName` and
/// `recipient.name`, and the To: header, each in the locale it is shown in (the list's, or the recipient's
/// language for a message).
@Suite struct NameSurfacesTests {
    /// (id, given, family, the recipient's language, shown in an English list, shown in their own message)
    static let table: [(String, String, String, String, String, String)] = [
        ("ja", "太郎", "山田", "ja", "山田太郎", "山田太郎"),
        ("zh", "伟", "王", "zh-Hans", "王伟", "王伟"),
        ("ko", "민준", "김", "ko", "김민준", "김민준"),
        ("hu", "Péter", "Nagy", "hu", "Péter Nagy", "Nagy Péter"),
        ("vi", "An", "Nguyễn", "vi", "An Nguyễn", "Nguyễn An"),
        ("en", "Anna", "Berg", "en", "Anna Berg", "Anna Berg"),
        ("ja-in-en", "太郎", "山田", "en", "山田太郎", "山田太郎"),
    ]

    @Test func everySurfaceAgrees() throws {
        var contacts: [Contact] = []
        for (id, given, family, language, _, _) in Self.table {
            var c = person(id, given: given, family: family, emails: ["\(id)@example.com"])
            c.languages = [language]
            contacts.append(c)
        }
        let selection = try ContactsSelection(contacts: contacts) {
            $0.mode = .email
            $0.locale = "en"
        }
        selection.selectAll()
        let listed = Dictionary(uniqueKeysWithValues: selection.dataSource.rows.map { ($0.id, $0.displayName) })

        let dir = try Scratch.directory("names")
        let t = dir.appendingPathComponent("names")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "{{#fullName}}recipient{{/fullName}}".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "{{recipient.name}}".write(
            to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        let (messages, failures) = Campaign(template: "names").compose(
            selection, library: try TemplateLibrary(directory: dir))
        #expect(failures.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: messages.map { ($0.contactID, $0) })

        for (id, _, _, _, inList, inMessage) in Self.table {
            #expect(listed[id] == inList, "\(id): list")
            let m = try #require(byID[id])
            #expect(m.mail?.subject == inMessage, "\(id): fullName")
            #expect(m.mail?.textBody == inMessage, "\(id): recipient.name")
            #expect(m.mail?.to.first?.name == inMessage, "\(id): To:")
        }
    }
}
