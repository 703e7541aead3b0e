import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// Any size, against real servers (issue 29, items 1 and 2).
@Suite(.serialized) struct StreamingTests {
    /// An incremental sync after 220 cards got 60 KB photos (13 MB of cards: one multiget of 200 was over
    /// libxml2's 10 MB) is read in multigets of at most 4 MiB, as the listing's sizes say.
    @Test func anIncrementalSyncOfLargeCardsIsBatchedByBytes() throws {
        let server = try DAVServer(.radicale)
        let dir = Scratch.path("large-incremental")
        _ = try SyncTests.sync(server, dir)
        let photo = String(repeating: "QUJD", count: 15_000)
        for k in 0..<220 {
            try server.put(
                "p\(k).vcf", card("u-p\(k)", "Person", "\(k)", extra: ["PHOTO;ENCODING=b;TYPE=JPEG:\(photo)"]))
        }
        let summary = try SyncTests.sync(server, dir)
        #expect(summary.pulled == 220 && summary.unreadable.isEmpty, "\(summary)")
        // The sync-collection, then at least four multigets (13 MB in batches of at most 4 MiB).
        #expect(summary.requests >= 5, "\(summary.requests) requests")
        let text = try SyncTests.text(dir.appendingPathComponent("p219.vcf"))
        #expect(text.contains(String(photo.prefix(1000))))
        #expect(try SyncTests.sync(server, dir).pulled == 0)
    }

    /// Item 2: Xandikos keeps a card PUT without the `.vcf` extension as an octet-stream and gives no
    /// address-data for it: it is fetched with GET, not skipped.
    @Test func aMemberWithoutAddressDataIsFetchedWithGet() throws {
        let server = try DAVServer(.xandikos)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob", card("u-bob", "Bob", "Stone"))
        let dir = Scratch.path("octet-stream")
        let summary = try SyncTests.sync(server, dir)
        #expect(summary.pulled == 2 && summary.unreadable.isEmpty, "\(summary)")
        let book = try VDir(path: dir.path).read()
        #expect(Set(book.contacts.map(\.id)) == ["u-ada", "u-bob"])
    }

    /// A first sync is one sync-collection with the cards on a server that gives them there (Radicale),
    /// else that listing and one query (Xandikos); the collection's PROPFIND comes first on both (it gives
    /// the display name and colour too); a later sync asks them again, then the sync-collection.
    @Test(arguments: DAVServer.Kind.allCases) func aFirstSyncIsOneOrTwoReports(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        for name in ["ada", "bob", "cleo"] { try server.put("\(name).vcf", card("u-\(name)", name, "First")) }
        let dir = Scratch.path("first-\(kind)")
        let summary = try SyncTests.sync(server, dir, url: server.collection)
        #expect(summary.pulled == 3)
        #expect(summary.requests == (kind == .xandikos ? 3 : 2), "\(summary.requests) requests")
        #expect(try SyncTests.sync(server, dir, url: server.collection).requests == 2)
    }
}
