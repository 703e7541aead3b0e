import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// The same selection assertions over all three listings of one book — contacts in memory, a compact list
/// read from the vCard file, and that list saved and mapped back: the same ids in list order, the same
/// disabled rows, the same events, the same chosen values. Contacts are looked up by id only where the
/// whole card is needed.
@Suite struct ListingConformanceTests {
    static let identity = BookIdentity(size: 1, modified: 2, hash: 3)

    static func configuration(_ mode: SelectionMode) -> Configuration {
        var config = Configuration()
        config.locale = "en"
        config.mode = mode
        config.phoneRegion = "US"
        return config
    }

    /// The three listings of `book` with `mode`, named, each with a lookup of its contacts. Bruno is disabled
    /// in each: by `contactEnabledValidation` where the listing reads contacts, by the selection's row rule
    /// over the saved list (which cannot keep a closure).
    static func listings(_ mode: SelectionMode) throws -> [(String, SelectionController)] {
        let plain = configuration(mode)
        var config = plain
        config.contactEnabledValidation = { $0.id != "bruno" }
        let source = try ContactsDataSource(contacts: book, configuration: config)
        let vcf = Data(book.map { VCardWriter.string(for: $0) }.joined().utf8)
        let compact = try CompactContactList(data: vcf, fileName: "book.vcf", configuration: config)
        let path = Scratch.path("conformance", suffix: ".index")
        try SavedList.write(
            try CompactContactList(data: vcf, fileName: "book.vcf", configuration: plain), to: path.path,
            book: identity)
        let saved = try SavedList(
            path: path.path, book: identity, options: ContactsDataSource.savedListOptions(plain))
        let lookup = ContactLookup.contacts(AddressBook(data: vcf, fileName: "book.vcf").contacts)
        return [
            ("data source", SelectionController(dataSource: source)),
            ("compact", SelectionController(listing: compact, configuration: config, contacts: lookup)),
            (
                "saved",
                SelectionController(
                    listing: saved, configuration: plain, contacts: lookup, enabled: { $0.id != "bruno" })
            ),
        ]
    }

    @Test(arguments: [SelectionMode.messages, .email, .both])
    func sameSelectionOverEveryListing(mode: SelectionMode) throws {
        let all = try Self.listings(mode)
        let reference = all[0].1
        let ids = (0..<reference.listing.rowCount).map { reference.listing.listedRow($0).id }
        #expect(!ids.isEmpty)
        for (name, selection) in all {
            let listing = selection.listing
            // Ids in list order, each found again by its id.
            #expect((0..<listing.rowCount).map { listing.listedRow($0).id } == ids, "\(name)")
            for (n, id) in ids.enumerated() { #expect(listing.rowNumber(id: id) == n, "\(name) \(id)") }
            #expect(listing.rowNumber(id: "ghost") == nil, "\(name)")
            #expect(listing.sections == reference.listing.sections, "\(name)")

            // The enabled rule.
            if let bruno = listing.rowNumber(id: "bruno") {
                #expect(!selection.isEnabled(listing.listedRow(bruno)), "\(name)")
                #expect(throws: SelectionError.disabled(id: "bruno")) { try selection.select(id: "bruno") }
            }
            #expect(throws: SelectionError.unknownContact(id: "ghost")) { try selection.select(id: "ghost") }
            #expect(throws: SelectionError.unknownRow(listing.rowCount)) { try selection.select(row: listing.rowCount) }

            // Events, in the order things happened; selection kept across searches, list order out.
            var events: [String] = []
            selection.observe { event in
                switch event {
                case .didSelect(let row): events.append("+" + row.id)
                case .didRemove(let row): events.append("-" + row.id)
                }
            }
            let picked = ids.filter { ["yamada", "zhang", "helene", "emailonly"].contains($0) }
            for id in picked.reversed() { try selection.select(id: id) }
            selection.search("zzzz-nobody")
            #expect(selection.result.count == 0, "\(name)")
            #expect(selection.selectedRows.map(\.id) == picked, "\(name): list order, kept across searches")
            #expect(try selection.toggle(id: picked[0]) == false, "\(name)")
            selection.search("")
            selection.selectAll()
            let enabled = ids.filter { $0 != "bruno" }
            #expect(selection.selectedRows.map(\.id) == enabled, "\(name)")
            #expect(try selection.selectedContacts().map(\.id) == enabled, "\(name): looked up by id")
            selection.removeAll()
            #expect(selection.selectedCount == 0, "\(name)")
            let expected =
                picked.reversed().map { "+" + $0 } + ["-" + picked[0]]
                + enabled.filter { !picked.dropFirst().contains($0) }.map { "+" + $0 } + enabled.map { "-" + $0 }
            #expect(events == expected, "\(name)")

            // The chosen value (the contact looked up by id); the default is the row's own.
            if mode.contains(.email), listing.rowNumber(id: "felipe") != nil {
                let row = listing.listedRow(listing.rowNumber(id: "felipe")!)
                let defaultValue = selection.value(for: "felipe")
                #expect(defaultValue?.value == row.value, "\(name)")
                #expect(try selection.availableValues(id: "felipe").map(\.value).contains("felipe@example.com"))
                try selection.choose(value: "felipe@example.com", for: "felipe")
                #expect(selection.value(for: "felipe")?.channel == .email, "\(name)")
                #expect(selection.value(for: "felipe")?.value == "felipe@example.com", "\(name)")
                #expect(throws: SelectionError.invalidValue(id: "felipe", value: "nobody@example.com")) {
                    try selection.choose(value: "nobody@example.com", for: "felipe")
                }
            }
        }
    }

    @Test func withoutALookupOnlyTheCardNeedsIt() throws {
        let config = Self.configuration(.messages)
        let vcf = Data(book.map { VCardWriter.string(for: $0) }.joined().utf8)
        let compact = try CompactContactList(data: vcf, fileName: "book.vcf", configuration: config)
        let selection = SelectionController(listing: compact, configuration: config, contacts: .unavailable)
        try selection.select(id: "zhang")
        #expect(selection.selectedRows.map(\.id) == ["zhang"])
        #expect(selection.value(for: "zhang")?.value == "+861055550100")
        #expect(throws: SelectionError.contactsUnavailable) { try selection.selectedContacts() }
        #expect(throws: SelectionError.contactsUnavailable) { try selection.availableValues(id: "zhang") }
    }
}
