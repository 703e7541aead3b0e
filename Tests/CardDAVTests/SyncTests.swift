import ContactsCore
import CurlTransfer
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// Two-way sync against real servers started on 127.0.0.1 (issue 20, items 2-4 and 8).
@Suite(.serialized) struct SyncTests {
    static func client(_ server: DAVServer, url: String? = nil, password: String? = nil) throws -> CardDAVClient {
        try CardDAVClient(
            account: CardDAVAccount(
                url: url ?? server.base + "/", user: server.kind.needsLogin ? server.user : nil,
                password: password ?? (server.kind.needsLogin ? server.password : nil)))
    }

    static func sync(_ server: DAVServer, _ dir: URL, url: String? = nil) throws -> SyncSummary {
        try VDirSync(client: try client(server, url: url), folder: dir.path).run(bookName: nil)
    }

    static func files(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// First sync from the server root (discovery), then pulls of edits and deletes.
    @Test(arguments: DAVServer.Kind.allCases) func firstSyncAndPulls(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@example.org"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone", extra: ["X-CUSTOM;X-PARAM=1:kept"]))
        let dir = Scratch.path("sync-\(kind)")
        let first = try Self.sync(server, dir)
        #expect(first.pulled == 2)
        #expect(first.conflicts.isEmpty)
        #expect(try Self.files(dir) == ["ada.vcf", "bob.vcf"])
        let book = try VDir(path: dir.path).read()
        #expect(Set(book.contacts.map(\.id)) == ["u-ada", "u-bob"])
        #expect(try Self.text(dir.appendingPathComponent("bob.vcf")).contains("X-CUSTOM;X-PARAM=1:kept"))
        if kind == .radicale { #expect(VDir(path: dir.path).displayName == "Family") }

        // Nothing changed: the collection's PROPFIND (display name, colour) and the sync-collection report.
        let idle = try Self.sync(server, dir)
        #expect(idle.pulled == 0 && idle.pushed == 0)
        #expect(idle.requests <= 2, "\(idle.requests) requests")

        try server.put("ada.vcf", card("u-ada", "Ada", "Byron", email: "ada@example.org"))
        try server.delete("bob.vcf")
        let second = try Self.sync(server, dir)
        #expect(second.pulled == 1)
        #expect(second.removedLocally == 1)
        #expect(try Self.files(dir) == ["ada.vcf"])
        #expect(try Self.text(dir.appendingPathComponent("ada.vcf")).contains("FN:Ada Byron"))
    }

    /// Local adds, edits and deletes (by the editor and by hand) reach the server.
    @Test(arguments: DAVServer.Kind.allCases) func pushOfAddsEditsAndDeletes(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        let dir = Scratch.path("push-\(kind)")
        _ = try Self.sync(server, dir)
        let editor = try ContactEditor(source: .vdir(dir.path))
        let newID = try editor.add(givenName: "Cleo", familyName: "Dahl", emails: ["cleo@example.net"])
        try editor.edit(id: "u-ada", [try .add(parsing: "X-TWITTER=@ada")])
        try FileManager.default.removeItem(at: dir.appendingPathComponent("bob.vcf"))
        let pushed = try Self.sync(server, dir)
        #expect(pushed.pushed == 2)
        #expect(pushed.removedOnServer == 1)
        #expect(try server.members() == ["\(newID).vcf", "ada.vcf"].sorted())
        #expect(try server.get("ada.vcf").body.contains("X-TWITTER:@ada"))
        #expect(try server.get("\(newID).vcf").body.contains("EMAIL:cleo@example.net"))
        // The next sync has nothing to do: our own pushes are not pulled back.
        let idle = try Self.sync(server, dir)
        #expect(idle.pulled == 0 && idle.pushed == 0 && idle.conflicts.isEmpty)
    }

