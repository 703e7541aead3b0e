import Foundation
import Testing

@testable import Composer

/// A refused Cc or Bcc does not sink the recipient's own mail: the server's accepted recipients get it,
/// each refused one is recorded by address, and a later run sends to the deferred ones alone.
@Suite("Partial RCPT acceptance", .serialized)
struct PartialRecipientsTests {
    @Test("550 on the Cc and 451 on the Bcc: the To gets it; the resume sends to the Bcc alone, never again to the To")
    func refusedCopiesDoNotSinkTheMessage() throws {
        guard requireVenv() else { return }
        let server = try FaultSMTPServer(
            faults: ["cc@example.org": [.rcpt550], "bcc@example.org": [.rcpt451]])
        let dir = try Env.tempDirectory("partial-rcpt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue([
            MailDraft(
                from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "to@example.org")],
                cc: [try MailAddress(address: "cc@example.org")], bcc: [try MailAddress(address: "bcc@example.org")],
                subject: "Hallo", textBody: "Hallo.\n")
        ])
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let first = try outbox.send(using: smtp, policy: OutboxPolicy(maxAttempts: 1, backoff: 0.05))
        #expect(first.sent == 1 && first.failed == 0 && first.deferred == 0, "\(first)")
        #expect(first.refusedRecipients == ["cc@example.org"] && first.deferredRecipients == 1)
        #expect(try server.stored().map(\.to) == [["to@example.org"]])
        let item = try #require(try Outbox(directory: dir).status().items.first)
        #expect(item.state == .deferred)
        #expect(item.state(of: "to@example.org") == .sent && item.state(of: "cc@example.org") == .failed)
        #expect(item.state(of: "bcc@example.org") == .deferred)
        #expect(item.recipientErrors["cc@example.org"]?.contains("550") == true)
        #expect(item.recipientErrors["cc@example.org"]?.contains("cc@example.org") == true)
        #expect(first.outcome == .incomplete)

        let second = try Outbox(directory: dir).send(using: smtp, policy: OutboxPolicy(maxAttempts: 1))
        #expect(second.sent == 1 && second.refusedRecipients.isEmpty && second.deferredRecipients == 0)
        #expect(try server.stored().map(\.to) == [["to@example.org"], ["bcc@example.org"]])
        let done = try #require(try Outbox(directory: dir).status().items.first)
        #expect(done.state == .sent && done.state(of: "cc@example.org") == .failed)
        // Nothing is left to send: a third run sends nothing to anyone.
        let third = try Outbox(directory: dir).send(using: smtp)
        #expect(third.sent == 0 && third.skipped == 1)
        #expect(try server.stored().count == 2)
    }
}
