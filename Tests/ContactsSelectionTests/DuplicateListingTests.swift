import ContactsCore
import SelectionFixtures
import Testing

@testable import ContactsSelection

/// `DuplicateFinder.result(in:contacts:region:title:)`: a listing's duplicates as a sectioned result.
@Suite struct DuplicateListingTests {
    @Test func groupsBecomeSectionsOfTheListingsRows() throws {
        var contacts = book
        contacts.append(person("felipe2", given: "Felipe", family: "Baytelman", emails: ["FELIPE@example.com"]))
        contacts.append(person("bobby", given: "Bobby", family: "Tables", phones: ["+1 415 555 0177"]))
        let selection = try SelectionController(contacts: contacts) { config in
            config.locale = "en"
            config.phoneRegion = "US"
            config.mode = .both
        }
        let result = try DuplicateFinder.result(
            in: selection.listing, contacts: selection.contacts, region: "US",
            title: { "\($0.reasons[0].description) \(Int(($0.score * 100).rounded()))" })
        let groups = result.sections.map { section in
            (section.title, result.rowNumbers[section.range].map { selection.listing.listedRow(Int($0)).id })
        }
        #expect(groups.count == 2, "\(groups)")
        #expect(groups[0].0 == "same email felipe@example.com 99")
        #expect(Set(groups[0].1) == ["felipe", "felipe2"])
        #expect(groups[1].0.hasPrefix("nickname bobby tables"))
        #expect(Set(groups[1].1) == ["nick", "bobby"])
        // Each section's rows are in list order.
        for section in result.sections {
            let rows = result.rowNumbers[section.range]
            #expect(Array(rows) == rows.sorted())
        }
    }
}