    /// Both sides changed: different properties merge; the same property is a conflict, with the server's
    /// version in place and the local one kept and listed.
    @Test(arguments: DAVServer.Kind.allCases) func bothSidesChanged(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@example.org"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone", email: "bob@example.org"))
        let dir = Scratch.path("conflict-\(kind)")
        _ = try Self.sync(server, dir)
        let editor = try ContactEditor(source: .vdir(dir.path))
        // Ada: the server changes the email, we add a note: both survive.
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@new.example.org"))
        try editor.edit(id: "u-ada", [try .add(parsing: "NOTE=met in London")])
        // Bob: both change the email.
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone", email: "bob@server.example.org"))
        try editor.edit(id: "u-bob", [try .set(parsing: "EMAIL=bob@local.example.org")])
        let summary = try Self.sync(server, dir)
        #expect(summary.merged == 1)
        #expect(summary.conflicts.map(\.file) == ["bob.vcf"])
        #expect(summary.conflicts.first?.properties == ["EMAIL"])
        let ada = try Self.text(dir.appendingPathComponent("ada.vcf"))
        #expect(ada.contains("EMAIL:ada@new.example.org") && ada.contains("NOTE:met in London"))
        let onServer = try server.get("ada.vcf").body
        #expect(onServer.contains("EMAIL:ada@new.example.org") && onServer.contains("NOTE:met in London"))
        #expect(try Self.text(dir.appendingPathComponent("bob.vcf")).contains("EMAIL:bob@server.example.org"))
        let kept = try #require(try VDirSync.conflicts(in: dir.path).first)
        #expect(try Self.text(URL(fileURLWithPath: kept.copy)).contains("EMAIL:bob@local.example.org"))
        // Settled by removing the kept copy.
        try FileManager.default.removeItem(atPath: kept.copy)
        #expect(try VDirSync.conflicts(in: dir.path).isEmpty)
    }

    /// A sync-token the server no longer knows: everything is listed again, with no duplicate and no loss.
    @Test(arguments: DAVServer.Kind.allCases) func invalidTokenResyncs(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        let dir = Scratch.path("token-\(kind)")
        _ = try Self.sync(server, dir)
        var state = try SyncState.load(dir.path)
        #expect(state.syncToken != nil)
        state.syncToken =
            switch kind {
            case .radicale: "http://radicale.org/ns/sync/0000"
            case .xandikos: "http://xandikos/1234567890abcdef"
            case .cyrus: "data:,1-1"
            }
        try state.save(dir.path)
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        try ContactEditor(source: .vdir(dir.path)).edit(id: "u-ada", [try .add(parsing: "NOTE=local")])
        let summary = try Self.sync(server, dir)
        #expect(summary.fullResync)
        #expect(try Self.files(dir) == ["ada.vcf", "bob.vcf"])
        #expect(try server.members() == ["ada.vcf", "bob.vcf"])
        #expect(try server.get("ada.vcf").body.contains("NOTE:local"))
    }

    /// A push that reached the server before the sync was stopped (state not saved) converges: the member
    /// is recognized as the local file, no duplicate.
    @Test func anInterruptedPushConverges() throws {
        let server = try DAVServer(.radicale)
        let dir = Scratch.path("interrupted")
        _ = try Self.sync(server, dir)
        let id = try ContactEditor(source: .vdir(dir.path)).add(givenName: "Cleo", familyName: "Dahl")
        let saved = Scratch.path("interrupted-state")
        try FileManager.default.copyItem(atPath: SyncState.folder(dir.path), toPath: saved.path)
        _ = try Self.sync(server, dir)
        // As if killed after the PUT and before the state was written.
        try FileManager.default.removeItem(atPath: SyncState.folder(dir.path))
        try FileManager.default.copyItem(atPath: saved.path, toPath: SyncState.folder(dir.path))
        let again = try Self.sync(server, dir)
        #expect(again.conflicts.isEmpty)
        #expect(try server.members() == ["\(id).vcf"])
        #expect(try Self.files(dir) == ["\(id).vcf"])
    }

    @Test func wrongPasswordIsAClearErrorAndChangesNothing() throws {
        let server = try DAVServer(.radicale, htpasswd: "ada:right\n")
        let dir = Scratch.path("auth")
        #expect(throws: CardDAVError.authenticationFailed(url: server.base + "/")) {
            try VDirSync(client: try Self.client(server, password: "wrong"), folder: dir.path).run(bookName: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func listsAddressBooksFromTheRoot() throws {
        let server = try DAVServer(.xandikos)
        let books = try Self.client(server).addressBooks()
        #expect(books.map(\.url) == [server.collection])
        #expect(books.first?.supportsSyncCollection == true)
    }
}

/// The multistatus reader refuses what a server never needs to send, with a clear error.
@Suite struct DAVElementTests {
    /// Compressed answers are asked of other machines only: on this one compressing costs the server time.
    @Test func loopbackHostsAreRecognized() {
        for url in ["http://127.0.0.1:5232/ada/", "http://localhost/", "https://[::1]:8443/dav/", "http://LOCALHOST"] {
            #expect(HTTPClient.isLoopback(url), "\(url)")
        }
        for url in ["https://dav.example.org/", "http://10.0.0.1/", "http://127.example.org.evil/", "not a url"] {
            #expect(!HTTPClient.isLoopback(url), "\(url)")
        }
    }

    @Test func hostileOrBrokenAnswersAreErrors() throws {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
            <multistatus xmlns="DAV:"><response><href>&lol2;</href></response></multistatus>
            """
        #expect(throws: CardDAVError.self) { try DAVElement.parse(Array(laughs.utf8), url: "u") }
        #expect(throws: CardDAVError.self) {
            try DAVElement.parse(Array("<multistatus xmlns=\"DAV:\"><resp".utf8), url: "u")
        }
        #expect(throws: CardDAVError.self) { try DAVElement.parse([0x3C, 0x61, 0xFF, 0x3E], url: "u") }
        // Nested 60,000 deep: refused at depth 256, where the tree of such an answer crashed in its teardown.
        let deep = "<multistatus xmlns=\"DAV:\">" + String(repeating: "<a>", count: 60_000)
        #expect(throws: CardDAVError.badAnswer(url: "u", message: "1:792: elements nested deeper than 256")) {
            try DAVElement.parse(Array(deep.utf8), url: "u")
        }
        let ok = try DAVElement.parse(
            Array(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a/</d:href></d:response></d:multistatus>"#.utf8),
            url: "u")
        #expect(DAVResponse.all(in: ok).map(\.href) == ["/a/"])
    }

    @Test func mergeTakesEachSidesChangesAndFindsConflicts() throws {
        let base = Array(card("u", "Ada", "L", email: "a@x.org").utf8)
        let local = Array(card("u", "Ada", "L", email: "a@x.org", extra: ["NOTE:n"]).utf8)
        let server = Array(card("u", "Ada", "L", email: "b@x.org").utf8)
        let merged = CardMerge.merge(base: base, local: local, server: server)
        #expect(merged.conflicts.isEmpty)
        let text = String(decoding: merged.card, as: UTF8.self)
        #expect(text.contains("EMAIL:b@x.org") && text.contains("NOTE:n"))
        let both = CardMerge.merge(
            base: base, local: Array(card("u", "Ada", "L", email: "c@x.org").utf8), server: server)
        #expect(both.conflicts == ["EMAIL"])
    }
}

/// Interop and fallbacks (issue 20, items 3 and 10).
@Suite(.serialized) struct InteropTests {
    /// A vdir vdirsyncer (from PyPI, in the project's venv) filled from the same server — a group card
    /// included — syncs with ours without a change on Radicale and Xandikos: its files (named by UID, not
    /// by href) are recognized, nothing is sent or written, nothing duplicated (issue 29, item 6).
    @Test(arguments: DAVServer.Kind.allCases) func aVDirWrittenByVdirsyncerSyncsWithoutAChange(
        _ kind: DAVServer.Kind
    ) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@example.org"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        try server.put("team.vcf", ConvergenceTests.group("g-team", "Team", members: ["u-ada", "u-bob"]))
        let dir = try Scratch.directory("vdirsyncer-dir-\(kind)")
        let config = Scratch.path("vdirsyncer", suffix: ".conf")
        let credentials =
            kind.needsLogin ? "username = \"\(server.user)\"\npassword = \"\(server.password)\"\n" : ""
        try Scratch.write(
            """
            [general]
            status_path = "\(Scratch.path("vdirsyncer-status").path)"

            [pair family]
            a = "family_local"
            b = "family_remote"
            collections = null

            [storage family_local]
            type = "filesystem"
            path = "\(dir.path)"
            fileext = ".vcf"

            [storage family_remote]
            type = "carddav"
            url = "\(server.collection)"
            \(credentials)
            """, to: config)
        let vdirsyncer = DAVServer.python.deletingLastPathComponent().appendingPathComponent("vdirsyncer").path
        let discover = try runToEnd(["sh", "-c", "yes | '\(vdirsyncer)' -c '\(config.path)' discover family"])
        #expect(discover.status == 0, "\(discover.output)")
        let filled = try runToEnd([vdirsyncer, "-c", config.path, "sync"])
        #expect(filled.status == 0, "\(filled.output)")
        let names = try SyncTests.files(dir)
        #expect(names == ["g-team.vcf", "u-ada.vcf", "u-bob.vcf"], "vdirsyncer names files by UID: \(names)")
        let before = try names.map { try Data(contentsOf: dir.appendingPathComponent($0)) }
        let summary = try SyncTests.sync(server, dir, url: server.collection)
        #expect(summary.pulled == 0 && summary.pushed == 0 && summary.conflicts.isEmpty && summary.merged == 0)
        #expect(summary.failed.isEmpty, "\(summary.failed)")
        #expect(try SyncTests.files(dir) == names)
        #expect(try names.map { try Data(contentsOf: dir.appendingPathComponent($0)) } == before)
        #expect(try server.members() == ["ada.vcf", "bob.vcf", "team.vcf"])
        // From then on the files are ours to sync, under their names.
        try ContactEditor(source: .vdir(dir.path)).edit(id: "u-bob", [try .add(parsing: "NOTE=hi")])
        let pushed = try SyncTests.sync(server, dir, url: server.collection)
        #expect(pushed.pushed == 1)
        #expect(try server.get("bob.vcf").body.contains("NOTE:hi"))
        #expect(try server.members() == ["ada.vcf", "bob.vcf", "team.vcf"])
    }

    /// A sync with nothing to do writes nothing: the state and its members file stay as they were. A state
    /// written before the members had a file of their own (every member inline in `state.json`) is read,
    /// and the next save moves them out.
    @Test func anIdleSyncWritesNothingAndAnOlderStateIsRead() throws {
        let (server, dir) = try Self.syncedAdaAndBob(.radicale, "idle-state")
        let stateFolder = SyncState.folder(dir.path)
        func listing() throws -> [String: Date] {
            var result: [String: Date] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: stateFolder) {
                let attributes = try FileManager.default.attributesOfItem(atPath: stateFolder + "/" + name)
                result[name] = attributes[.modificationDate] as? Date
            }
            return result
        }
        let before = try listing()
        #expect(before.keys.filter { $0.hasPrefix("members-") }.count == 1, "\(before.keys)")
        let idle = try SyncTests.sync(server, dir)
        #expect(idle.pulled == 0 && idle.pushed == 0)
        #expect(try listing() == before)

        // The layout of earlier versions: the members inline, no members file.
        let state = try SyncState.load(dir.path)
        var items: [String: Any] = [:]
        var bases: [String: [UInt8]] = [:]
        for (file, item) in state.items {
            bases[file] = state.base(of: file, in: dir.path)
            items[file] = [
                "href": item.href, "etag": item.etag, "hash": item.hash,
                "base": String(decoding: bases[file]!, as: UTF8.self),
            ]
        }
        let older: [String: Any] = [
            "sourceURL": state.sourceURL, "collection": state.collection,
            "supportsSyncCollection": state.supportsSyncCollection, "syncToken": state.syncToken ?? "",
            "conflicts": [Any](), "items": items,
        ]
        for name in before.keys where name.hasPrefix("members-") {
            try FileManager.default.removeItem(atPath: stateFolder + "/" + name)
        }
        try JSONSerialization.data(withJSONObject: older).write(to: URL(fileURLWithPath: SyncState.path(dir.path)))
        let reread = try SyncState.load(dir.path)
        #expect(
            reread.items.mapValues { [$0.href, $0.etag, $0.hash] }
                == state.items.mapValues { [$0.href, $0.etag, $0.hash] })
        for file in state.items.keys {
            #expect(reread.base(of: file, in: dir.path) == bases[file])
        }
        try server.put("cleo.vcf", card("u-cleo", "Cleo", "Dahl"))
        let next = try SyncTests.sync(server, dir)
        #expect(next.pulled == 1 && next.pushed == 0 && next.conflicts.isEmpty)
        let after = try SyncState.load(dir.path)
        #expect(after.items.count == 3)
        #expect(
            !String(decoding: try Data(contentsOf: URL(fileURLWithPath: SyncState.path(dir.path))), as: UTF8.self)
                .contains("\"items\""))
    }

    /// A server holding Ada and Bob, synced once into a new folder named after `name`.
    static func syncedAdaAndBob(_ kind: DAVServer.Kind, _ name: String) throws -> (DAVServer, URL) {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        let dir = Scratch.path(name)
        _ = try SyncTests.sync(server, dir)
        return (server, dir)
    }

    /// A server without sync-collection is listed by ETag: pulls and deletes still arrive.
    @Test func theETagListingServesServersWithoutSyncCollection() throws {
        let (server, dir) = try Self.syncedAdaAndBob(.xandikos, "etag-listing")
        var state = try SyncState.load(dir.path)
        state.supportsSyncCollection = false
        try state.save(dir.path)
        try server.put("ada.vcf", card("u-ada", "Ada", "Byron"))
        try server.delete("bob.vcf")
        let summary = try SyncTests.sync(server, dir)
        #expect(summary.pulled == 1 && summary.removedLocally == 1)
        #expect(try SyncTests.files(dir) == ["ada.vcf"])
        #expect(try SyncTests.text(dir.appendingPathComponent("ada.vcf")).contains("FN:Ada Byron"))
    }
}
