import Foundation
import Testing

@testable import Composer

private func note() throws -> MailDraft {
    MailDraft(
        from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "rcpt@example.com")],
        subject: "Hallo", textBody: "Hallo.\n")
}

/// Credentials never travel in clear text: AUTH only after TLS, unless the server is on the loopback
/// interface or plaintext AUTH is allowed explicitly; no password in a URL.
@Suite("SMTP credentials and TLS", .serialized)
struct CredentialsTLSTests {
    @Test func loopbackAddresses() {
        for address in ["127.0.0.1", "127.255.3.4", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"] {
            #expect(SMTPConfiguration.isLoopback(address), "\(address)")
        }
        for address in [
            "10.0.0.1", "192.0.2.7", "0.0.0.0", "128.0.0.1", "2001:db8::1", "::ffff:10.0.0.1", "::", "::2",
            "localhost", "127.0.0.1.example.com", "",
        ] {
            #expect(!SMTPConfiguration.isLoopback(address), "\(address)")
        }
    }

    @Test func theRuleTakesTheResolvedPeers() throws {
        var config = try SMTPConfiguration(url: "smtp://mail.example.com:587")
        #expect(!config.credentialsNeedTLS(peers: ["192.0.2.7"]))  // no user: nothing to protect
        config.username = "ada"
        #expect(config.credentialsNeedTLS(peers: ["192.0.2.7"]))
        #expect(config.credentialsNeedTLS(peers: ["127.0.0.1", "192.0.2.7"]))
        #expect(config.credentialsNeedTLS(peers: []))
        #expect(!config.credentialsNeedTLS(peers: ["127.0.0.1", "::1"]))
        config.plaintextAuth = .never
        #expect(config.credentialsNeedTLS(peers: ["127.0.0.1"]))
        config.plaintextAuth = .allowed
        #expect(!config.credentialsNeedTLS(peers: ["192.0.2.7"]))
        var smtps = try SMTPConfiguration(url: "smtps://mail.example.com")
        smtps.username = "ada"
        smtps.plaintextAuth = .never
        #expect(!smtps.credentialsNeedTLS(peers: ["192.0.2.7"]))  // TLS from the first byte
        #expect(smtps.hostAndPort == ("mail.example.com", 465))
        let local = try SMTPConfiguration(url: "smtp://localhost:2525")
        #expect(!local.resolvePeers().isEmpty && local.resolvePeers().allSatisfy(SMTPConfiguration.isLoopback))
        #expect(try SMTPConfiguration(url: "smtp://127.0.0.1:2525").resolvePeers() == ["127.0.0.1"])
    }

    @Test func aPasswordInTheURLIsRefusedWithoutShowingIt() {
        for url in [
            "smtp://ada:hunter2@mail.example.com", "smtps://ada@mail.example.com:465/x", "smtp://a%40b:hunter2@h",
        ] {
            do {
                _ = try SMTPConfiguration(url: url)
                Issue.record("\(url) accepted")
            } catch {
                let text = "\(error)"
                #expect(text.contains("--user") && text.contains("--password-file"), "\(text)")
                #expect(!text.contains("hunter2") && !text.contains("ada"), "\(text)")
            }
        }
    }

    @Test func onTheLoopbackInterfaceAuthMayGoWithoutTLS() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer(auth: "anna:s3cret")
        var config = try SMTPConfiguration(url: server.url)
        config.username = "anna"
        config.password = "s3cret"
        let report = try SMTPTransport(configuration: config).checkSession()
        #expect(report.tls == .none && report.authentication != nil)
        #expect(try SMTPTransport(configuration: config).send(try note()) == .sent)
        let got = try server.deliveries()
        #expect(got.count == 1 && got[0].auth && !got[0].tls)
    }

    /// The refusal path a server off the loopback interface takes, on a loopback server with plaintext
    /// AUTH turned off: no STARTTLS offered, so no AUTH is sent and nothing is delivered.
    @Test func withoutTLSNoAuthIsSent() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer(auth: "anna:s3cret")
        var config = try SMTPConfiguration(url: server.url)
        config.username = "anna"
        config.password = "s3cret"
        config.plaintextAuth = .never
        #expect(throws: ComposerError.credentialsNeedTLS(server: server.url)) {
            try SMTPTransport(configuration: config).check()
        }
        guard case .failed(.credentialsNeedTLS) = try SMTPTransport(configuration: config).send(try note()) else {
            Issue.record("expected the refusal")
            return
        }
        #expect(server.authMechanisms().isEmpty)
        #expect(try server.deliveries().isEmpty)
        #expect(ComposerError.credentialsNeedTLS(server: server.url).isConfigurationError)
    }

    @Test func withSTARTTLSAuthComesAfterIt() throws {
        guard requireVenv() else { return }
        let tls = try TLSFiles.generate()
        let server = try SMTPTestServer(mode: .starttls, tls: tls, auth: "anna:s3cret")
        var config = try SMTPConfiguration(url: "smtp://localhost:\(server.port)")
        config.caFile = tls.cert.path
        config.startTLS = .optional
        config.username = "anna"
        config.password = "s3cret"
        config.plaintextAuth = .never
        let report = try SMTPTransport(configuration: config).checkSession()
        #expect(report.tls == .startTLS && report.authentication != nil, "\(report)")
        #expect(try SMTPTransport(configuration: config).send(try note()) == .sent)
        let got = try server.deliveries()
        #expect(got.count == 1 && got[0].tls && got[0].auth)
    }

    /// `check` says only what happened: a server that offers no AUTH did not accept any.
    @Test func theCheckSaysWhenNoAuthWasOffered() throws {
        guard requireVenv() else { return }
        let server = try FaultSMTPServer()
        var config = try SMTPConfiguration(url: server.url)
        config.username = "anna"
        config.password = "s3cret"
        let lines = try Delivery(target: .smtp(config)).check()
        #expect(
            lines.first
                == "\(server.url): connected, EHLO accepted, no TLS; the server offered no AUTH: the user name and "
                + "password were not used", "\(lines)")
        #expect(!lines.joined().contains("s3cret"))
        #expect(!server.commands().contains { $0.uppercased().hasPrefix("AUTH") })
    }
}
