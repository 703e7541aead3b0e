import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// The phone region is its own input: set by `phoneRegion` (or the package's rule), never by the display
/// language; numbers valid only in the contact's address country use that country; numbers no region reads
/// are shown as written and never texted; searches read a typed number in the region.
@Suite struct PhoneRegionTests {
    static var contacts: [Contact] { phoneRegionBook }

    static var vcf: String { contacts.map { VCardWriter.string(for: $0) }.joined() }

    func configuration(locale: String = "en", region: String?) -> Configuration {
        var config = Configuration()
        config.locale = locale
        config.phoneRegion = region
        config.mode = .messages
        return config
    }

    func source(locale: String = "en", region: String?) throws -> ContactsDataSource {
        try ContactsDataSource(contacts: Self.contacts, configuration: configuration(locale: locale, region: region))
    }

    @Test func theRegionNotTheLanguageReadsNationalNumbers() throws {
        // "ZZ": no region at all (as with LANG=C and a locale without a region subtag).
        for locale in ["ja", "de", "de-u-co-phonebk", "en"] {
            let none = try source(locale: locale, region: "ZZ")
            #expect(none.row(id: "noah")?.value == "(206) 555-0101", "\(locale)")
            #expect(none.phoneRegion == nil)
        }
        #expect(try source(locale: "ja", region: "US").row(id: "noah")?.value == "+12065550101")
        #expect(try source(locale: "ja", region: "US").phoneRegion == "US")
        #expect(try source(locale: "en", region: "de").row(id: "noah")?.value == "+492065550101")
        // International numbers are kept whatever the region.
        #expect(try source(locale: "ja", region: "ZZ").row(id: "aerin")?.value == "+442079460140")
    }

    @Test func theLocalesOwnRegionSubtagIsUsed() throws {
        // The environment may name a region too, but the locale's own subtag comes first.
        let source = try source(locale: "en-US", region: nil)
        if ProcessInfo.processInfo.environment["CONTACTS_REGION"] == nil {
            #expect(source.row(id: "noah")?.value == "+12065550101")
        }
    }

    @Test func aNumberValidOnlyInTheAddressCountryUsesIt() throws {
        for region in ["US", "ZZ", "GB"] {
            #expect(try source(region: region).row(id: "hans")?.value == "+49301234567", "\(region)")
            let list = try CompactContactList(
                data: Data(Self.vcf.utf8), fileName: "b.vcf",
                configuration: configuration(region: region))
            let values = (0..<list.rowCount).map { list.listedRow($0) }
            #expect(values.first { $0.displayName == "Hans Berg" }?.value == "+49301234567", "\(region)")
        }
    }

    @Test func typedNumbersAreFoundInEveryListing() throws {
        let text = Self.vcf
        for (query, region, expected) in [
            ("020 7946 0140", "GB", "aerin"), ("01 99 00 03 88", "FR", "anais"), ("0033 1 99 00 03 88", "US", "anais"),
            ("0033 1 99 00 03 88", "FR", "anais"), ("0044 20 7946 0140", "ZZ", "aerin"),
        ] {
            let source = try source(region: region)
            let compact = try CompactContactList(
                data: Data(text.utf8), fileName: "b.vcf", configuration: configuration(region: region))
            let path = Scratch.path("phones", suffix: ".index")
            let identity = BookIdentity(size: 1, modified: 2, hash: 3)
            try SavedList.write(source, to: path.path, book: identity)
            let saved = try SavedList(path: path.path, book: identity, options: source.savedListOptions)
            for listing in [source as any ContactListing, compact, saved] {
                for keywords in [false, true] {
                    let hits = listing.search(query, keywords: keywords, refining: nil)
                    #expect(hits.count == 1, "\(query) \(region) \(type(of: listing)) \(keywords)")
                    let row = hits.rowNumbers.first.map { listing.listedRow(Int($0)) }
                    #expect(
                        row?.value == source.row(id: expected)?.value,
                        "\(query) \(region) \(type(of: listing)) \(keywords)")
                }
            }
        }
        // Not read as a number of another region: a GB national number in the US finds nobody.
        #expect(try source(region: "US").search("020 7946 0140").count == 0)
    }

    @Test func typingANumberDigitByDigitRefinesToTheSameAnswer() throws {
        let source = try source(region: "GB")
        var previous: SearchResult?
        let typed = "020 7946 0140"
        for end in 1...typed.count {
            let query = String(typed.prefix(end))
            let refined = source.search(query, refining: previous)
            #expect(refined.rowNumbers == source.search(query).rowNumbers, "\(query)")
            previous = refined
        }
        #expect(previous?.count == 1)
    }

    @Test func aSavedListBelongsToItsRegion() throws {
        let us = try source(region: "US")
        let gb = try source(region: "GB")
        #expect(us.savedListOptions != gb.savedListOptions)
        let path = Scratch.path("phones-region", suffix: ".index")
        let identity = BookIdentity(size: 1, modified: 2, hash: 3)
        try SavedList.write(us, to: path.path, book: identity)
        #expect(throws: SavedListError.self) {
            try SavedList(path: path.path, book: identity, options: gb.savedListOptions)
        }
    }
}
