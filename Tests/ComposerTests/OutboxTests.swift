import Foundation
import Testing

@testable import Composer

private func batch(_ count: Int, failing: Int? = nil) throws -> [MailDraft] {
    try (1...count).map { n in
        MailDraft(
            from: try MailAddress(name: "Anna", address: "anna@example.com"),
            to: [
                try MailAddress(
                    name: "Kontakt \(n)", address: n == failing ? "nobody@example.com" : "c\(n)@example.com")
            ],
            subject: "Einladung \(n)", textBody: "Hallo \(n)!\n")
    }
}

private func fastPolicy(attempts: Int = 3) -> OutboxPolicy {
    var p = OutboxPolicy()
    p.maxAttempts = attempts
    p.backoff = 0.02
    p.maxBackoff = 0.1
    return p
}

/// Each recipient's accepted messages, by Message-ID: every one must appear exactly once.
private func expectExactlyOnce(
    _ server: SMTPTestServer, recipients: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let got = try server.deliveries()
    let ids = got.compactMap(\.messageID)
    #expect(Set(ids).count == ids.count, "a message was delivered twice", sourceLocation: sourceLocation)
    #expect(got.flatMap(\.to).sorted() == recipients.sorted(), sourceLocation: sourceLocation)
}

@Suite("Outbox: exactly once across faults, crashes and resumes", .serialized)
struct OutboxTests {
    @Test("server stops mid-batch, answers 421/451 for a while and 550 for one recipient; resume completes")
    func faultsAndResume() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox")
        let outbox = try Outbox(directory: dir)
        let queued = try outbox.enqueue(try batch(12, failing: 7))
        #expect(queued.ids.count == 12 && queued.rejected.isEmpty)
        server.command("reject nobody@example.com 550")
        server.command("tempfail 421 1")
        server.command("datafail 451 2")
        server.command("stopafter 5")
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let first = try outbox.send(using: smtp, policy: fastPolicy())
        #expect(first.sent == 5)
        #expect(first.failed == 1 || first.failed == 0)  // 7 may come before or after the stop
        #expect(first.sent + first.failed + first.deferred == 12)
        var status = try outbox.status()
        #expect(status.count(.deferred) == first.deferred && first.deferred > 0)
        #expect(status.items.filter { $0.state == .deferred }.allSatisfy { $0.lastError != nil })

        server.command("start")
        let second = try Outbox(directory: dir).send(using: smtp, policy: fastPolicy())
        #expect(second.skipped == first.sent + first.failed)
        status = try outbox.status()
        #expect(status.count(.sent) == 11 && status.count(.failed) == 1)
        let failed = status.items.first { $0.state == .failed }
        #expect(failed?.recipients == ["nobody@example.com"] && failed?.lastCode == 550)
        try expectExactlyOnce(server, recipients: (1...12).filter { $0 != 7 }.map { "c\($0)@example.com" })

