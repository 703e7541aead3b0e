import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// What a mail client completes from: every address of every contact the list's search finds, the row's own
/// (preferred) address first, contacts in list order.
@Suite struct AddressMatchTests {
    @Test func everyAddressOfEveryContactFound() throws {
        var ann = person("ann", given: "Ann", family: "Lee", org: "Acme", emails: ["ann@home.example"])
        ann.emails.append(LabeledValue(label: .work, value: "ann@acme.example", preference: 1))
        var config = Configuration()
        config.locale = "en"
        config.mode = .email
        let source = try ContactsDataSource(contacts: book + [ann], configuration: config)
        #expect(
            source.addressMatches("ann").map(\.email) == ["ann@acme.example", "ann@home.example"])
        #expect(source.addressMatches("ann").map(\.label) == ["work", "home"])
        #expect(source.addressMatches("ann").allSatisfy { $0.organization == "Acme" && $0.name == "Ann Lee" })
        #expect(
            source.addressMatches("f b", keywords: true).map(\.email) == ["bruno@example.org", "felipe@example.com"])
        // Contacts without an address are not listed in email mode, so never matched.
        #expect(source.addressMatches("zhang").isEmpty)
        #expect(source.addressMatches("nobody-at-all").isEmpty)
    }

    /// Andrea's name starts with "and", a word of Zoe's does, Cy's address does, Sandy has it inside a word.
    static let ranked = [
        person("sandy", given: "Sandy", family: "Beach", org: "", emails: ["sandy@example.org"]),
        person("cy", given: "Cy", family: "Ray", org: "", emails: ["andy@example.org"]),
        person("zoe", given: "Zoe", family: "Anders", org: "", emails: ["zoe@example.org"]),
        person("andrea", given: "Andrea", family: "Zulu", org: "", emails: ["az@example.org"]),
    ]

    @Test func rankPutsNamePrefixesBeforeWordPrefixesBeforeAddressesBeforeTheRest() {
        #expect(AddressMatch.rank("and", name: "Andrea Zulu", emails: []) == .namePrefix)
        #expect(AddressMatch.rank("and", name: "Zoe Anders", emails: []) == .wordPrefix)
        #expect(AddressMatch.rank("anders z", name: "Zoe Anders", emails: []) == .wordPrefix)
        #expect(AddressMatch.rank("and", name: "Cy Ray", emails: ["ANDY@example.org"]) == .emailPrefix)
        #expect(AddressMatch.rank("and", name: "Sandy Beach", emails: ["sandy@example.org"]) == .elsewhere)
        #expect(AddressMatch.rank("hel", name: "Hélène Dubois", emails: []) == .namePrefix)
    }

    @Test func matchesAreRankedFromASavedIndexAsFromTheBook() throws {
        var config = Configuration()
        config.locale = "en"
        config.mode = .email
        let source = try ContactsDataSource(contacts: Self.ranked, configuration: config)
        let expected = ["az@example.org", "zoe@example.org", "andy@example.org", "sandy@example.org"]
        #expect(source.addressMatches("and").map(\.email) == expected)

        let dir = try Scratch.directory("address-match")
        let file = dir.appendingPathComponent("book.vcf")
        try Data(Self.ranked.map { VCardWriter.string(for: $0) }.joined().utf8).write(to: file)
        let cache = ListingCache(directory: dir.appendingPathComponent("index").path)
        _ = try cache.save(book: file.path, configuration: config)
        let opened = try cache.open(book: file.path, configuration: config)
        #expect(opened.origin == .saved)
        let matches = try AddressMatch.matches("and", in: opened.listing, contacts: opened.contacts)
        #expect(matches.map(\.email) == expected)
        #expect(matches.first?.name == "Andrea Zulu")
    }
}
