import Composer
import Foundation
import Testing

/// The one rule for delivery options (`compose`, `pick`, `outbox send`): one target, SMTP-only options
/// with SMTP alone, the password read only for SMTP and after the options it depends on.
@Suite("Delivery options")
struct DeliveryRequestTests {
    /// The message of the `invalidOptions` error `request.target()` throws, nil when it succeeds.
    private func refusal(_ request: DeliveryRequest) -> String? {
        do {
            _ = try request.target()
            return nil
        } catch ComposerError.invalidOptions(let text) {
            return text
        } catch {
            return "unexpected: \(error)"
        }
    }

    @Test("two targets are refused, naming the targets the command offers")
    func oneTarget() {
        var request = DeliveryRequest()
        request.smtp = "smtp://127.0.0.1:2525"
        request.sendmail = true
        #expect(refusal(request) == "choose one of --out, --smtp, --sendmail, --uri, --maildir, --mbox")
        request.transportsOnly = true
        #expect(refusal(request) == "choose one of --smtp, --sendmail")
        request.smtp = nil
        request.sendmail = false
        request.sendmailProgram = "/usr/sbin/sendmail"
        request.mbox = "mail.mbox"
        #expect(refusal(request)?.hasPrefix("choose one of") == true)
    }

    @Test("SMTP-only options without --smtp, and --sendmail-timeout with it, are refused")
    func smtpOnly() {
        for change in [
            { (r: inout DeliveryRequest) in r.startTLS = true }, { $0.user = "ada" }, { $0.passwordGiven = true },
            { $0.caFile = "ca.pem" }, { $0.auth = "plain" }, { $0.replyTimeout = 5 }, { $0.neverPlaintextAuth = true },
        ] {
            var request = DeliveryRequest()
            request.sendmail = true
            change(&request)
            #expect(refusal(request)?.hasSuffix("the SMTP timeouts go with --smtp") == true)
        }
        var request = DeliveryRequest()
        request.smtp = "smtp://127.0.0.1:2525"
        request.sendmailTimeout = 30
        #expect(refusal(request) == "--sendmail-timeout goes with --sendmail")
    }

    @Test("an SMTP target carries its options; the password is read for it alone")
    func smtpTarget() throws {
        var request = DeliveryRequest()
        request.smtp = "smtp://127.0.0.1:2525"
        request.startTLS = true
        request.user = "ada"
        request.auth = "login"
        request.connectTimeout = 3
        var asked: [String] = []
        let target = try request.target { config in
            asked.append(config.url)
            return "secret"
        }
        guard let config = target.transport as? SMTPConfiguration else {
            Issue.record("expected SMTP, got \(target)")
            return
        }
        #expect(config.startTLS == .required && config.username == "ada" && config.password == "secret")
        #expect(config.authMechanism == .login && config.connectTimeout == 3)
        #expect(asked.count == 1)
        request.auth = "cram"
        #expect(refusal(request) == "--auth: expected plain or login, got 'cram'")
        request.auth = nil
        request.allowPlaintextAuth = true
        request.neverPlaintextAuth = true
        #expect(refusal(request) == "--allow-plaintext-auth and --never-plaintext-auth exclude each other")

        var files = DeliveryRequest()
        #expect(!files.targetGiven)
        asked = []
        let target2 = try files.target { _ in
            asked.append("x")
            return nil
        }
        guard let files2 = target2.transport as? FileTransport else {
            Issue.record("expected files")
            return
        }
        #expect(files2.directory.path == URL(fileURLWithPath: ".").path && asked.isEmpty)
        files.maildir = "Mail"
        #expect(files.targetGiven)
    }

    @Test func theOptionsThatAddAWayToSendAreNamedForWhatIsMade() {
        #expect(
            DeliveryRequest.transportOptions(mail: true, texts: false)
                == "--smtp URL  --sendmail  --maildir DIR  --mbox FILE  --out DIR  --uri")
        #expect(DeliveryRequest.transportOptions(mail: false, texts: true) == "--sms-program PATH  --out DIR  --uri")
        #expect(
            DeliveryRequest.transportOptions(mail: true, texts: true)
                == "--smtp URL  --sendmail  --maildir DIR  --mbox FILE  --sms-program PATH  --out DIR  --uri")
    }
}
