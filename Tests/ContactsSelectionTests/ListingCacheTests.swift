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

    @Test("a saved list serves neither a group nor a rule over whole contacts")
    func servesWithoutGroupOrRule() {
        var config = Configuration()
        #expect(ListingCache.canServe(config, group: nil))
        #expect(!ListingCache.canServe(config, group: "Work"))
        config.contactEnabledValidation = { !$0.emails.isEmpty }
        #expect(!ListingCache.canServe(config, group: nil))
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

    /// A vdir folder of one card per file (as vdirsyncer writes), and a cache folder of its own.
    static func vdir(_ name: String, _ contacts: [Contact]) throws -> (folder: String, cache: ListingCache) {
        let dir = try Scratch.directory(name)
        let folder = dir.appendingPathComponent("family")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (n, contact) in contacts.enumerated() {
            try Data(VCardWriter.string(for: contact).utf8).write(to: folder.appendingPathComponent("card\(n).vcf"))
        }
        // Not contacts: the metadata file and a hidden temporary file.
        try Data("Family".utf8).write(to: folder.appendingPathComponent("displayname"))
        return (folder.path, ListingCache(directory: dir.appendingPathComponent("index").path))
    }

    static func ids(_ listing: any ContactListing) -> [String] {
        (0..<listing.rowCount).map { listing.listedRow($0).id }
    }

    @Test func aVdirFolderIsSavedAndAnyCardFileAddedChangedOrRemovedMakesItStale() throws {
        let contacts = Array(SelectionFixtures.book.prefix(4))
        let (folder, cache) = try Self.vdir("listing-cache-vdir", contacts)
        let config = Self.configuration()
        let sources = [ContactSource(path: folder)]
        #expect(sources == [.vdir(folder)])
        // Read as a compact list with the rows of the folder's whole book.
        let read = try cache.open(sources: sources, configuration: config)
        #expect(read.origin == .read && read.listing is CompactContactList)
        let whole = try ContactsDataSource(contacts: try VDir(path: folder).read().contacts, configuration: config)
        #expect(Self.ids(read.listing) == Self.ids(whole))
        // Saved; the next open maps it; the contacts of its rows are the folder's, by id.
        let (_, indexPath) = try cache.save(sources: sources, configuration: config)
        #expect(indexPath == cache.path(book: folder, configuration: config))
        #expect(indexPath.hasPrefix(cache.directory + "/family-"))
        let saved = try cache.open(sources: sources, configuration: config)
        #expect(saved.origin == .saved && Self.ids(saved.listing) == Self.ids(whole))
        let first = Self.ids(whole)[0]
        #expect(try saved.contacts.contacts(ids: [first])[first]?.id == first)
        // A file that is not a card changes nothing.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/.tmp-card.vcf"))
        #expect(try cache.open(sources: sources, configuration: config).origin == .saved)

        func expectStale(_ what: String, rows: Int) throws {
            let opened = try cache.open(sources: sources, configuration: config)
            #expect(opened.origin == .read, "\(what)")
            #expect(opened.notes.count == 1 && opened.notes[0].contains("rebuilding it"), "\(what)")
            #expect(opened.listing.rowCount == rows, "\(what)")
            // Saved again: current until the next change.
            #expect(try cache.open(sources: sources, configuration: config).origin == .saved, "\(what)")
        }
        // A card added.
        try Data(VCardWriter.string(for: SelectionFixtures.book[4]).utf8).write(
            to: URL(fileURLWithPath: folder + "/card9.vcf"))
        try expectStale("added", rows: 5)
        // A card changed in place, to the same size.
        let card = URL(fileURLWithPath: folder + "/card9.vcf")
        var text = try String(contentsOf: card, encoding: .utf8)
        let name = SelectionFixtures.book[4].givenName
        text = text.replacingOccurrences(of: name, with: String(name.reversed()))
        try Data(text.utf8).write(to: card)
        try expectStale("changed", rows: 5)
        // A card removed.
        try FileManager.default.removeItem(at: card)
        try expectStale("removed", rows: 4)
    }

    @Test func severalSourcesAreOneSavedListInTheirOrder() throws {
        let (folder, cache) = try Self.vdir("listing-cache-sources", Array(SelectionFixtures.book.prefix(3)))
        let file = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("work.vcf")
        try Data(Self.vcf(Array(SelectionFixtures.book.dropFirst(3))).utf8).write(to: file)
        let config = Self.configuration()
        let sources = [ContactSource(path: folder), ContactSource(path: file.path)]
        let merged = try SourcedAddressBook(reading: sources)
        let whole = try ContactsDataSource(contacts: merged.book.contacts, configuration: config)
        // One key per list of sources, in order.
        let path = cache.path(sources: sources, configuration: config)
        #expect(path != cache.path(sources: sources.reversed(), configuration: config))
        #expect(path != cache.path(sources: [sources[0]], configuration: config))
        #expect(path.hasPrefix(cache.directory + "/family+1-"))

        let (list, _) = try cache.save(sources: sources, configuration: config)
        #expect(Self.ids(list) == Self.ids(whole))
        let saved = try cache.open(sources: sources, configuration: config)
        #expect(saved.origin == .saved && Self.ids(saved.listing) == Self.ids(whole))
        // The other order is another book: not saved yet.
        #expect(try cache.open(sources: sources.reversed(), configuration: config).origin == .read)
        // Every contact of the merged book is found by its id.
        let found = try saved.contacts.contacts(ids: Self.ids(whole))
        #expect(Set(found.keys) == Set(Self.ids(whole)))

        // Either source changing makes it stale.
        try Data(Self.vcf(Array(SelectionFixtures.book.dropFirst(4))).utf8).write(to: file)
        let afterFile = try cache.open(sources: sources, configuration: config)
        #expect(afterFile.origin == .read && afterFile.notes.count == 1)
        #expect(afterFile.listing.rowCount == whole.rowCount - 1)
        try FileManager.default.removeItem(atPath: folder + "/card0.vcf")
        let afterFolder = try cache.open(sources: sources, configuration: config)
        #expect(afterFolder.origin == .read && afterFolder.listing.rowCount == whole.rowCount - 2)
        #expect(try cache.open(sources: sources, configuration: config).origin == .saved)
    }

    @Test func theIdentityOfSeveralFilesChangesWithAnyOfThem() throws {
        let (folder, _) = try Self.vdir("listing-cache-identity", Array(SelectionFixtures.book.prefix(2)))
        let before = try BookIdentity(sources: [.vdir(folder)])
        #expect(try BookIdentity(sources: [.vdir(folder)]) == before)
        // Renamed: the same bytes under another name are another book (file names are kept by sync).
        try FileManager.default.moveItem(atPath: folder + "/card1.vcf", toPath: folder + "/renamed.vcf")
        #expect(try BookIdentity(sources: [.vdir(folder)]) != before)
        // One file is that file's identity; standard input has none.
        let one = folder + "/card0.vcf"
        #expect(try BookIdentity(sources: [.file(one)]) == BookIdentity(path: one))
        #expect(throws: SavedListError.self) { try BookIdentity(sources: [.standardInput]) }
    }

    /// A saved list of one file resolves contacts by id from where their cards begin: the same contacts as
    /// the book read whole, a duplicate UID's renamed card and a group card among them.
    @Test func savedListResolvesContactsByID() throws {
        let (path, cache) = try Self.setUp("listing-cache-cards")
        var twin = SelectionFixtures.book[1]
        twin.familyName += "-Twin"
        twin.categories = ["Friends", "Work"]
        let group = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Team\r\nUID:team\r\nEND:VCARD\r\n"
        let text = group + Self.vcf(SelectionFixtures.book) + Self.vcf([twin])
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let config = Self.configuration()
        _ = try cache.save(book: path, configuration: config)
        let opened = try cache.open(book: path, configuration: config)
        #expect(opened.origin == .saved)
        let whole = AddressBook(data: Data(text.utf8), fileName: "book.vcf")
        let ids = (0..<opened.listing.rowCount).map { opened.listing.listedRow($0).id }
        #expect(ids.count >= SelectionFixtures.book.count - 2)
        let found = try opened.contacts.contacts(ids: ids + ["no-such-id"])
        #expect(found.count == ids.count)
        for id in ids { #expect(found[id] == whole.contact(id: id)) }
        #expect(try opened.contacts.contacts(ids: []).isEmpty)
        // The cards are read where the saved list places them: no book to fall back on is needed, except
        // for the renamed duplicate (its card reads as the first one's UID).
        let saved = try #require(opened.listing as? SavedList)
        let placed = ContactLookup.cards(
            of: saved, file: path, identity: try BookIdentity(path: path), fallback: .unavailable)
        let direct = ids.filter { !$0.hasSuffix("-2") }
        #expect(direct.count == ids.count - 1)
        let alone = try placed.contacts(ids: direct)
        for id in direct { #expect(alone[id] == whole.contact(id: id)) }
        #expect(throws: SelectionError.contactsUnavailable) { try placed.contacts(ids: ids) }
    }

    /// The book changes after its saved list was opened: the lookup sees the book as it is now (the cards
    /// read again), not what the saved places point at.
    @Test func staleSavedListFallsBackToTheBook() throws {
        let (path, cache) = try Self.setUp("listing-cache-cards-stale")
        let config = Self.configuration()
        _ = try cache.save(book: path, configuration: config)
        let opened = try cache.open(book: path, configuration: config)
        #expect(opened.origin == .saved)
        let ids = (0..<opened.listing.rowCount).map { opened.listing.listedRow($0).id }
        // Rewritten: the cards reversed (every place moves) and one contact renamed.
        var changed = Array(SelectionFixtures.book.reversed())
        let renamed = try #require(changed.firstIndex { ids.contains($0.id) })
        changed[renamed].givenName = "Renamed"
        let text = Self.vcf(changed)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let now = AddressBook(data: Data(text.utf8), fileName: "book.vcf")
        let found = try opened.contacts.contacts(ids: ids)
        for id in ids { #expect(found[id] == now.contact(id: id)) }
        #expect(found[changed[renamed].id]?.givenName == "Renamed")
    }
}
