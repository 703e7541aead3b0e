import CurlTransfer
import Foundation
import TestSupport
import Testing

@testable import CardDAV

/// How credentials reach a server (issue 20, item 5): Basic at once where nobody else reads it, Digest when
/// the server asks for it, and no request refused for want of credentials along the way. The fault proxy
/// logs the scheme each request carried and what it was answered.
@Suite(.serialized) struct AuthenticationTests {
    /// The proxy's log: one (method, scheme, status) a request.
    static func log(_ file: URL) throws -> [(method: String, scheme: String, status: Int)] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            let words = line.split(separator: " ").map(String.init)
            return (words[0], words[1], Int(words[2]) ?? 0)
        }
    }

    static func client(_ url: String, password: String) throws -> CardDAVClient {
        try CardDAVClient(account: CardDAVAccount(url: url, user: "ada", password: password))
    }

    @Test func basicGoesWithTheFirstRequestOnThisMachine() throws {
        let server = try DAVServer(.radicale, htpasswd: "ada:secret\n")
        try server.makeCollection()
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        let logFile = Scratch.path("auth-basic.log")
        let (proxy, base) = try FaultTests.proxy(server.base, [], arguments: ["--log", logFile.path])
        defer { proxy.stop() }
        let dir = Scratch.path("auth-basic")
        let summary = try VDirSync(client: try Self.client(base + "/ada/family/", password: "secret"), folder: dir.path)
            .run(bookName: nil)
        #expect(summary.pulled == 1)
        let log = try Self.log(logFile)
        // No request went without credentials to be refused first (Radicale makes a refusal wait 0.5–1.5 s).
        #expect(log.count == summary.requests)
        #expect(log.allSatisfy { $0.scheme == "Basic" && $0.status != 401 }, "\(log)")
    }

    @Test func aServerAskingForDigestGetsDigest() throws {
        let server = try DAVServer(.radicale)
        try server.put("ada.vcf", card("u-ada", "Ada", "Lovelace"))
        try server.put("bob.vcf", card("u-bob", "Bob", "Stone"))
        let logFile = Scratch.path("auth-digest.log")
        let (proxy, base) = try FaultTests.proxy(
            server.base, [], arguments: ["--digest", "ada:secret", "--log", logFile.path])
        defer { proxy.stop() }
        let url = base + "/ada/family/"

        // A wrong password: a clear error, nothing written.
        let refused = Scratch.path("auth-digest-wrong")
        #expect(throws: CardDAVError.authenticationFailed(url: url)) {
            try VDirSync(client: try Self.client(url, password: "wrong"), folder: refused.path).run(bookName: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: refused.path))

        try FileManager.default.removeItem(at: logFile)
        let dir = Scratch.path("auth-digest")
        let client = try Self.client(url, password: "secret")
        let summary = try VDirSync(client: client, folder: dir.path).run(bookName: nil)
        #expect(summary.pulled == 2)
        let log = try Self.log(logFile)
        // Basic went first (this machine) and was refused; from then on, Digest only.
        #expect(log.first?.scheme == "Basic" && log.first?.status == 401, "\(log)")
        let answered = log.filter { $0.status != 401 }
        #expect(answered.count == summary.requests, "\(log)")
        #expect(answered.allSatisfy { $0.scheme == "Digest" }, "\(log)")
        #expect(!log.dropFirst().contains { $0.scheme == "Basic" }, "\(log)")
    }

    @Test func basicGoesAtOnceOnlyWhereNobodyElseReadsIt() {
        for url in [
            "https://dav.example.org/", "HTTPS://dav.example.org/ada/", "http://127.0.0.1:5232/", "http://localhost/",
        ] {
            #expect(HTTPClient.sendsBasicAtOnce(url), "\(url)")
        }
        for url in ["http://dav.example.org/", "http://10.0.0.1:5232/ada/", "http://127.example.org/"] {
            #expect(!HTTPClient.sendsBasicAtOnce(url), "\(url)")
        }
    }
}
