import ContactsCore
import Foundation
import SelectionFixtures
import Support
import Testing

@testable import ContactsSelection

/// The one printer of `list`, `search`, `query` and `pick`: every format of rows, selections and address
/// matches, with hostile values (tabs and line breaks in names, quotes, backslashes and controls in JSON).
@Suite struct ContactPrinterTests {
    static let hostile = [
        FormattedContact(id: "id\t1", name: "Ann\tLee\r\nJr", value: "ann@example.org", channel: .email),
        FormattedContact(id: "q\"2", name: "Bo \"B\" \\ \u{1}\u{2028}", value: "+14155550100", channel: .message),
    ]

    static func text(_ format: ContactPrinter.Format, _ contacts: [FormattedContact]) throws -> String {
        var out = ""
        try ContactPrinter(format).write(selection: contacts, to: &out)
        return out
    }

    @Test func tsvKeepsEveryContactOnOneLineOfThreeFields() throws {
        let tsv = try Self.text(.tsv, Self.hostile)
        let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[0] == "Ann Lee  Jr\tann@example.org\tid 1")
        for line in lines.dropLast() {
            #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 3)
        }
    }

    @Test func jsonIsEscapedByTheOneJSONWriter() throws {
        let json = try Self.text(.json, Self.hostile)
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]])
        #expect(decoded.map { $0["name"] } == Self.hostile.map(\.name))
        #expect(decoded.map { $0["id"] } == Self.hostile.map(\.id))
        #expect(decoded.map { $0["channel"] } == ["email", "message"])
        #expect(json.contains(JSONText.quoted(Self.hostile[1].name)))
        #expect(!json.contains("\u{1}"))
    }

    @Test func linesIdsAndPinnedRows() throws {
        #expect(
            try Self.text(.lines, Self.hostile)
                == "Ann Lee Jr <ann@example.org>\n\"Bo \\\"B\\\" \\\\ \u{1}\u{2028}\" <+14155550100>\n")
        #expect(try Self.text(.ids, Self.hostile) == "id\t1,q\"2\n")
        let shouting = ContactFormatter(safe: { $0.uppercased() })
        for format in ContactPrinter.Format.allCases where format != .json {
            #expect(ContactPrinter(format, formatter: shouting).pinned("me") == "ME\n")
        }
    }

    @Test func addressMatchesInEveryFormat() throws {
        let matches = [
            AddressMatch(id: "felipe", name: "Felipe\tB", email: "f@example.org", label: "work", organization: ""),
            AddressMatch(id: "felipe", name: "Felipe\tB", email: "f2@example.org", label: "", organization: "Acme"),
        ]
        let lookup = ContactLookup.dataSource(try ContactsDataSource(contacts: book, configuration: Configuration()))
        func text(_ format: ContactPrinter.Format) throws -> String {
            var out = ""
            try ContactPrinter(format).write(matches: matches, query: "fe\tl", contacts: lookup, to: &out)
            return out
        }
        #expect(
            try text(.mutt)
                == "searching for 'fe l' ... 2 matches\nf@example.org\tFelipe B\twork\nf2@example.org\tFelipe B\tAcme\n"
        )
        #expect(try text(.aerc) == "f@example.org\tFelipe B\nf2@example.org\tFelipe B\n")
        #expect(
            try text(.tsv).hasPrefix("email\tname\tlabel\torganization\tid\nf@example.org\tFelipe B\twork\t\tfelipe\n"))
        #expect(try text(.lines) == "Felipe B <f@example.org>\nFelipe B <f2@example.org>\n")
        #expect(try text(.ids) == "felipe\n")
        // One card per contact, however many of its addresses matched.
        let cards = try text(.vcard)
        #expect(cards.components(separatedBy: "BEGIN:VCARD").count == 2)
        #expect(cards.contains("Felipe"))
    }

    @Test func rowsAsMuttAndVCards() throws {
        var config = Configuration()
        config.locale = "en"
        config.mode = .email
        let list = try ContactsDataSource(contacts: book, configuration: config)
        let result = list.search("", keywords: nil, refining: nil)
        var mutt = ""
        try ContactPrinter(.mutt).write(list, result, contacts: .dataSource(list), query: "", to: &mutt)
        #expect(mutt.hasPrefix("searching for '' ... \(result.count) match"))
        var cards = ""
        try ContactPrinter(.vcard).write(list, result, contacts: .dataSource(list), to: &cards)
        #expect(cards.components(separatedBy: "BEGIN:VCARD").count == result.count + 1)
        // A card the lookup lacks is an error naming it, not a silent gap.
        #expect(throws: SelectionError.self) {
            var out = ""
            try ContactPrinter(.vcard).write(list, result, contacts: .unavailable, to: &out)
        }
    }
}
