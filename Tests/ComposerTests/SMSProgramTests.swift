import Foundation
import Testing

@testable import Composer

/// Text messages through an SMS program, queued in an outbox beside mail: exit 0 sent, 75 retried, other
/// failed; segments counted; exactly once.
@Suite("SMS program transport", .serialized)
struct SMSProgramTests {
    /// A program that logs "NUMBER|BODY" and exits as the number says: …0175 with 75 until `allow` exists,
    /// …0199 with 3, others 0.
    func program(in dir: URL) throws -> URL {
        let script = dir.appendingPathComponent("send-sms")
        try """
        #!/bin/sh
        body=$(cat)
        case "$1" in
          *0175) [ -e "\(dir.path)/allow" ] || { echo "modem busy"; exit 75; } ;;
          *0199) echo "unknown subscriber" >&2; exit 3 ;;
        esac
        printf '%s|%s\\n' "$1" "$body" >> "\(dir.path)/log"
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    func log(_ dir: URL) -> [String] {
        ((try? String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    @Test("queued beside mail: sent, retried on 75, failed otherwise; segments counted; resume sends the rest once")
    func outboxWithTexts() throws {
        let dir = try Env.tempDirectory("sms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sms = SMSProgramTransport(path: try program(in: dir).path)
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        let long = String(repeating: "Grüße aus Zürich! ", count: 10)  // GSM 7-bit with extension-free chars
        let texts = [
            MessageDraft(recipients: ["+15555550100", "+15555550175"], body: "See you at 6 ✓"),
            MessageDraft(recipients: ["+15555550199"], body: long),
            MessageDraft(recipients: ["555-0100"], body: "no country"),
        ]
        let mail = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Hi", textBody: "Hi\n")
        guard case .queued(let queued) = try outbox.enqueueOnce([mail], texts: texts, textLabels: ["A", "B", "C"])
        else {
            Issue.record("not queued")
            return
        }
        #expect(queued.ids.count == 4)
        #expect(queued.rejected.map(\.index) == [3] && queued.rejected.first?.error == .invalidPhoneNumber("555-0100"))
        var policy = OutboxPolicy(maxAttempts: 2, backoff: 0.01)
        policy.maxBackoff = 0.02
        let first = try outbox.send(using: nil, texts: sms, policy: policy)
        #expect(first.sent == 1 && first.failed == 1 && first.deferred == 1 && first.notCarried == 1)
        #expect(first.textsSent == 1 && first.textSegments == 1)
        let status = try outbox.status()
        #expect(status.items.map(\.kind) == [.mail, .text, .text, .text])
        let failed = status.items.first { $0.state == .failed }
        #expect(failed?.recipients == ["+15555550199"] && failed?.lastError?.contains("exited with 3") == true)
        #expect(status.items.first { $0.state == .deferred }?.lastError?.contains("modem busy") == true)
        #expect(try String(contentsOfFile: outbox.journalPath, encoding: .utf8).contains(#""kind":"text""#))

        try Data().write(to: dir.appendingPathComponent("allow"))
        let second = try outbox.send(using: nil, texts: sms, policy: policy)
        #expect(second.sent == 1 && second.skipped == 2 && second.notCarried == 1)
        #expect(log(dir) == ["+15555550100|See you at 6 ✓", "+15555550175|See you at 6 ✓"])
        #expect(SMSSegments.count(long).segments == 2)
    }

    @Test("a program that is not there, and a draft to several numbers sent directly")
    func direct() throws {
        let dir = try Env.tempDirectory("sms-direct")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sms = SMSProgramTransport(path: try program(in: dir).path)
        #expect(try sms.send(MessageDraft(recipients: ["+15555550100", "+15555550101"], body: "Hallo")) == .sent)
        #expect(log(dir) == ["+15555550100|Hallo", "+15555550101|Hallo"])
        let missing = SMSProgramTransport(path: dir.appendingPathComponent("nope").path)
        #expect(!missing.canSendText)
        #expect(throws: ComposerError.self) {
            try missing.deliver(Array("x".utf8), from: "", to: ["+15555550100"], onCommit: {})
        }
    }
}
