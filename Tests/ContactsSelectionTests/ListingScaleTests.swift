import ContactsCore
import Foundation
import SelectionFixtures
import Testing

@testable import ContactsSelection

/// A plain listing answers without the search index; its answer must be the index's own, and rows
/// must carry their contact (shared with the list, not copied) as loaded.
@Suite struct ListingScaleTests {
    @Test func emptyQueryWithoutTheIndexIsTheIndexAnswer() throws {
        for locale in ["en", "ja", "sv"] {
            for keywords in [false, true] {
                var config = Configuration()
                config.locale = locale
                config.mode = .both
                let source = try ContactsDataSource(contacts: book, configuration: config)
                let fast = source.search("", keywords: keywords)
                let indexed = source.index.search("", keywords: keywords, previous: nil)
                #expect(fast.rowNumbers == indexed.rowNumbers)
                #expect(fast.sections == indexed.sections)
                #expect(fast.parsed == indexed.parsed)
                #expect(fast.count == source.rows.count)
                // Refining the listing gives what a fresh search gives.
                let refined = source.search("an", keywords: keywords, refining: fast)
                #expect(refined.rowNumbers == source.search("an", keywords: keywords).rowNumbers)
                #expect(refined.count > 0)
            }
        }
    }

    @Test func rowsCarryTheirContacts() throws {
        let source = try ContactsDataSource(contacts: book, configuration: Configuration())
        let byID = Dictionary(book.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(!source.rows.isEmpty)
        for row in source.rows {
            #expect(row.contact == byID[row.id])
            #expect(row.contact.id == row.id)
        }
    }
}
