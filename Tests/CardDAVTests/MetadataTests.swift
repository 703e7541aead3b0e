import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// The address book's `displayname` and `color` synced both ways with the folder's metadata files
/// (issue 29, item 10), on real servers.
@Suite(.serialized) struct MetadataTests {
    /// Sets the collection's display name and colour from outside (curl), as another client would.
    static func setOnServer(_ server: DAVServer, displayName: String? = nil, color: String? = nil) throws {
        var props = ""
        if let displayName { props += "<displayname>\(displayName)</displayname>" }
        if let color { props += "<INF:addressbook-color>\(color)</INF:addressbook-color>" }
        let r = try server.curl(
            "PROPPATCH", server.collection,
            body: """
                <?xml version="1.0"?><propertyupdate xmlns="DAV:" xmlns:INF="http://inf-it.com/ns/ab/">\
                <set><prop>\(props)</prop></set></propertyupdate>
                """)
        #expect(r.status == 207 && !r.body.contains(" 403") && !r.body.contains(" 404"), "\(r.status) \(r.body)")
    }

    /// The collection's display name and colour as the server gives them to another client.
    static func onServer(_ server: DAVServer) throws -> CollectionProperties? {
        try SyncTests.client(server).properties(of: server.collection)
    }

    static func write(_ dir: URL, _ name: String, _ value: String) throws {
        try Scratch.write(value + "\n", to: dir.appendingPathComponent(name))
    }

    @Test(arguments: DAVServer.Kind.allCases) func displayNameAndColorSyncBothWays(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try Self.setOnServer(server, displayName: "Family", color: "#336699")
        let dir = Scratch.path("meta-\(kind)")
        let url = server.collection
        let first = try SyncTests.sync(server, dir, url: url)
        let vdir = VDir(path: dir.path)
        #expect(vdir.displayName == "Family" && vdir.color == "#336699")
        #expect(first.metadataReceived == ["displayname", "color"] && first.pulled == 1)

        // Nothing changed: the collection's PROPFIND and the sync-collection.
        let idle = try SyncTests.sync(server, dir, url: url)
        #expect(idle.requests == 2 && idle.metadataReceived.isEmpty && idle.metadataSent.isEmpty, "\(idle)")

        // A local change is sent with PROPPATCH.
        try Self.write(dir, "displayname", "Famille")
        try Self.write(dir, "color", "#aa0000")
        let pushed = try SyncTests.sync(server, dir, url: url)
        #expect(pushed.metadataSent == ["displayname", "color"] && pushed.isClean, "\(pushed)")
        #expect(try Self.onServer(server)?.displayName == "Famille")
        #expect(try Self.onServer(server)?.color == "#aa0000")
        #expect(try SyncTests.sync(server, dir, url: url).metadataSent.isEmpty)

        // A server change is pulled.
        try Self.setOnServer(server, color: "#00ff00")
        let pulled = try SyncTests.sync(server, dir, url: url)
        #expect(pulled.metadataReceived == ["color"] && vdir.color == "#00ff00" && vdir.displayName == "Famille")

        // Changed on both sides: the server's value is kept here, yours is named.
        try Self.setOnServer(server, displayName: "Theirs")
        try Self.write(dir, "displayname", "Mine")
        let both = try SyncTests.sync(server, dir, url: url)
        #expect(both.metadataConflicts == [MetadataConflict(name: "displayname", mine: "Mine", theirs: "Theirs")])
        #expect(!both.isClean && both.report.contains { $0.contains("yours was 'Mine'") }, "\(both.report)")
        #expect(vdir.displayName == "Theirs")
        #expect(try Self.onServer(server)?.displayName == "Theirs")
        let after = try SyncTests.sync(server, dir, url: url)
        #expect(after.isClean && after.metadataSent.isEmpty && after.metadataReceived.isEmpty)

        // Read-only: a local change stays here, unsent; a missing file is written again.
        try Self.write(dir, "displayname", "Local")
        let sync = VDirSync(client: try SyncTests.client(server, url: url), folder: dir.path)
        sync.readOnly = true
        #expect(try sync.run(bookName: nil).notSent == 1)
        #expect(try Self.onServer(server)?.displayName == "Theirs")
        #expect(vdir.displayName == "Local")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("color"))
        let restored = try SyncTests.sync(server, dir, url: url)
        #expect(vdir.color == "#00ff00" && restored.metadataSent == ["displayname"])
    }
}
