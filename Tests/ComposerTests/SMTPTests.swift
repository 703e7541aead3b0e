import Foundation
import Testing

@testable import Composer

private func draft(_ n: Int, to: String = "rcpt@example.com", bcc: [String] = []) throws -> MailDraft {
    MailDraft(
        from: try MailAddress(name: "Anna Example", address: "anna@example.com"),
        to: [try MailAddress(name: "Empfänger \(n)", address: to)],
        bcc: try bcc.map { try MailAddress(address: $0) },
        subject: "Nachricht \(n) — Grüße", textBody: "Hallo \(n),\nbis bald.\n")
}

@Suite("SMTP through libcurl against aiosmtpd", .serialized)
struct SMTPTests {
    @Test func plainDeliveryKeepsBccOutOfTheMessage() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        #expect(smtp.canSendMail)
        let result = try smtp.send(try draft(1, bcc: ["hidden@example.org"]))
        #expect(result == .sent)
        let got = try server.deliveries()
        #expect(got.count == 1)
        #expect(got.first?.from == "anna@example.com")
        #expect(got.first?.to == ["rcpt@example.com", "hidden@example.org"])
        let text = String(decoding: got.first?.message ?? [], as: UTF8.self)
        #expect(!text.contains("hidden@example.org") && text.contains("Subject: =?UTF-8?"))
        try checkEML([("received", got.first?.message ?? [])])
    }

    @Test func repliesKeepTheirCodes() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        server.command("reject nobody@example.com 550")
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        guard case .failed(.smtp(let code, let message)) = try smtp.send(try draft(1, to: "nobody@example.com")) else {
            Issue.record("expected an SMTP failure")
            return
        }
        #expect(code == 550 && message.contains("No such user"))
        server.command("datafail 451 1")
        guard case .failed(let e) = try smtp.send(try draft(2)), case .smtp(451, _) = e, e.isTransient else {
            Issue.record("expected 451")
            return
        }
        server.command("tempfail 421 1")
        guard case .failed(.smtp(421, _)) = try smtp.send(try draft(3)) else {
            Issue.record("expected 421")
            return
        }
        #expect(try smtp.send(try draft(4)) == .sent)
        #expect(try server.deliveries().count == 1)
    }

    @Test func envelopeIsValidatedBeforeAnythingIsSent() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let message = try MIMEWriter().write(try draft(1))
        for bad in ["a@example.com\r\nRCPT TO:<victim@example.com>", "a@example.com>", "no-at-sign", "ü@example.com"] {
            #expect(throws: ComposerError.self) {
                try smtp.deliver(message, from: "anna@example.com", to: [bad], onCommit: {})
            }
            #expect(throws: ComposerError.self) {
                try smtp.deliver(message, from: bad, to: ["x@example.com"], onCommit: {})
            }
        }
        #expect(try server.deliveries().isEmpty)
    }

    @Test func connectionRefusedIsATransientNetworkError() throws {
        var config = try SMTPConfiguration(url: "smtp://127.0.0.1:1")
        config.connectTimeout = 2
        let smtp = try SMTPTransport(configuration: config)
        guard case .failed(let e) = try smtp.send(try draft(1)), case .network = e, e.isTransient else {
            Issue.record("expected a network error")
            return
        }
        #expect(throws: ComposerError.self) { try SMTPConfiguration(url: "http://example.com") }
    }

    @Test func smtpsWithCAFileAndAuthPlain() throws {
        guard requireVenv() else { return }
        let tls = try TLSFiles.generate()
        let server = try SMTPTestServer(mode: .smtps, tls: tls, auth: "anna:s3cret")
        var config = try SMTPConfiguration(url: "smtps://localhost:\(server.port)")
        config.caFile = tls.cert.path
        config.username = "anna"
        config.password = "s3cret"
        config.authMechanism = .plain
        #expect(try SMTPTransport(configuration: config).send(try draft(1)) == .sent)
        config.password = "wrong"
        let wrong = try SMTPTransport(configuration: config).send(try draft(2))
        guard case .failed(.authenticationFailed(535, _)) = wrong else {
            Issue.record("expected 535 for a wrong password, got \(wrong)")
            return
        }
        // Without the CA file the self-signed certificate is refused.
        var untrusted = try SMTPConfiguration(url: "smtps://localhost:\(server.port)")
        untrusted.caFile = "/dev/null"
        guard case .failed(.tls) = try SMTPTransport(configuration: untrusted).send(try draft(3)) else {
            Issue.record("expected a TLS verification failure")
            return
        }
        let got = try server.deliveries()
        #expect(got.count == 1 && got[0].tls && got[0].auth)
        #expect(server.authMechanisms() == ["PLAIN"])
    }

    @Test func startTLSRequiredWithAuthLogin() throws {
        guard requireVenv() else { return }
        let tls = try TLSFiles.generate()
        let server = try SMTPTestServer(mode: .starttls, requireStartTLS: true, tls: tls, auth: "anna:s3cret")
        var config = try SMTPConfiguration(url: "smtp://localhost:\(server.port)")
        config.startTLS = .required
        config.caFile = tls.cert.path
        config.username = "anna"
        config.password = "s3cret"
        config.authMechanism = .login
        #expect(try SMTPTransport(configuration: config).send(try draft(1)) == .sent)
        let got = try server.deliveries()
        #expect(got.count == 1 && got[0].tls && got[0].auth)
        #expect(server.authMechanisms() == ["LOGIN"])

        // A plain server cannot satisfy "STARTTLS required": nothing is sent in clear.
        let plain = try SMTPTestServer()
        var strict = try SMTPConfiguration(url: plain.url)
        strict.startTLS = .required
        guard case .failed(.tls) = try SMTPTransport(configuration: strict).send(try draft(2)) else {
            Issue.record("expected failure without STARTTLS")
            return
        }
        strict.startTLS = .optional
        #expect(try SMTPTransport(configuration: strict).send(try draft(3)) == .sent)
        #expect(try plain.deliveries().count == 1)
    }
}
