import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// A proxy between the client and a real Radicale (or Cyrus: issue 29, item 11) answers some requests
/// wrongly (issue 20, item 9): each sync either succeeds or fails with a clear error, and both sides stay
/// intact; the next sync converges.
@Suite(.serialized) struct FaultTests {
    /// `Fixtures/fault_proxy.py` in front of `upstream` with `faults` (and `arguments` as they are); stopped
    /// when the server goes.
    static func proxy(_ upstream: String, _ faults: [String], arguments: [String] = []) throws -> (
        server: ScriptServer, base: String
    ) {
        let server = try ScriptServer(
            python: DAVServer.python,
            script: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Fixtures/fault_proxy.py"),
            arguments: ["--upstream", upstream] + faults.map { "--" + $0 } + arguments)
        return (server, "http://127.0.0.1:\(server.port)")
    }

    static func sync(_ url: String, _ dir: URL) throws -> SyncSummary {
        let client = try CardDAVClient(account: CardDAVAccount(url: url, user: "ada", password: "secret"))
        return try VDirSync(client: client, folder: dir.path).run(bookName: nil)
    }

    @Test(arguments: [DAVServer.Kind.radicale, .cyrus]) func aPreconditionFailureOnThePushIsMerged(
        _ kind: DAVServer.Kind
    ) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@example.org"))
        let (proxy, base) = try Self.proxy(server.base, ["put-412"])
        defer { proxy.stop() }
        let url = base + server.collectionPath
        let dir = Scratch.path("fault-412-\(kind)")
        _ = try Self.sync(url, dir)
        try ContactEditor(source: .vdir(dir.path)).edit(id: "u-ada", [try .add(parsing: "NOTE=local note")])
        let summary = try Self.sync(url, dir)
        #expect(summary.conflicts.isEmpty)
        #expect(try server.get("ada.vcf").body.contains("NOTE:local note"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("ada.vcf"), encoding: .utf8).contains("NOTE:local note"))
        let idle = try Self.sync(url, dir)
        #expect(idle.pushed == 0 && idle.pulled == 0)
    }

    @Test(arguments: [DAVServer.Kind.radicale, .cyrus]) func busyDroppedAndGarbledAnswersLeaveBothSidesIntact(
        _ kind: DAVServer.Kind
    ) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        let (proxy, base) = try Self.proxy(server.base, ["busy", "drop-report", "garble-report"])
        defer { proxy.stop() }
        let url = base + server.collectionPath
        let dir = Scratch.path("fault-drop-\(kind)")
        // 503 with Retry-After is waited out; then the REPORT's answer is cut off: a transfer error.
        #expect(throws: CardDAVError.self) { try Self.sync(url, dir) }
        #expect(!FileManager.default.fileExists(atPath: SyncState.path(dir.path)))
        // The next REPORT's answer is damaged: an error that says where, nothing written.
        do {
            _ = try Self.sync(url, dir)
            Issue.record("a garbled answer was accepted")
        } catch let error as CardDAVError {
            guard case .badAnswer = error else {
                Issue.record("expected an unreadable answer, got \(error)")
                return
            }
        }
        #expect(!FileManager.default.fileExists(atPath: SyncState.path(dir.path)))
        // Then a clean sync: everything, once.
        let summary = try Self.sync(url, dir)
        #expect(summary.pulled == 2)
        #expect(try server.members() == ["ada.vcf", "bob.vcf"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") }.sorted() == [
                "ada.vcf", "bob.vcf",
            ])
    }

    /// The server's sync-collection answers come truncated (RFC 6578 §3.6: a 507 on the collection and an
    /// intermediate token), two members a page: the sync pages through them all, and both sides end complete.
    @Test func aTruncatedSyncCollectionIsPaged() throws {
        let server = try DAVServer(.radicale)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        try server.put("cleo.vcf", card("u-cleo", "Cleo", "Dahl"))
        let (proxy, base) = try Self.proxy(server.base, ["page-sync=2"])
        defer { proxy.stop() }
        let url = base + "/ada/family/"
        let dir = Scratch.path("fault-507")
        #expect(try Self.sync(url, dir).pulled == 3)
        // On the server: five added, one edited, one deleted (seven changes: four pages); here: one added.
        let added = ["dan", "eve", "fay", "gus", "hal"]
        for name in added { try server.put("\(name).vcf", card("u-\(name)", name.capitalized, "Page")) }
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace", email: "ada@example.org"))
        try server.delete("bob.vcf")
        let mine = try ContactEditor(source: .vdir(dir.path)).add(givenName: "Ivy", familyName: "Local")
        let paged = try Self.sync(url, dir)
        #expect(paged.pulled == 6)
        #expect(paged.removedLocally == 1)
        #expect(paged.pushed == 1)
        // The collection's PROPFIND, four pages of changes, a multiget, the push and the fetch of the version
        // the server stored (unpaged: the PROPFIND, one REPORT, a multiget, the push and the fetch).
        #expect(paged.requests == 8, "\(paged.requests) requests")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") }
        let everyone = (["ada", "cleo", mine] + added).map { $0 + ".vcf" }.sorted()
        #expect(files.sorted() == everyone)
        #expect(
            try String(contentsOf: dir.appendingPathComponent("ada.vcf"), encoding: .utf8).contains("ada@example.org"))
        #expect(try server.members() == everyone)
        // The last page gave the server's own token: the next sync finds nothing to do.
        let idle = try Self.sync(url, dir)
        #expect(idle.pulled == 0 && idle.pushed == 0 && idle.removedLocally == 0 && !idle.fullResync)
    }
}
