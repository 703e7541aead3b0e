import Foundation
import TestSupport
import Testing

/// `contacts sync` against a real Radicale on 127.0.0.1 (issue 20, items 2, 5 and 8): sync, --list,
/// --conflicts, and an authentication failure that says so, exits 1 and changes nothing.
@Suite(.serialized) struct SyncCLITests {
    @Test func syncListAndPick() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let password = try DAVTestServer.passwordFile()
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

/// `contacts sync` for issue 29: bounded memory on a large answer, conflicts listed from any folder and
/// settled with --resolve, --read-only, --timeout.
@Suite(.serialized) struct SyncCLIIssue29Tests {
    /// The tests' hostile CardDAV server (`Tests/CardDAVTests/Fixtures/hostile_server.py`) with `arguments`.
    static func hostile(_ arguments: [String]) throws -> (server: ScriptServer, collection: String) {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? DAVTestServer.packageRoot.appendingPathComponent(".venv").path
        let server = try ScriptServer(
            python: URL(fileURLWithPath: venv + "/bin/python"),
            script: DAVTestServer.packageRoot.appendingPathComponent("Tests/CardDAVTests/Fixtures/hostile_server.py"),
            arguments: arguments)
        return (server, "http://127.0.0.1:\(server.port)/book/")
    }

    /// Peak memory (KiB, by /usr/bin/time) of `contacts args…`, and its exit status.
    static func peakMemory(_ args: [String]) throws -> (kib: Int, status: Int32) {
        let r = try runToEnd(["/usr/bin/time", "-f", "peak %M", CLI.executable.path] + args)
        let line = r.output.split(separator: "\n").last { $0.hasPrefix("peak ") } ?? ""
        return (Int(line.dropFirst(5)) ?? 0, r.status)
    }

    /// Item 1: a first sync of a 60 MB answer (300 cards with 200 KB photos) takes no more memory than one
    /// of a single small card, give or take 16 MiB (the whole answer, or a tree of it, took several times
    /// its size).
    @Test func aLargeAnswerIsSyncedInBoundedMemory() throws {
        let (small, smallURL) = try Self.hostile(["--generate", "1:100"])
        defer { small.stop() }
        let (large, largeURL) = try Self.hostile(["--generate", "300:200000"])
        defer { large.stop() }
        let one = try Self.peakMemory(["sync", smallURL, "--into", Scratch.path("mem-small").path])
        let dir = Scratch.path("mem-large")
        let many = try Self.peakMemory(["sync", largeURL, "--into", dir.path])
        #expect(one.status == 0 && many.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vcf") }.count == 300)
        #expect(many.kib > 0 && many.kib - one.kib < 16 << 10, "\(many.kib) KiB against \(one.kib) KiB")
    }

