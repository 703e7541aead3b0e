import ContactsCore
import Foundation
import Testing

@testable import ContactsSelection

/// The one formatter of `list`, `search`, `query` and `pick`: RFC 5322 addresses, JSON of a selection and
/// of a pinned row, address matches; and what the list tells a command that lists no one.
@Suite struct ContactFormatterTests {
    @Test func linesAreRFC5322Addresses() {
        func box(_ name: String, _ address: String = "john@example.org") -> String {
            ContactFormatter.mailbox(name: name, address: address)
        }
        #expect(box("Smith, John") == #""Smith, John" <john@example.org>"#)
        #expect(box("John Smith") == "John Smith <john@example.org>")
        #expect(box("John Q. Public") == #""John Q. Public" <john@example.org>"#)
        #expect(box(#"Jo "JJ" Doe"#) == #""Jo \"JJ\" Doe" <john@example.org>"#)
        #expect(box(#"back\slash"#) == #""back\\slash" <john@example.org>"#)
        #expect(box("O'Brien") == "O'Brien <john@example.org>")
        #expect(box("Zoë Ünal") == "Zoë Ünal <john@example.org>")
        #expect(box("=?UTF-8?B?QQ==?=") == #""=?UTF-8?B?QQ==?=" <john@example.org>"#)
        #expect(box("Ann\r\n Lee\t(work)") == #""Ann Lee (work)" <john@example.org>"#)
        // No name, or the address as the name (an unnamed card): the bare address.
        #expect(box("") == "john@example.org")
        #expect(box("john@example.org") == "john@example.org")
        // Every line parses back as one address with that name (a comma no longer splits it in two).
        let lines = ContactPrinter(.lines).selection(
            [
                FormattedContact(id: "a", name: "Smith, John", value: "john@example.org", channel: .email),
                FormattedContact(id: "b", name: "Ann Lee", value: "+14155550100", channel: .message),
            ])
        #expect(lines == "\"Smith, John\" <john@example.org>\nAnn Lee <+14155550100>\n")
        #expect(
            ContactPrinter(.ids).selection([FormattedContact(id: "a", name: "A", value: "a@b.c", channel: .email)])
                == "a\n")
    }

    @Test func jsonOfASelectionAndOfAPinnedRow() throws {
        let formatter = ContactFormatter(safe: { $0.uppercased() })
        let json = ContactPrinter(.json, formatter: formatter).selection(
            [FormattedContact(id: "a\"1", name: "Zoë\n", value: "z@e.org", channel: .email)])
        #expect(
            json == """
                [
                  {
                    "channel" : "email",
                    "id" : "a\\"1",
                    "name" : "Zoë\\n",
                    "value" : "z@e.org"
                  }
                ]

                """)
        #expect(ContactPrinter(.json).selection([]) == "[\n\n]\n")
        let pinned = ContactPrinter(.json, formatter: formatter).pinned("me")
        #expect(pinned == "[\n  {\n    \"pin\" : \"me\"\n  }\n]\n")
        let decoded = try JSONSerialization.jsonObject(with: Data(pinned.utf8)) as? [[String: String]]
        #expect(decoded == [["pin": "me"]])
        // Lines and ids print the id, made safe.
        #expect(ContactPrinter(.lines, formatter: formatter).pinned("me") == "ME\n")
    }

    @Test func addressMatchesInEachClientsFormat() throws {
        let matches = [
            AddressMatch(id: "1", name: "Ann\tLee", email: "ann@example.org", label: "work", organization: ""),
            AddressMatch(id: "2", name: "", email: "x@example.org", label: "", organization: "Acme"),
        ]
        func text(_ format: ContactPrinter.Format) throws -> String {
            var out = ""
            try ContactPrinter(format).write(matches: matches, query: "a", to: &out)
            return out
        }
        #expect(
            try text(.mutt)
                == "searching for 'a' ... 2 matches\nann@example.org\tAnn Lee\twork\nx@example.org\t\tAcme\n")
        #expect(try text(.aerc) == "ann@example.org\tAnn Lee\nx@example.org\t\n")
        let json = try text(.json)
        let decoded = try JSONDecoder().decode([AddressMatch].self, from: Data(json.utf8))
        #expect(decoded == matches)
    }

    /// An unnamed card's match has an empty name (not its address again).
    @Test func anUnnamedCardsMatchHasNoName() throws {
        var unnamed = Contact(id: "u")
        unnamed.emails = [LabeledValue(value: "nobody@example.org")]
        var named = Contact(id: "n")
        named.givenName = "Nora"
        named.emails = [LabeledValue(value: "nora@example.org")]
        var config = Configuration()
        config.mode = .email
        let source = try ContactsDataSource(contacts: [unnamed, named], configuration: config)
        #expect(source.addressMatches("example").map(\.name).sorted() == ["", "Nora"])
    }

    /// An email-only book in messages mode lists no one; the list says how many the other channel reaches
    /// (and the same of a phones-only book in email mode), whichever listing answers.
    @Test func otherChannelCountOfEveryListing() throws {
        let emailOnly =
            (0..<3).map { n in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(n)\r\nEMAIL:p\(n)@example.org\r\nEND:VCARD\r\n"
            }.joined() + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fax\r\nTEL;TYPE=FAX:+1 415 555 0100\r\nEND:VCARD\r\n"
        let book = AddressBook(data: Data(emailOnly.utf8), fileName: "e.vcf")
        var config = Configuration()
        config.phoneRegion = "US"
        let messages = try ContactsDataSource(contacts: book.contacts, configuration: config)
        #expect(messages.rowCount == 0 && messages.otherChannelCount == 3)
        let compact = try CompactContactList(data: Data(emailOnly.utf8), fileName: "e.vcf", configuration: config)
        #expect(compact.rowCount == 0 && compact.otherChannelCount == 3)
        config.mode = .email
        let email = try ContactsDataSource(contacts: book.contacts, configuration: config)
        #expect(email.rowCount == 3 && email.otherChannelCount == 0)
        // A fax is no phone for text messages: a fax-only card in email mode is not counted either.
        let faxOnly =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fax\r\nTEL;TYPE=FAX:+1 415 555 0100\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cell\r\nTEL;TYPE=CELL:+1 415 555 0101\r\nEND:VCARD\r\n"
        let phones = try ContactsDataSource(
            contacts: AddressBook(data: Data(faxOnly.utf8), fileName: "p.vcf").contacts, configuration: config)
        #expect(phones.rowCount == 0 && phones.otherChannelCount == 1)
        // A saved list keeps the count.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formatter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("e.vcf")
        try Data(emailOnly.utf8).write(to: file)
        config.mode = .messages
        let source = try ContactsDataSource(contacts: book.contacts, configuration: config)
        let index = dir.appendingPathComponent("e.index").path
        try SavedList.write(source, to: index, book: try BookIdentity(path: file.path))
        let saved = try SavedList(
            path: index, book: try BookIdentity(path: file.path), options: source.savedListOptions)
        #expect(saved.rowCount == 0 && saved.otherChannelCount == 3)
    }

    /// `group:NAME` resolved against the book means what `--group NAME` means (a group card's members
    /// too), and a group the book does not have is an error.
    @Test func groupTermsAreTheBooksGroups() throws {
        let book = GroupFilterTests.book
        let rule = try ContactRule("group:work").resolved(in: book)
        #expect(book.contacts.filter(rule.accepts).map(\.id) == ["a1", "c3"])
        #expect(
            book.contacts.filter(try ContactRule("!group:Family").resolved(in: book).accepts).map(\.id) == ["a1", "c3"])
        #expect(throws: GroupError.unknownGroup(name: "Golf", known: ["Work", "Family", "Chess"])) {
            try ContactRule("has:email,group:Golf").resolved(in: book)
        }
    }
}
