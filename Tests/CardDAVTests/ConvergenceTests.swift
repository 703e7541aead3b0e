import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// Nothing duplicated, no false conflicts, a refused write does not stop the rest, conflicts a person can
/// settle (issue 29, items 6–9), against real Radicale and Xandikos (and the tests' hostile server for
/// refusals).
@Suite(.serialized) struct ConvergenceTests {
    static func group(_ uid: String, _ name: String, members: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(name)", "N:\(name);;;;", "X-ADDRESSBOOKSERVER-KIND:group"]
            + members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)" } + ["END:VCARD", ""]).joined(
                separator: "\r\n")
    }

    /// Item 6: a folder with the server's cards but no sync state — as vdirsyncer writes it, named by UID —
    /// group cards included, syncs without a duplicate on either side; a killed run's `.tmp` files go.
    @Test(arguments: DAVServer.Kind.allCases) func aFolderWithoutStateAndGroupsMigratesWithoutDuplicates(
        _ kind: DAVServer.Kind
    ) throws {
        let server = try DAVServer(kind)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        try server.put("team.vcf", Self.group("g-team", "Team", members: ["u-ada", "u-bob"]))
        let dir = try Scratch.directory("migrate-\(kind)")
        for (name, uid) in [("ada.vcf", "u-ada"), ("bob.vcf", "u-bob"), ("team.vcf", "g-team")] {
            try Data(try server.get(name).body.utf8).write(to: dir.appendingPathComponent("\(uid).vcf"))
        }
        try Data("half".utf8).write(to: dir.appendingPathComponent(".u-ada.vcf-1234567890.tmp"))
        let summary = try SyncTests.sync(server, dir, url: server.collection)
        #expect(summary.pulled == 0 && summary.pushed == 0 && summary.failed.isEmpty, "\(summary)")
        #expect(try SyncTests.files(dir) == ["g-team.vcf", "u-ada.vcf", "u-bob.vcf"])
        #expect(try server.members() == ["ada.vcf", "bob.vcf", "team.vcf"])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".u-ada.vcf-1234567890.tmp").path))
        // Deleting the group here deletes it there, once.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("g-team.vcf"))
        #expect(try SyncTests.sync(server, dir, url: server.collection).removedOnServer == 1)
        #expect(try server.members() == ["ada.vcf", "bob.vcf"])
    }

    /// Item 7: Radicale stores a re-serialised card; the base of the next merge is what it stored, so a
    /// local EMAIL change beside a NOTE change on the server is a merge, not "EMAIL changed on both sides".
    @Test func aCardTheServerRewroteGivesNoFalseConflict() throws {
        let server = try DAVServer(.radicale)
        let dir = Scratch.path("rewrite")
        _ = try SyncTests.sync(server, dir)
        let mine =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u-rae\r\nFN:Rae Wise\r\nN:Wise;Rae;;;\r\n"
            + "email;type=home:rae@example.org\r\nNOTE:short\r\nEND:VCARD\r\n"
        try Data(mine.utf8).write(to: dir.appendingPathComponent("rae.vcf"))
        #expect(try SyncTests.sync(server, dir).pushed == 1)
        let stored = try server.get("rae.vcf").body
        #expect(stored.contains("EMAIL;TYPE=home:rae@example.org"), "the server rewrote it: \(stored)")
        try server.put("rae.vcf", stored.replacingOccurrences(of: "NOTE:short", with: "NOTE:from the server"))
        try Data(mine.replacingOccurrences(of: "rae@example.org", with: "rae@home.example.org").utf8).write(
            to: dir.appendingPathComponent("rae.vcf"))
        let summary = try SyncTests.sync(server, dir)
        #expect(summary.conflicts.isEmpty && summary.merged == 1, "\(summary)")
        let onServer = try server.get("rae.vcf").body
        #expect(onServer.contains("rae@home.example.org") && onServer.contains("NOTE:from the server"), "\(onServer)")
    }

    /// Item 8: a write the server refuses (403) is named; the other changes are sent and the state saved,
    /// and the next sync does not send them again. `readOnly` pulls and sends nothing.
    @Test func aRefusedWriteDoesNotStopTheRest() throws {
        let server = try HostileServer(
            [
                ("/book/ada.vcf", card("u-ada", "Ada", "Lovelace"), true),
                ("/book/bob.vcf", card("u-bob", "Bob", "Stone"), true),
            ], ["--refuse", "/book/ada.vcf:403"])
        let dir = Scratch.path("refused")
        #expect(try server.sync(dir).pulled == 2)
        let editor = try ContactEditor(source: .vdir(dir.path))
        try editor.edit(id: "u-ada", [try .add(parsing: "NOTE=refused")])
        try editor.edit(id: "u-bob", [try .add(parsing: "NOTE=accepted")])
        let summary = try server.sync(dir)
        #expect(summary.pushed == 1)
        #expect(summary.failed.count == 1 && summary.failed[0].hasPrefix("ada.vcf: "), "\(summary.failed)")
        #expect(summary.failed.first?.contains("HTTP 403") == true)
        let again = try server.sync(dir)
        #expect(again.pushed == 0 && again.failed.count == 1, "\(again)")
        // Read-only: a local change stays unsent, a server change still arrives.
        try editor.edit(id: "u-bob", [try .add(parsing: "TITLE=local only")])
        let readOnly = try server.sync(dir, readOnly: true)
        #expect(readOnly.pushed == 0 && readOnly.notSent == 2 && readOnly.failed.isEmpty, "\(readOnly)")
        #expect(server.requests().filter { $0.contains(" PUT ") }.count == 3)
    }

    /// Item 9: a conflict keeps the local changes that did not conflict in the file; EMAIL added on both
    /// sides merges; `resolve(take: .mine)` puts the local value back and the next sync sends it, while the
    /// server's other change stays.
    @Test(arguments: DAVServer.Kind.allCases) func conflictsKeepEveryOtherChangeAndAreSettled(
        _ kind: DAVServer.Kind
    ) throws {
        let server = try DAVServer(kind)
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone", email: "bob@example.org", extra: ["NOTE:old"]))
        let dir = Scratch.path("settle-\(kind)")
        _ = try SyncTests.sync(server, dir)
        try server.put(
            "bob.vcf",
            card(
                "u-bob", "Bob", "Stone", email: "bob@example.org",
                extra: ["EMAIL:bob@server.example.org", "NOTE:server note", "TITLE:Chair"]))
        let editor = try ContactEditor(source: .vdir(dir.path))
        try editor.edit(
            id: "u-bob",
            [
                try .set(parsing: "NOTE=local note"), try .add(parsing: "ORG=Local Org"),
                try .add(parsing: "EMAIL=bob@local.example.org"),
            ])
        let summary = try SyncTests.sync(server, dir)
        #expect(summary.conflicts.map(\.properties) == [["NOTE"]], "\(summary.conflicts)")
        let file = try SyncTests.text(dir.appendingPathComponent("bob.vcf"))
        for expected in [
            "NOTE:server note", "ORG:Local Org", "TITLE:Chair", "bob@local.example.org", "bob@server.example.org",
        ] {
            #expect(file.contains(expected), "\(expected) in \(file)")
        }
        // The changes that did not conflict are on the server already.
        let onServer = try server.get("bob.vcf").body
        #expect(onServer.contains("ORG:Local Org") && onServer.contains("bob@local.example.org"), "\(onServer)")
        try VDirSync.resolve("u-bob", in: dir.path, take: .mine)
        #expect(try VDirSync.conflicts(in: dir.path).isEmpty)
        #expect(try SyncTests.sync(server, dir).pushed == 1)
        let settled = try server.get("bob.vcf").body
        #expect(settled.contains("NOTE:local note") && settled.contains("TITLE:Chair"), "\(settled)")
        #expect(!settled.contains("server note"))
    }

    @Test func multiValuedPropertiesMergeValueByValue() {
        let base = Array(card("u", "Ada", "L", email: "a@x.org").utf8)
        let local = Array(card("u", "Ada", "L", email: "a@x.org", extra: ["EMAIL:l@x.org"]).utf8)
        let server = Array(card("u", "Ada", "L", email: "a@x.org", extra: ["email;type=work:s@x.org"]).utf8)
        let merged = CardMerge.merge(base: base, local: local, server: server)
        #expect(merged.conflicts.isEmpty)
        let text = String(decoding: merged.card, as: UTF8.self)
        #expect(text.contains("EMAIL:a@x.org") && text.contains("EMAIL:l@x.org") && text.contains("s@x.org"))
        // Spelling is not a change: the same line rewritten by a server compares equal.
        #expect(
            CardMerge.normalized("item1.email;TYPE=HOME;type=pref:a@x.org ")
                == CardMerge.normalized("EMAIL;TYPE=pref,home:a@x.org"))
    }
}