    /// Item 9: conflicts are listed from any folder (the copy's path was kept relative to where the sync
    /// ran) and settled by --resolve; items 8 and 5: --read-only sends nothing, --timeout is a duration.
    @Test func conflictsAreListedFromAnywhereAndSettled() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let password = try DAVTestServer.passwordFile()
        let work = try Scratch.directory("sync-cwd")
        let sync = ["sync", base + "/ada/family/", "--user", "ada", "--password-file", password.path]
        #expect(try CLI.run(sync + ["--into", "family"], currentDirectory: work).status == 0)
        let file = work.appendingPathComponent("family/ada.vcf")
        let ada = try String(contentsOf: file, encoding: .utf8)
        try Data(ada.replacingOccurrences(of: "ada@example.org", with: "ada@local.example.org").utf8).write(to: file)
        let changed = ada.replacingOccurrences(of: "ada@example.org", with: "ada@server.example.org")
        let put = try runToEnd([
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ada:secret", "-X", "PUT", "-H",
            "Content-Type: text/vcard", "--data-binary", changed, base + "/ada/family/ada.vcf",
        ])
        #expect(put.output.hasPrefix("20"), "\(put.output)")
        let conflicted = try CLI.run(sync + ["--into", "family", "--timeout", "90s"], currentDirectory: work)
        #expect(conflicted.status == 1)
        #expect(conflicted.stdout.contains("conflict: ada.vcf (EMAIL changed on both sides)"), "\(conflicted.stdout)")
        let listed = try CLI.run(["sync", "--conflicts", work.appendingPathComponent("family").path])
        #expect(listed.status == 1 && listed.stdout.contains("ada.vcf (EMAIL"), "\(listed.stdout)")
        let resolved = try CLI.run(
            ["sync", "--resolve", "ada.vcf", "--take", "mine", "--into", "family"], currentDirectory: work)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(resolved.stdout.contains("ada.vcf: yours kept (EMAIL); the next sync sends it"), "\(resolved.stdout)")
        #expect(try CLI.run(["sync", "--conflicts", "family"], currentDirectory: work).stdout == "no conflicts\n")
        // Read-only: the settled change stays here.
        let readOnly = try CLI.run(sync + ["--into", "family", "--read-only"], currentDirectory: work)
        #expect(readOnly.status == 0 && readOnly.stdout.contains("1 not sent (read-only)"), "\(readOnly.stdout)")
        let sent = try CLI.run(sync + ["--into", "family"], currentDirectory: work)
        #expect(sent.stdout.contains("1 sent"), "\(sent.stdout)")
        let onServer = try runToEnd(["curl", "-s", "-u", "ada:secret", base + "/ada/family/ada.vcf"]).output
        #expect(onServer.contains("ada@local.example.org"), "\(onServer)")
        #expect(try CLI.run(sync + ["--into", "family", "--timeout", "soon"], currentDirectory: work).status == 2)
    }

    /// Item 10: --all syncs every book of the account into a folder of its own.
    @Test func allBooksEachIntoTheirFolder() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let mkcol =
            #"<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><set><prop><resourcetype><collection/><C:addressbook/></resourcetype></prop></set></mkcol>"#
        let made = try runToEnd([
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ada:secret", "-X", "MKCOL", "--data-binary",
            mkcol, base + "/ada/work/",
        ])
        #expect(made.output == "201")
        let dir = Scratch.path("sync-all")
        let password = try DAVTestServer.passwordFile()
        let r = try CLI.run([
            "sync", base + "/", "--all", "--into", dir.path, "--user", "ada", "--password-file", password.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("/ada/family/: 1 received") && r.stdout.contains("/ada/work/: 0 received"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("family/ada.vcf").path))
        #expect(
            FileManager.default.fileExists(atPath: dir.appendingPathComponent("work/.contacts-sync/state.json").path))
        // The parent folder is one source of both books for list, search and pick.
        let bob =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u-bob\r\nFN:Bob Stone\r\nEMAIL:bob@example.org\r\nEND:VCARD\r\n"
        try Scratch.write(bob, to: dir.appendingPathComponent("work/bob.vcf"))
        for command in [["list"], ["search", "o"]] {
            let listed = try CLI.run(command + ["--source", dir.path, "--mode", "email"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(
                listed.stdout.contains("ada@example.org") && listed.stdout.contains("bob@example.org"),
                "\(listed.stdout)")
        }
    }

    /// Item 10: an account of the configuration file makes a sync one short line.
    @Test func anAccountOfTheConfigurationFile() throws {
        let (server, base) = try DAVTestServer.radicale()
        defer { server.stop() }
        let password = try DAVTestServer.passwordFile()
        let home = try Scratch.directory("sync-home")
        let config = home.appendingPathComponent(".config/contacts/sync.conf")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Scratch.write(
            """
            # contacts sync --account family
            [family]
            url = \(base)/
            user = ada
            password-file = \(password.path)
            into = ~/family
            timeout = 1m
            """, to: config)
        let r = try CLI.run(["sync", "--account", "family"], environment: ["HOME": home.path, "XDG_CONFIG_HOME": ""])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 received"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("family/ada.vcf").path))
        let unknown = try CLI.run(["sync", "--account", "work", "--config", config.path])
        #expect(unknown.status == 2 && unknown.stderr.contains("no account 'work'"), "\(unknown.stderr)")
        try Scratch.write("[family]\nurl = \(base)/\npassword = secret\ninto = x\n", to: config)
        let refused = try CLI.run(["sync", "--account", "family", "--config", config.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("sync.conf:3: no password in this file"), "\(refused.stderr)")
    }
}
