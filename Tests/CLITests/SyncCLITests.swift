import Foundation
import TestSupport
import Testing

/// `contacts sync` against a real Radicale on 127.0.0.1 (issue 20, items 2, 5 and 8): sync, --list,
/// --conflicts, and an authentication failure that says so, exits 1 and changes nothing.
@Suite(.serialized) struct SyncCLITests {
    @Test func syncListAndPick() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let password = Scratch.path("pw")
        try Scratch.write("secret\n", to: password)
        chmod(password.path, 0o600)
        let dir = Scratch.path("sync-cli")
        let list = try CLI.run(["sync", base + "/", "--list", "--user", "ada", "--password-file", password.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("/ada/family/  Family  (sync-collection)"), "\(list.stdout)")
        let sync = try CLI.run([
            "sync", base + "/", "--into", dir.path, "--user", "ada", "--password-file", password.path,
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("1 received"), "\(sync.stdout)")
        #expect(!sync.stderr.contains("readable by everyone"))
        let listed = try CLI.run(["list", "--source", dir.path, "--mode", "email", "--locale", "en"])
        #expect(listed.stdout.contains("Ada Lovelace  <ada@example.org>"), "\(listed.stdout)")
        let conflicts = try CLI.run(["sync", "--conflicts", dir.path])
        #expect(conflicts.status == 0)
        #expect(conflicts.stdout == "no conflicts\n")
        // The password command is another way in.
        let again = try CLI.run([
            "sync", base + "/", "--into", dir.path, "--user", "ada", "--password-command", "echo secret",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 received"))
    }

    @Test func aWrongPasswordFailsClearlyAndChangesNothing() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let password = Scratch.path("pw-wrong")
        try Scratch.write("not-the-password-42\n", to: password)
        chmod(password.path, 0o644)
        let dir = Scratch.path("sync-auth")
        let r = try CLI.run(["sync", base + "/", "--into", dir.path, "--user", "ada", "--password-file", password.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the server refused the user name or password (HTTP 401)"), "\(r.stderr)")
        #expect(r.stderr.contains("is readable by everyone"))
        #expect(!r.stderr.contains("not-the-password-42") && !r.stdout.contains("not-the-password-42"))
        #expect(!FileManager.default.fileExists(atPath: dir.path))
        let url = try CLI.run(["sync", "http://ada:pw@127.0.0.1:1/", "--list"])
        #expect(url.status == 2)
        #expect(!url.stderr.contains("pw@"), "\(url.stderr)")
    }
}
