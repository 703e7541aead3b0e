import ContactsCore
import SelectionFixtures
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
}
