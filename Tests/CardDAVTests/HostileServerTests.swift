import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// `Fixtures/hostile_server.py`, a CardDAV server written for these tests, on 127.0.0.1: its answers
/// try to write outside the folder, to draw the credentials to another origin, to crash the reader or
/// to hold the client forever, and hold members that are not vCards (issue 29, items 1–5).
final class HostileServer {
    let server: ScriptServer
    let base: String
    /// The port of the other origin (with `--other`).
    var otherPort = 0
    let log = Scratch.path("hostile-log")

    /// Started with `members` (href, vCard or other body, whether REPORT answers hold it) and `arguments`.
    init(_ members: [(href: String, body: String, data: Bool)] = [], _ arguments: [String] = []) throws {
        let file = Scratch.path("hostile-members", suffix: ".json")
        let list = members.map { ["href": $0.href, "body": $0.body, "data": $0.data] as [String: Any] }
        try JSONSerialization.data(withJSONObject: list).write(to: file)
        server = try ScriptServer(
            python: DAVServer.python,
            script: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Fixtures/hostile_server.py"),
            arguments: ["--members", file.path, "--log", log.path] + arguments)
        base = "http://127.0.0.1:\(server.port)"
        if arguments.contains("--other") {
            let line = server.readLine()
            otherPort = Int(line.dropFirst("OTHER ".count)) ?? 0
        }
    }

    deinit { server.stop() }

    var collection: String { base + "/book/" }

    /// The requests logged: "port method path [auth]".
    func requests() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func sync(_ dir: URL, timeout: Double = CardDAVAccount.defaultTimeout, readOnly: Bool = false) throws
        -> SyncSummary
    {
        let client = try CardDAVClient(
            account: CardDAVAccount(url: collection, user: "ada", password: "secret", timeout: timeout))
        let sync = VDirSync(client: client, folder: dir.path)
        sync.readOnly = readOnly
        return try sync.run(bookName: nil)
    }
}

@Suite(.serialized) struct HostileServerTests {
    /// Every file below `dir`, relative to it.
    static func tree(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// Item 3: two members whose hrefs are no file names carry the UID `../../x/PWNED`: the second name
    /// (the duplicate's `-2`) once went outside the folder. Every name comes from the one sanitizer.
    @Test func aHostileUIDNeverWritesOutsideTheFolder() throws {
        let uid = "../../x/PWNED"
        let server = try HostileServer([
            ("/book/one", card(uid, "One", "Pwned"), true), ("/book/two", card(uid, "Two", "Pwned"), true),
            ("/book/three", card(String(repeating: "é", count: 200), "Long", "Name"), true),
        ])
        let top = try Scratch.directory("hostile-uid")
        let dir = top.appendingPathComponent("a/b/vdir")
        let summary = try server.sync(dir)
        #expect(summary.pulled == 3)
        let everything = Self.tree(top)
        #expect(!everything.contains { $0.contains("PWNED") && !$0.hasPrefix("a/b/vdir/") }, "\(everything)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") }
        #expect(names.count == 3, "\(names)")
        #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.utf8.count <= 255 }, "\(names)")
        #expect(names.contains("______x_PWNED.vcf") && names.contains("______x_PWNED-2.vcf"), "\(names)")
        // Over-long: shortened, with a hash of the whole.
        #expect(names.contains { $0.hasPrefix("éééé") && $0.utf8.count <= 255 }, "\(names)")
        #expect(try server.sync(dir).pulled == 0)
    }

    /// Item 3: an href with `%00` once gave a file name with a NUL, which damaged the state for good.
    @Test func aNULInAnHrefDoesNotDamageTheState() throws {
        let server = try HostileServer([("/book/a%00b.vcf", card("u-nul", "Nul", "Href"), true)])
        let dir = Scratch.path("hostile-nul")
        #expect(try server.sync(dir).pulled == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains("a_b.vcf"))
        try ContactEditor(source: .vdir(dir.path)).edit(id: "u-nul", [try .add(parsing: "NOTE=edited")])
        let second = try server.sync(dir)
        #expect(second.pushed == 1 && second.failed.isEmpty, "\(second)")
        #expect(try server.sync(dir).pushed == 0)
        // A state an earlier version damaged so (a NUL inside a record) is found again, not fatal.
        let state = try SyncState.load(dir.path)
        let members = SyncState.folder(dir.path) + "/" + (state.membersFile ?? "")
        try Data("a\u{0}b.vcf\u{0}/book/a%00b.vcf\u{0}x\u{0}y\u{0}99\ntoo short".utf8).write(
            to: URL(fileURLWithPath: members))
        let healed = try server.sync(dir)
        #expect(healed.pulled == 0 && healed.pushed == 0, "\(healed)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") } == ["a_b.vcf"]
        )
        let idle = try server.sync(dir)
        #expect(idle.pulled == 0 && idle.pushed == 0, "\(idle)")
    }

