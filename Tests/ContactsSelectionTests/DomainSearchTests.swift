import ContactsCore
import SelectionFixtures
import Testing

@testable import ContactsSelection

@Suite struct DomainSearchTests {
    @Test func aDomainQueryFindsEveryAddressAtIt() throws {
        var config = Configuration()
        config.mode = .email
        config.locale = "en"
        let contacts = [
            person("a", given: "Anna", family: "Berg", emails: ["anna@example.net"]),
            person("b", given: "Bo", family: "Lind", emails: ["bo@Example.NET"]),
            person("c", emails: ["someone@example.net"]),  // no name: listed under its address
            person("d", given: "Dan", family: "Ek", emails: ["dan@example.org"]),
            person("e", given: "Example", family: "Net"),  // a name, no address: not in an email list
            person("f", given: "Fia", family: "Holm", emails: ["fia@sub.example.net"]),
        ]
        let source = try ContactsDataSource(contacts: contacts, configuration: config)
        func ids(_ r: SearchResult) -> Set<String> { Set(r.rowNumbers.map { source.rows[Int($0)].id }) }
        #expect(ids(source.search("example.net")) == ["a", "b", "c", "f"])
        #expect(ids(source.search("EXAMPLE.NET")) == ["a", "b", "c", "f"])
        #expect(ids(source.search("@example.net")) == ["a", "b", "c"])
        #expect(ids(source.search("example.org")) == ["d"])
        // Typed one key at a time, each result refining the previous one.
        var result: SearchResult?
        for end in 1..."example.net".count {
            result = source.search(String("example.net".prefix(end)), refining: result)
        }
        #expect(result.map(ids) == ["a", "b", "c", "f"])
    }

    @Test func sampleAddressBookDomainSearch() throws {
        var config = Configuration()
        config.mode = .email
        config.locale = "en"
        let source = try ContactsDataSource(contacts: try AddressBook.sample().contacts, configuration: config)
        let atDomain = source.search("@example.net").count
        #expect(atDomain == 85)
        #expect(source.search("example.net").count == atDomain)
    }
}
