import Foundation
import TestSupport
import Testing

/// A real CardDAV server (Radicale or Xandikos from the project's venv, or Cyrus IMAP's CardDAV from
/// Debian's cyrus-common and cyrus-caldav) on 127.0.0.1, started for a test and stopped with it, and `curl`
/// as an independent client to change the server's side.
final class DAVServer {
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case radicale, xandikos, cyrus
        var description: String { rawValue }
        /// Whether the server asks for the user and password (Xandikos runs without authentication).
        var needsLogin: Bool { self != .xandikos }
    }

    let kind: Kind
    let server: ScriptServer
    let root: URL
    /// `http://127.0.0.1:PORT`
    let base: String
    /// The user the tests sync as (Radicale: any user without authentication; Cyrus: the user the fixture
    /// made, with the password "secret").
    let user = "ada"
    var password = "secret"

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var python: URL {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".venv").path
        return URL(fileURLWithPath: venv + "/bin/python")
    }

    init(_ kind: Kind, htpasswd: String? = nil) throws {
        self.kind = kind
        root = Scratch.path("dav-\(kind)")
        var arguments = ["--kind", kind.rawValue, "--root", root.path]
        if let htpasswd {
            let file = Scratch.path("htpasswd")
            try Scratch.write(htpasswd, to: file)
            arguments += ["--htpasswd", file.path]
        }
        server = try ScriptServer(
            python: Self.python,
            script: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Fixtures/dav_server.py"),
            arguments: arguments)
        base = "http://127.0.0.1:\(server.port)"
        if kind == .radicale && htpasswd == nil { try makeCollection() }
    }

    /// Creates the address book on Radicale (`MKCOL`, display name "Family"), as the user and password.
    func makeCollection() throws {
        let made = try curl(
            "MKCOL", collection,
            body: """
                <?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><set><prop>\
                <resourcetype><collection/><C:addressbook/></resourcetype><displayname>Family</displayname>\
                </prop></set></mkcol>
                """)
        #expect(made.status == 201, "MKCOL: \(made.status) \(made.body)")
    }

    deinit { server.stop() }

    /// The address book's URL.
    var collection: String { base + collectionPath }

    /// The address book's path on the server.
    var collectionPath: String {
        switch kind {
        case .radicale: "/\(user)/family/"
        case .xandikos: "/user/contacts/addressbook/"
        case .cyrus: "/dav/addressbooks/user/\(user)/Default/"
        }
    }

    /// `curl -X METHOD url` (with the user when the server is Radicale): status and body.
    @discardableResult
    func curl(_ method: String, _ url: String, body: String? = nil, headers: [String] = []) throws -> (
        status: Int, body: String
    ) {
        var args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, url]
        if kind.needsLogin { args += ["-u", "\(user):\(password)"] }
        for h in headers { args += ["-H", h] }
        if let body {
            args += ["--data-binary", body]
            if !headers.contains(where: { $0.lowercased().hasPrefix("content-type") }) {
                args += ["-H", "Content-Type: application/xml"]
            }
        }
        let r = try runToEnd(["curl"] + args)
        let text = r.output
        let cut = text.lastIndex(of: "\n") ?? text.endIndex
        return (Int(text[text.index(after: cut)...]) ?? 0, String(text[..<cut]))
    }

    /// Puts a card on the server at `name` (unconditionally).
    func put(_ name: String, _ card: String) throws {
        let r = try curl("PUT", collection + name, body: card, headers: ["Content-Type: text/vcard"])
        #expect((200...299).contains(r.status), "PUT \(name): \(r.status) \(r.body)")
    }

    func get(_ name: String) throws -> (status: Int, body: String) { try curl("GET", collection + name) }

    func delete(_ name: String) throws {
        let r = try curl("DELETE", collection + name)
        #expect((200...299).contains(r.status), "DELETE \(name): \(r.status)")
    }

    /// The member names of the address book.
    func members() throws -> [String] {
        let r = try curl(
            "PROPFIND", collection,
            body: #"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>"#,
            headers: ["Depth: 1"])
        var names: [String] = []
        var rest = Substring(r.body)
        while let open = rest.range(of: "href>") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: "<") else { break }
            let href = String(rest[..<close])
            if href.hasSuffix(".vcf") { names.append(String(href.split(separator: "/").last ?? "")) }
        }
        return names.sorted()
    }
}

/// A vCard 3.0 card.
func card(_ uid: String, _ given: String, _ family: String, email: String? = nil, extra: [String] = []) -> String {
    var lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(given) \(family)", "N:\(family);\(given);;;"]
    if let email { lines.append("EMAIL:\(email)") }
    return (lines + extra + ["END:VCARD", ""]).joined(separator: "\r\n")
}
