import Foundation
import Synchronization
import Testing

@testable import Composer

/// `OutboxPolicy.retryUntil`: a run keeps the deferred messages and tries again until the server is back
/// (the project's fault SMTP server, started late on the port the run is trying) or the time is up.
@Suite("Send when back online", .serialized)
struct SendWhenBackOnlineTests {
    func drafts(_ count: Int) throws -> [MailDraft] {
        try (1...count).map { n in
            MailDraft(
                from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "c\(n)@example.org")],
                subject: "Nr. \(n)", textBody: "Hallo \(n)\n")
        }
    }

    /// A port nothing listens on now: that of a fault server started and stopped.
    func freePort() throws -> Int {
        try FaultSMTPServer().port
    }

    /// Deferred records in the journal so far.
    func deferredRecords(_ outbox: Outbox) -> Int {
        ((try? String(contentsOfFile: outbox.journalPath, encoding: .utf8)) ?? "")
            .components(separatedBy: #""e":"deferred""#).count - 1
    }

    @Test("refused connections are 'not yet': once the server is up everything is sent; 4xx retried, 5xx final")
    func serverComesBack() throws {
        guard requireVenv() else { return }
        let port = try freePort()
        let dir = try Env.tempDirectory("back-online")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try drafts(4))
        var policy = OutboxPolicy(maxAttempts: 1, backoff: 0.05)
        policy.maxBackoff = 0.2
        policy.retryUntil = Date().addingTimeInterval(300)
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:\(port)"))
        let result = Mutex<Result<DeliverySummary, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let run = policy
        DispatchQueue.global().async {
            // The run opens the outbox on its own thread (an Outbox is used by one thread at a time).
            let r = Result { try Outbox(directory: dir).send(using: smtp, policy: run) }
            result.withLock { $0 = r }
            finished.signal()
        }
        // Every message has been refused at least twice before the server starts.
        while deferredRecords(outbox) < 8 { Thread.sleep(forTimeInterval: 0.02) }
        let server = try FaultSMTPServer(
            faults: ["c2@example.org": [.data451, .data451], "c3@example.org": [.rcpt550]], port: port)
        finished.wait()
        let summary = try #require(try result.withLock { $0 }?.get())
        #expect(summary.sent == 3 && summary.failed == 1 && summary.deferred == 0)
        let status = try outbox.status()
        #expect(status.items.first { $0.state == .failed }?.lastCode == 550)
        #expect(status.items.allSatisfy { $0.attempts >= 3 })
        let counts = try server.storedCounts()
        #expect(counts.count == 3 && counts.values.allSatisfy { $0 == 1 })
    }

    @Test("when the time is up the messages stay deferred for a later run")
    func timeRunsOut() throws {
        guard requireVenv() else { return }
        let port = try freePort()
        let dir = try Env.tempDirectory("back-online-late")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try drafts(2))
        var policy = OutboxPolicy(maxAttempts: 1, backoff: 0.05)
        policy.maxBackoff = 0.1
        policy.retryUntil = Date().addingTimeInterval(2)
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:\(port)"))
        let summary = try outbox.send(using: smtp, policy: policy)
        #expect(summary.deferred == 2 && summary.sent == 0)
        #expect(try outbox.status().items.allSatisfy { $0.state == .deferred && $0.attempts >= 2 })
        // An unknown host is "not yet" too.
        let dns = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://no-such-host.invalid:25"))
        let again = try outbox.send(using: dns, policy: OutboxPolicy(maxAttempts: 1, backoff: 0))
        #expect(again.deferred == 2)
    }
}
