import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// "Open a book as a listing" as one library call: the saved list when current, else the book read (and a
/// stale saved list written again); one options key per configuration; the cache folder of the environment.
@Suite struct ListingCacheTests {
    static func configuration(region: String = "US") -> Configuration {
        var config = Configuration()
        config.locale = "en"
        config.mode = .both
        config.phoneRegion = region
        return config
    }

    /// A book file and a cache folder of their own.
    static func setUp(_ name: String) throws -> (book: String, cache: ListingCache) {
        let dir = try Scratch.directory(name)
        let file = dir.appendingPathComponent("book.vcf")
        try Data(vcf(SelectionFixtures.book).utf8).write(to: file)
        return (file.path, ListingCache(directory: dir.appendingPathComponent("index").path))
    }

    static func vcf(_ contacts: [Contact]) -> String { contacts.map { VCardWriter.string(for: $0) }.joined() }

    @Test func savedWhenCurrentReadAndRebuiltWhenStale() throws {
        let (path, cache) = try Self.setUp("listing-cache")
        let config = Self.configuration()
        // No saved list: the book is read, nothing is saved.
        let first = try cache.open(book: path, configuration: config)
        #expect(first.origin == .read && first.notes.isEmpty)
        #expect(first.listing is CompactContactList)
        #expect(!FileManager.default.fileExists(atPath: cache.path(book: path, configuration: config)))

        // Saved: the next open maps it, with the same rows.
        let (list, indexPath) = try cache.save(book: path, configuration: config)
        #expect(indexPath == cache.path(book: path, configuration: config))
        let second = try cache.open(book: path, configuration: config)
        #expect(second.origin == .saved && second.listing is SavedList)
        let ids = { (l: any ContactListing) in (0..<l.rowCount).map { l.listedRow($0).id } }
        #expect(ids(second.listing) == ids(list))

        // The book changes: the saved list is stale, noted, the book read and the list saved again.
        try Data(Self.vcf(Array(SelectionFixtures.book.prefix(3))).utf8).write(
            to: URL(fileURLWithPath: path))
        let third = try cache.open(book: path, configuration: config)
        #expect(third.origin == .read)
        #expect(third.notes.count == 1 && third.notes[0].contains("rebuilding it"))
        #expect(third.listing.rowCount == 3)
        let fourth = try cache.open(book: path, configuration: config)
        #expect(fourth.origin == .saved && fourth.listing.rowCount == 3)
    }

    @Test func oneKeyPerConfiguration() throws {
        let (path, cache) = try Self.setUp("listing-cache-key")
        let us = Self.configuration(region: "US")
        let gb = Self.configuration(region: "GB")
        #expect(cache.path(book: path, configuration: us) != cache.path(book: path, configuration: gb))
        #expect(cache.path(book: path, configuration: us) == cache.path(book: path, configuration: us))
        #expect(cache.path(book: path, configuration: us).hasPrefix(cache.directory + "/book.vcf-"))
        // A list saved for one region is never read for another.
        _ = try cache.save(book: path, configuration: us)
        #expect(try cache.open(book: path, configuration: gb).origin == .read)
        #expect(try cache.open(book: path, configuration: us).origin == .saved)
    }

    @Test func theEnvironmentNamesTheFolder() {
        #expect(ListingCache.standard(environment: ["CONTACTS_INDEX_DIR": "/x/i", "HOME": "/h"]).directory == "/x/i")
        #expect(
            ListingCache.standard(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).directory == "/c/contacts/index")
        #expect(ListingCache.standard(environment: ["HOME": "/h"]).directory == "/h/.cache/contacts/index")
        #expect(
            ListingCache.standard(environment: ["CONTACTS_INDEX_DIR": "", "XDG_CACHE_HOME": "", "HOME": "/h"]).directory
                == "/h/.cache/contacts/index")
    }
}
