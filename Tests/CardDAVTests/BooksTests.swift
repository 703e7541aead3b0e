import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// Every address book of an account, each in its folder (issue 29, item 10).
@Suite(.serialized) struct BooksTests {
    static func makeBook(_ server: DAVServer, _ name: String) throws {
        let made = try server.curl(
            "MKCOL", server.base + "/\(server.user)/\(name)/",
            body: """
                <?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><set><prop>\
                <resourcetype><collection/><C:addressbook/></resourcetype><displayname>\(name.capitalized)</displayname>\
                </prop></set></mkcol>
                """)
        #expect(made.status == 201, "MKCOL \(name): \(made.status)")
    }

    @Test func everyBookIsSyncedIntoItsFolderAndGoneOnesAreKeptUnlessPruned() throws {
        let server = try DAVServer(.radicale)
        try Self.makeBook(server, "work")
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        let work = server.base + "/ada/work/"
        #expect(
            try server.curl(
                "PUT", work + "bob.vcf", body: card("u-bob", "Bob", "Stone"), headers: ["Content-Type: text/vcard"]
            ).status == 201)
        let parent = Scratch.path("books")
        let client = try SyncTests.client(server)
        let first = try VDirSync.syncAll(client: client, into: parent.path)
        #expect(first.books.map(\.name) == ["family", "work"])
        #expect(first.books.allSatisfy { $0.summary?.pulled == 1 && $0.error == nil })
        #expect(try SyncTests.files(parent.appendingPathComponent("work")) == ["bob.vcf"])
        #expect(VDir(path: parent.appendingPathComponent("work").path).displayName == "Work")
        // A new book is picked up; a removed one is kept here and reported, then pruned on request.
        try Self.makeBook(server, "club")
        #expect(try server.curl("DELETE", work).status / 100 == 2)
        let second = try VDirSync.syncAll(client: try SyncTests.client(server), into: parent.path)
        #expect(second.books.map(\.name) == ["club", "family"])
        #expect(second.gone == [parent.appendingPathComponent("work").path])
        #expect(FileManager.default.fileExists(atPath: parent.appendingPathComponent("work/bob.vcf").path))
        let pruned = try VDirSync.syncAll(client: try SyncTests.client(server), into: parent.path, prune: true)
        #expect(pruned.pruned == [parent.appendingPathComponent("work").path] && pruned.gone.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("work").path))
        #expect(pruned.books.allSatisfy { $0.summary?.pulled == 0 })
    }
}
