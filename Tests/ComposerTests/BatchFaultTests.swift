import Foundation
import TestSupport
import Testing

@testable import Composer

private func batchDrafts(_ recipients: [String]) throws -> [MailDraft] {
    try recipients.enumerated().map { n, address in
        MailDraft(
            from: try MailAddress(name: "Anna", address: "anna@example.com"),
            to: [try MailAddress(name: "Kontakt \(n + 1)", address: address)],
            subject: "Einladung \(n + 1)", textBody: "Hallo \(n + 1)!\n")
    }
}

@Suite("contacts outbox send: faults, kill -9 and Ctrl-C on a 200-message batch", .serialized)
struct BatchFaultTests {
    /// Tiny timeouts and retries so that every fault costs little time.
    static let fast = [
        "--reply-timeout", "2", "--command-timeout", "2", "--connect-timeout", "2", "--attempts", "2",
        "--backoff", "0.01",
    ]

    @Test("SIGINT finishes the message in flight (sent, not uncertain), prints how to resume, exits 130")
    func sigintIsGraceful() throws {
        guard requireVenv() else { return }
        guard let contacts = Env.contactsExecutable else {
            Issue.record("contacts executable not found: build it with `swift build --build-tests`")
            return
        }
        let recipients = (1...6).map { "i\($0)@example.com" }
        let server = try FaultSMTPServer(faults: [recipients[1]: [.slowOK]], slowOK: 0.8)
        let dir = try Env.tempDirectory("outbox-sigint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        _ = try outbox.enqueue(try batchDrafts(recipients))
        let run = try BackgroundProcess(
            contacts, ["outbox", "send", outbox.directory.path, "--smtp", server.url] + Self.fast, scratch: dir)
        // The second message is stored and its reply is 0.8 s away: interrupt now.
        let deadline = Date().addingTimeInterval(20)
        while try server.stored().count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        kill(run.process.processIdentifier, SIGINT)
        #expect(run.wait())
        #expect(run.exitedWith == 130, "\(run.process.terminationReason) \(run.stderr)")
        #expect(run.stdout.contains("summary: sent 2, failed 0, skipped 0"), "\(run.stdout)")
        #expect(run.stdout.contains("interrupted: 4 message(s) not sent yet; resume with: contacts outbox send"))
        #expect(run.stderr.contains("finishing the message in flight"))
        let status = try outbox.status()
        #expect(status.count(.sent) == 2 && status.count(.uncertain) == 0 && status.count(.queued) == 4)

        let resume = try BackgroundProcess(
            contacts, ["outbox", "send", outbox.directory.path, "--smtp", server.url] + Self.fast, scratch: dir)
        #expect(resume.wait() && resume.exitedWith == 0)
        #expect(try server.storedCounts().count == 6 && server.storedCounts().values.allSatisfy { $0 == 1 })
    }

    @Test("a second SIGTERM stops at once and kills the hanging sendmail's process group")
    func secondSignalKillsSendmail() throws {
        guard let contacts = Env.contactsExecutable else {
            Issue.record("contacts executable not found: build it with `swift build --build-tests`")
            return
        }
        let dir = try Env.tempDirectory("outbox-sigterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("sendmail")
        try """
        #!/bin/sh
        echo $$ > "\(dir.path)/pid"
        sleep 60 &
        echo $! > "\(dir.path)/child"
        wait
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        _ = try outbox.enqueue(try batchDrafts(["a@example.com", "b@example.com"]))
        let run = try BackgroundProcess(
            contacts,
            ["outbox", "send", outbox.directory.path, "--sendmail-program", script.path, "--sendmail-timeout", "20"],
            scratch: dir)
        let child = dir.appendingPathComponent("child")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: child.path) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        Thread.sleep(forTimeInterval: 0.05)
        let pids = try ["pid", "child"].map {
            Int32(try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8).trimmed) ?? 0
        }
        kill(run.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(run.process.isRunning, "the first signal waits for the message in flight")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.wait(timeout: 10))
        #expect(run.exitedWith == 130, "\(run.process.terminationReason) \(run.stderr)")
        // Either the watcher exits at once, or the run notices its killed sendmail first and ends itself.
        #expect((run.stdout + run.stderr).contains("resume with: contacts outbox send"))
        for pid in pids { #expect(pid > 0 && processEnds(pid), "sendmail process \(pid) outlived contacts") }
        // The message handed to the killed sendmail may have been queued by it: uncertain, not resent.
        let status = try outbox.status()
        #expect(status.items[0].state == .uncertain && status.items[1].state == .queued)
    }

    @Test("200 messages through every fault, kill -9 and SIGINT at seeded random points: exactly once or uncertain")
    func batchOf200() throws {
        guard requireVenv() else { return }
        guard let contacts = Env.contactsExecutable else {
            Issue.record("contacts executable not found: build it with `swift build --build-tests`")
            return
        }
        var rng = SplitMix64(seed: 0xC0FFEE)
        let recipients = (1...200).map { "r\($0)@example.com" }
        // 48 recipients with a fault each (the slow one only twice: it costs a timeout), a few of them two.
        var plan: [FaultSMTPServer.Fault] = []
        for fault in FaultSMTPServer.Fault.allCases {
            plan += Array(repeating: fault, count: fault == .slowReply ? 2 : 6)
        }
        var faults: [String: [FaultSMTPServer.Fault]] = [:]
        let chosen = recipients.shuffled(using: &rng).prefix(plan.count)
        for (address, fault) in zip(chosen, plan) { faults[address] = [fault] }
        for address in chosen.prefix(8) where faults[address]?.first == .data451 || faults[address]?.first == .rcpt451 {
            faults[address]?.append(.dropAfterStore)
        }
        let permanent = Set(faults.filter { $0.value.contains(.rcpt550) || $0.value.contains(.data554) }.keys)
        let server = try FaultSMTPServer(faults: faults, connect421: [2, 5, 9], slow: 5, slowOK: 0.2)

        let dir = try Env.tempDirectory("outbox-200")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        #expect(try outbox.enqueue(try batchDrafts(recipients)).ids.count == 200)
        let ids = try messageIDs(outbox)
        let send = ["outbox", "send", outbox.directory.path, "--smtp", server.url] + Self.fast

        enum Disturbance { case kill9, sigint }
        let disturbances: [Disturbance] = [.kill9, .sigint, .kill9, .sigint, .kill9, .sigint]
        var runs = 0
        var interruptedRuns = 0
        for disturbance in disturbances {
            let before = try server.stored().count
            let after = Int.random(in: 3...25, using: &rng)
            let run = try BackgroundProcess(contacts, send, scratch: dir)
            runs += 1
            let deadline = Date().addingTimeInterval(30)
            while try run.process.isRunning && server.stored().count < before + after && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.002)
            }
            guard run.process.isRunning else { continue }
            kill(run.process.processIdentifier, disturbance == .kill9 ? SIGKILL : SIGINT)
            #expect(run.wait(timeout: 30))
            if disturbance == .sigint, run.exitedWith == 130 {
                interruptedRuns += 1
                #expect(run.stdout.contains("interrupted: ") && run.stdout.contains("resume with:"))
            } else if disturbance == .kill9 {
                #expect(run.process.terminationReason == .uncaughtSignal)
            }
        }
        #expect(interruptedRuns >= 2, "SIGINT runs should end with 130")
        // Resume until nothing is queued or deferred.
        while try outbox.status().items.contains(where: { $0.state == .queued || $0.state == .deferred }) {
            let run = try BackgroundProcess(contacts, send, scratch: dir)
            #expect(run.wait(timeout: 60))
            runs += 1
            if runs > 30 {
                Issue.record("still not done after \(runs) runs")
                return
            }
        }

        func check(final: Bool, _ items: [OutboxItem]) throws -> [OutboxItem] {
            let counts = try server.storedCounts()
            #expect(counts.values.allSatisfy { $0 == 1 }, "a message was stored twice")
            var uncertain: [OutboxItem] = []
            for item in items {
                let address = item.recipients[0]
                let stored = counts[ids[item.id] ?? "", default: 0]
                switch item.state {
                case .sent: #expect(stored == 1, "\(address): sent, stored \(stored) times")
                case .failed:
                    #expect(stored == 0 && permanent.contains(address), "\(address): failed (\(item.lastError ?? ""))")
                case .uncertain:
                    #expect(!final && stored <= 1, "\(address): uncertain, stored \(stored) times")
                    uncertain.append(item)
                case .queued, .deferred: Issue.record("\(address): still \(item.state)")
                }
                // A kill -9 after the final dot of a message the server then rejects (554) leaves it uncertain, as
                // any message is then: settled with --resend, it is refused again and ends failed.
                if permanent.contains(address) {
                    #expect(item.state == .failed || (!final && item.state == .uncertain), "\(address)")
                }
            }
            return uncertain
        }
        let uncertain = try check(final: false, outbox.status().items)
        #expect(!uncertain.isEmpty, "drops after storing must leave messages uncertain")

        // Settle each uncertain message from the server's record, then the last run delivers the rest.
        let counts = try server.storedCounts()
        let arrived = uncertain.filter { counts[ids[$0.id] ?? ""] == 1 }.map(\.id)
        let missing = uncertain.filter { counts[ids[$0.id] ?? ""] == nil }.map(\.id)
        for (list, flag) in [(arrived, "--sent"), (missing, "--resend")] where !list.isEmpty {
            let settle = try BackgroundProcess(
                contacts, ["outbox", "settle", outbox.directory.path] + list + [flag], scratch: dir)
            #expect(settle.wait() && settle.exitedWith == 0, "\(settle.stderr)")
        }
        let last = try BackgroundProcess(contacts, send, scratch: dir)
        #expect(last.wait())
        _ = try check(final: true, outbox.status().items)
        let delivered = try server.storedCounts()
        #expect(delivered.count == 200 - permanent.count, "every message but the refused ones arrived once")
    }
}
