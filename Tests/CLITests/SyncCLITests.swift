import Foundation
import TestSupport
import Testing

/// `contacts sync` against a real Radicale on 127.0.0.1 (issue 20, items 2, 5 and 8): sync, --list,
/// --conflicts, and an authentication failure that says so, exits 1 and changes nothing.
@Suite(.serialized) struct SyncCLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Radicale with htpasswd (user ada, password `secret`) and an address book "family" with one card.
    static func radicale() throws -> (server: ScriptServer, base: String) {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".venv").path
        let htpasswd = Scratch.path("htpasswd")
        try Scratch.write("ada:secret\n", to: htpasswd)
        let server = try ScriptServer(
            python: URL(fileURLWithPath: venv + "/bin/python"),
            script: packageRoot.appendingPathComponent("Tests/CardDAVTests/Fixtures/dav_server.py"),
            arguments: ["--kind", "radicale", "--root", Scratch.path("radicale").path, "--htpasswd", htpasswd.path])
        let base = "http://127.0.0.1:\(server.port)"
        func curl(_ method: String, _ path: String, _ type: String, _ body: String) throws -> String {
            try runToEnd([
                "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ada:secret", "-X", method,
                "-H", "Content-Type: \(type)", "--data-binary", body, base + path,
            ]).output
        }
        let mkcol =
            #"<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><set><prop><resourcetype><collection/><C:addressbook/></resourcetype><displayname>Family</displayname></prop></set></mkcol>"#
        #expect(try curl("MKCOL", "/ada/family/", "application/xml", mkcol) == "201")
        let ada =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u-ada\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\n"
            + "EMAIL:ada@example.org\r\nEND:VCARD\r\n"
        #expect(try curl("PUT", "/ada/family/ada.vcf", "text/vcard", ada) == "201")
        return (server, base)
    }

    @Test func syncListAndPick() throws {
        let (server, base) = try Self.radicale()
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
        let (server, base) = try Self.radicale()
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