    /// Item 4: a member whose href names another origin: nothing goes there, least of all the password;
    /// the href is taken as a path on the account's server, as vdirsyncer does.
    @Test func anHrefOnAnotherHostGetsNoRequest() throws {
        let server = try HostileServer(
            [("http://{other}/book/ada.vcf", card("u-ada", "Ada", "Lovelace"), true)], ["--other"])
        let dir = Scratch.path("hostile-origin")
        #expect(try server.sync(dir).pulled == 1)
        try ContactEditor(source: .vdir(dir.path)).edit(id: "u-ada", [try .add(parsing: "NOTE=mine")])
        let pushed = try server.sync(dir)
        #expect(pushed.pushed == 1, "\(pushed)")
        let requests = server.requests()
        #expect(!requests.contains { $0.hasPrefix("\(server.otherPort) ") }, "\(requests)")
        #expect(requests.contains("\(server.server.port) PUT /book/ada.vcf auth"), "\(requests)")
    }

    /// Item 5: a multistatus nested 60,000 deep crashed the client; now a clear error, nothing written.
    @Test func aDeepAnswerIsAClearError() throws {
        let server = try HostileServer([("/book/a.vcf", card("u-a", "A", "B"), true)], ["--deep", "60000"])
        let dir = Scratch.path("hostile-deep")
        do {
            _ = try server.sync(dir)
            Issue.record("a 60,000-deep answer was accepted")
        } catch let error as CardDAVError {
            #expect("\(error)".contains("elements nested deeper than 256"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: SyncState.path(dir.path)))
    }

    /// Item 5: a server that trickles its answer (a byte every 0.2 s: minutes) is cut off by the deadline.
    @Test func aTricklingServerIsCutOff() throws {
        let server = try HostileServer(
            [("/book/a.vcf", card("u-a", "A", "B", extra: [String(repeating: "NOTE:x\r\n", count: 50)]), true)],
            ["--trickle", "0.2"])
        let dir = Scratch.path("hostile-trickle")
        let start = Date()
        #expect(throws: CardDAVError.self) { try server.sync(dir, timeout: 2) }
        #expect(Date().timeIntervalSince(start) < 15)
    }

    /// Items 1 and 2: an answer of 13 MB (3,000 cards with 4 KB photos: libxml2 refused anything over
    /// 10 MB) is read as a stream; a member the answer gives no data for is fetched with GET; bodies that
    /// are not vCards are named, not written.
    @Test func largeAnswersStreamAndUnreadableMembersAreNamed() throws {
        let server = try HostileServer(
            [
                ("/book/by-get.vcf", card("u-get", "By", "Get"), false),
                ("/book/page.vcf", "<html><body>not a card</body></html>", false),
                ("/book/text.vcf", "hello, no card here", true),
            ], ["--generate", "3000:4096"])
        let dir = Scratch.path("hostile-large")
        let summary = try server.sync(dir)
        #expect(summary.pulled == 3001, "\(summary.pulled)")
        #expect(
            summary.unreadable.sorted() == [
                "/book/page.vcf: not a vCard; not written", "/book/text.vcf: not a vCard; not written",
            ])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(names.contains("by-get.vcf") && names.contains("gen-2999.vcf"))
        #expect(!names.contains("page.vcf") && !names.contains("text.vcf"))
        let again = try server.sync(dir)
        #expect(again.pulled == 0 && again.pushed == 0, "\(again)")
    }

    /// A server that offers sync-collection but refuses address-data in it: the first sync lists, then
    /// queries; the next syncs use the token.
    @Test func aServerRefusingCardsInSyncCollectionIsListedThenQueried() throws {
        let server = try HostileServer(
            [("/book/a.vcf", card("u-a", "A", "B"), true), ("/book/c.vcf", card("u-c", "C", "D"), true)],
            ["--sync-without-data"])
        let dir = Scratch.path("hostile-sync-no-data")
        let first = try server.sync(dir)
        #expect(first.pulled == 2 && first.unreadable.isEmpty, "\(first)")
        #expect(try SyncState.load(dir.path).syncToken == "t1")
        let idle = try server.sync(dir)
        #expect(idle.pulled == 0 && idle.pushed == 0, "\(idle)")
    }
}