        // A third run has nothing left to do.
        let third = try outbox.send(using: smtp, policy: fastPolicy())
        #expect(third.sent == 0 && third.skipped == 12)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test(
        "a crash at any step, then a resume: each accepted message exactly once",
        arguments: [
            (Outbox.Step.beforeAttempt, 3), (.afterOutcome, 3), (.afterOutcome, 0),
        ])
    func crashThenResume(step: Outbox.Step, at index: Int) throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-crash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        let ids = try outbox.enqueue(try batch(6)).ids
        outbox.faultHook = { s, id in if s == step && id == ids[index] { throw OutboxFault() } }
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        #expect(throws: OutboxFault.self) { try outbox.send(using: smtp, policy: fastPolicy()) }
        let resumed = try Outbox(directory: dir)
        let summary = try resumed.send(using: smtp, policy: fastPolicy())
        #expect(try resumed.status().count(.sent) == 6 && summary.uncertain == 0)
        try expectExactlyOnce(server, recipients: (1...6).map { "c\($0)@example.com" })
    }

    @Test("a crash between the server's acceptance and the journal leaves it uncertain, not sent twice")
    func crashInTheUncertainWindow() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-uncertain")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        let ids = try outbox.enqueue(try batch(4)).ids
        outbox.faultHook = { s, id in if s == .afterDelivered && id == ids[1] { throw OutboxFault() } }
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        #expect(throws: OutboxFault.self) { try outbox.send(using: smtp, policy: fastPolicy()) }
        let summary = try Outbox(directory: dir).send(using: smtp, policy: fastPolicy())
        #expect(summary.uncertain == 1 && summary.sent == 2)
        #expect(try outbox.status().items[1].state == .uncertain)
        try expectExactlyOnce(server, recipients: (1...4).map { "c\($0)@example.com" })
    }

    @Test("a crash after the commit record but before the final dot: uncertain, delivered once when resent")
    func crashAtCommitThenResendUncertain() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-commit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        let ids = try outbox.enqueue(try batch(3)).ids
        outbox.faultHook = { s, id in if s == .afterCommit && id == ids[0] { throw OutboxFault() } }
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        #expect(throws: ComposerError.self) { try outbox.send(using: smtp, policy: fastPolicy()) }
        #expect(try server.deliveries().isEmpty)
        #expect(try outbox.status().items[0].state == .uncertain)
        var policy = fastPolicy()
        policy.resendUncertain = true
        let summary = try Outbox(directory: dir).send(using: smtp, policy: policy)
        #expect(summary.sent == 3)
        try expectExactlyOnce(server, recipients: (1...3).map { "c\($0)@example.com" })
    }

    @Test("wrong credentials stop the run without failing any message; the resume sends them all once")
    func configurationErrorsLeaveMessagesQueued() throws {
        guard requireVenv() else { return }
        let tls = try TLSFiles.generate()
        let server = try SMTPTestServer(mode: .smtps, tls: tls, auth: "anna:s3cret")
        let dir = try Env.tempDirectory("outbox-auth")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try batch(3))
        var config = try SMTPConfiguration(url: "smtps://localhost:\(server.port)")
        config.caFile = tls.cert.path
        config.username = "anna"
        config.password = "wrong"
        #expect {
            try outbox.send(using: try SMTPTransport(configuration: config), policy: fastPolicy())
        } throws: { error in
            guard case .authenticationFailed(535, _) = error as? ComposerError else { return false }
            return true
        }
        #expect(try outbox.status().count(.queued) == 3)
        config.password = "s3cret"
        #expect(try outbox.send(using: try SMTPTransport(configuration: config), policy: fastPolicy()).sent == 3)
        try expectExactlyOnce(server, recipients: (1...3).map { "c\($0)@example.com" })
    }

    @Test func rateLimitIsHonoured() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-rate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try batch(4))
        var policy = fastPolicy()
        policy.messagesPerMinute = 600  // one every 0.1 s
        let start = Date()
        var events = 0
        let summary = try outbox.send(
            using: try SMTPTransport(configuration: SMTPConfiguration(url: server.url)), policy: policy
        ) { _ in events += 1 }
        #expect(summary.sent == 4 && events == 4)
        #expect(Date().timeIntervalSince(start) >= 0.29)
    }

    @Test func badDraftsAreRejectedAndTheRestQueued() throws {
        let dir = try Env.tempDirectory("outbox-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        var drafts = try batch(3)
        drafts[1].subject = "bad\r\nBcc: x@example.com"
        let result = try Outbox(directory: dir).enqueue(drafts)
        #expect(result.ids == ["000001", "000002"])
        #expect(result.rejected == [.init(index: 1, error: .headerInjection(field: "subject"))])
        // Ids continue after existing ones; a torn journal line (crash mid-append) is tolerated and counted.
        let journal = dir.appendingPathComponent("journal.jsonl")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"e\":\"sent\",\"id\":\"0000".utf8))
        try handle.close()
        let again = try Outbox(directory: dir).enqueue(try batch(1))
        #expect(again.ids == ["000003"])
        let status = try Outbox(directory: dir).status()
        #expect(status.tornLines == 1 && status.items.count == 3 && status.count(.queued) == 3)
    }
}
