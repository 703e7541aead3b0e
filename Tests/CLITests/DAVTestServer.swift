import Foundation
import TestSupport
import Testing

/// A real Radicale (from the project's venv, `Tests/CardDAVTests/Fixtures/dav_server.py`) on 127.0.0.1 for
/// the CLI tests and the documentation's examples: htpasswd user `ada`, password `secret`, and an address
/// book "family" (`/ada/family/`) holding one card, Ada Lovelace.
enum DAVTestServer {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Starts one; stopped when the returned server goes.
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

    /// A password file (owner-only) holding the server's password.
    static func passwordFile() throws -> URL {
        let password = Scratch.path("pw")
        try Scratch.write("secret\n", to: password)
        chmod(password.path, 0o600)
        return password
    }
}
