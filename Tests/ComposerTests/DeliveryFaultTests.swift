import Foundation
import TestSupport
import Testing

@testable import Composer

private func drafts(_ recipients: [String]) throws -> [MailDraft] {
    try recipients.enumerated().map { n, address in
        MailDraft(
            from: try MailAddress(name: "Anna", address: "anna@example.com"),
            to: [try MailAddress(name: "Kontakt \(n + 1)", address: address)],
            subject: "Einladung \(n + 1)", textBody: "Hallo \(n + 1)!\n")
    }
}

private func quickPolicy(attempts: Int = 3) -> OutboxPolicy {
    var p = OutboxPolicy()
    p.maxAttempts = attempts
    p.backoff = 0.01
    p.maxBackoff = 0.05
    return p
}

/// Message-ID of each outbox item, by id.
func messageIDs(_ outbox: Outbox) throws -> [String: String] {
    var ids: [String: String] = [:]
    for item in try outbox.status().items {
        ids[item.id] = try messageID(ofFile: outbox.messagesDirectory.appendingPathComponent("\(item.id).eml"))
    }
    return ids
}

@Suite("Delivery faults: after the final dot only the server's reply is definite", .serialized)
struct DeliveryFaultTests {
    @Test("each SMTP fault ends in the right state, and nothing the server stored is sent again")
    func everyFaultOnce() throws {
        guard requireVenv() else { return }
        let recipients = (1...9).map { "f\($0)@example.com" }
        let server = try FaultSMTPServer(
            faults: [
                recipients[0]: [.dropAfterStore], recipients[1]: [.slowReply], recipients[2]: [.slowOK],
                recipients[3]: [.data451], recipients[4]: [.data554], recipients[5]: [.rcpt550],
                recipients[6]: [.rcpt451], recipients[7]: [.dropMidData],
            ], connect421: [1], slow: 6, slowOK: 1.3)
        let dir = try Env.tempDirectory("outbox-faults")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try drafts(recipients))
        var config = try SMTPConfiguration(url: server.url)
        config.commandTimeout = 1  // the slow_ok reply (1.3 s) comes after DATA: the data timeout applies
        config.dataTimeout = 3
        let summary = try outbox.send(using: try SMTPTransport(configuration: config), policy: quickPolicy())

        let states = Dictionary(uniqueKeysWithValues: try outbox.status().items.map { ($0.recipients[0], $0) })
        #expect(states[recipients[0]]?.state == .uncertain, "dropped after storing")
        #expect(states[recipients[1]]?.state == .uncertain, "reply later than the data timeout")
        #expect(states[recipients[1]]?.lastError?.contains("no reply within 3 s") == true)
        #expect(states[recipients[2]]?.state == .sent, "slow reply within the data timeout")
        #expect(states[recipients[3]]?.state == .sent && states[recipients[3]]?.attempts == 2, "451 after DATA")
        #expect(states[recipients[4]]?.state == .failed && states[recipients[4]]?.lastCode == 554)
        #expect(states[recipients[5]]?.state == .failed && states[recipients[5]]?.lastCode == 550)
        #expect(states[recipients[6]]?.state == .sent && states[recipients[6]]?.attempts == 2, "451 at RCPT")
        // Dropped before the final dot reached the server: nothing stored; the client cannot tell, so it
        // is uncertain (never sent twice), or deferred and sent again when the drop was seen before.
        let mid = states[recipients[7]]
        #expect(mid?.state == .uncertain || (mid?.state == .sent && (mid?.attempts ?? 0) >= 2))
        #expect(states[recipients[8]]?.state == .sent)
        #expect(summary.uncertain == (mid?.state == .uncertain ? 3 : 2))

        let counts = try server.storedCounts()
        let ids = try messageIDs(outbox)
        for item in try outbox.status().items {
            let stored = counts[ids[item.id] ?? "", default: 0]
            switch item.state {
            case .sent: #expect(stored == 1, "\(item.recipients) sent \(stored) times")
            case .uncertain: #expect(stored <= 1, "\(item.recipients) stored \(stored) times")
            default: #expect(stored == 0, "\(item.recipients) \(item.state) but stored \(stored) times")
            }
        }
        #expect(counts.values.allSatisfy { $0 == 1 })

        // A later run sends nothing again by itself.
        let again = try outbox.send(using: try SMTPTransport(configuration: config), policy: quickPolicy())
        #expect(again.sent == 0 && again.uncertain == summary.uncertain)
        #expect(try server.storedCounts() == counts)
    }

    @Test func replyTimeoutDefaultsFollowRFC5321() throws {
        let config = try SMTPConfiguration(url: "smtp://mail.example.com")
        #expect(config.dataTimeout == 600 && config.commandTimeout == 300)
    }

    @Test("settle: --sent marks an uncertain message sent, --resend sends it once more; others are refused")
    func settleUncertain() throws {
        guard requireVenv() else { return }
        let recipients = ["s1@example.com", "s2@example.com", "s3@example.com"]
        let server = try FaultSMTPServer(faults: [recipients[0]: [.dropAfterStore], recipients[1]: [.dropMidData]])
        let dir = try Env.tempDirectory("outbox-settle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        let ids = try outbox.enqueue(try drafts(recipients)).ids
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        _ = try outbox.send(using: smtp, policy: quickPolicy())
        let status = try outbox.status()
        #expect(status.items[0].state == .uncertain && status.items[2].state == .sent)
        try outbox.settle(ids[0], as: .sent)
        if status.items[1].state == .uncertain { try outbox.settle(ids[1], as: .resend) }
        #expect(throws: ComposerError.self) { try outbox.settle(ids[2], as: .resend) }
        #expect(throws: ComposerError.self) { try outbox.settle("999999", as: .sent) }
        let run = try outbox.send(using: smtp, policy: quickPolicy())
        #expect(run.uncertain == 0 && run.sent == (status.items[1].state == .uncertain ? 1 : 0))
        #expect(try outbox.status().items.allSatisfy { $0.state == .sent })
        let counts = try server.storedCounts()
        #expect(counts.count == 3 && counts.values.allSatisfy { $0 == 1 })
    }

    @Test("a stop request ends the run after the message in flight, which is sent, not uncertain")
    func stopFinishesTheMessageInFlight() throws {
        guard requireVenv() else { return }
        let recipients = (1...5).map { "t\($0)@example.com" }
        let server = try FaultSMTPServer(faults: [recipients[1]: [.slowOK]], slowOK: 0.5)
        let dir = try Env.tempDirectory("outbox-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue(try drafts(recipients))
        let stop = OutboxStop()
        let record = server.recordFile
        let stopper = Thread {
            // Once the slow message's data is stored (its reply is still 0.5 s away), ask to stop.
            while FaultSMTPServer.storedCount(record) < 2 { Thread.sleep(forTimeInterval: 0.005) }
            stop.request()
        }
        stopper.start()
        let summary = try outbox.send(
            using: try SMTPTransport(configuration: SMTPConfiguration(url: server.url)), policy: quickPolicy(),
            stop: stop)
        #expect(summary.interrupted && summary.sent == 2 && summary.uncertain == 0 && summary.remaining == 3)
        #expect(try outbox.status().count(.queued) == 3)
        let rest = try outbox.send(using: try SMTPTransport(configuration: SMTPConfiguration(url: server.url)))
        #expect(rest.sent == 3 && !rest.interrupted)
        #expect(try server.storedCounts().values.allSatisfy { $0 == 1 } && server.stored().count == 5)
    }

    @Test("Outbox.create never reuses a folder: same name twice gives two outboxes")
    func createIsExclusive() throws {
        let parent = try Env.tempDirectory("outbox-create")
        defer { try? FileManager.default.removeItem(at: parent) }
        let a = try Outbox.create(in: parent, name: "outbox-20260101-120000")
        let b = try Outbox.create(in: parent, name: "outbox-20260101-120000")
        #expect(a.directory.lastPathComponent == "outbox-20260101-120000")
        #expect(b.directory.lastPathComponent == "outbox-20260101-120000-2")
        _ = try a.enqueue(try drafts(["x@example.com"]))
        #expect(try b.status().items.isEmpty)
    }
}

@Suite("sendmail: temporary failures, timeouts, process groups", .serialized)
struct SendmailReliabilityTests {
    private func script(_ dir: URL, _ name: String, _ body: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body).write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    @Test("exit 75 (EX_TEMPFAIL) is deferred and retried, not failed")
    func tempfailIsRetried() throws {
        let dir = try Env.tempDirectory("sendmail-75")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Fails with 75 on the first call, then delivers (appends the message to "delivered").
        let path = try script(
            dir, "sendmail",
            """
            if [ ! -e "\(dir.path)/once" ]; then touch "\(dir.path)/once"; cat >/dev/null; echo 'queue busy' >&2; exit 75; fi
            cat >> "\(dir.path)/delivered"
            """)
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        _ = try outbox.enqueue(try drafts(["a@example.com"]))
        let summary = try outbox.send(using: SendmailTransport(path: path), policy: quickPolicy())
        #expect(summary.sent == 1 && summary.failed == 0)
        #expect(try outbox.status().items[0].attempts == 2)
        #expect(ComposerError.sendmail(status: 75, message: "").isTransient)
        #expect(!ComposerError.sendmail(status: 69, message: "").isTransient)
    }

    @Test("a sendmail that never exits is killed with its process group after the timeout: uncertain")
    func hangingSendmailIsKilled() throws {
        let dir = try Env.tempDirectory("sendmail-hang")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try script(
            dir, "sendmail",
            """
            echo $$ > "\(dir.path)/pid"
            sleep 60 &
            echo $! > "\(dir.path)/child"
            wait
            """)
        var mta = SendmailTransport(path: path)
        mta.timeout = 1.5
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        _ = try outbox.enqueue(try drafts(["a@example.com"]))
        let start = Date()
        let summary = try outbox.send(using: mta, policy: quickPolicy())
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(summary.uncertain == 1 && summary.sent == 0)
        #expect(try outbox.status().items[0].lastError?.contains("did not exit within 1.5 s") == true)
        for name in ["pid", "child"] {
            let text = try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            #expect(text != nil, "the script did not start within 1.5 s: \(name) missing")
            let pid = Int32(text?.trimmed ?? "") ?? 0
            #expect(pid > 0 && processEnds(pid), "\(name) \(pid) survived")
        }
    }

    @Test("the message reaches sendmail whole, with LF line ends, in a process group of its own")
    func wholeMessageOwnGroup() throws {
        let dir = try Env.tempDirectory("sendmail-group")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try script(
            dir, "sendmail",
            """
            cut -d' ' -f5 /proc/$$/stat > "\(dir.path)/pgid"
            echo $$ > "\(dir.path)/pid"
            cat > "\(dir.path)/stdin"
            """)
        let message = try MIMEWriter().write(try drafts(["a@example.com"])[0])
        try SendmailTransport(path: path).deliver(message, from: "anna@example.com", to: ["a@example.com"]) {}
        let got = try Data(contentsOf: dir.appendingPathComponent("stdin"))
        #expect(!got.contains(13) && got.count == message.count - message.filter { $0 == 13 }.count)
        let pid = try String(contentsOf: dir.appendingPathComponent("pid"), encoding: .utf8).trimmed
        let pgid = try String(contentsOf: dir.appendingPathComponent("pgid"), encoding: .utf8).trimmed
        #expect(pgid == pid && pgid != String(getpgrp()))
    }

    @Test(
        "sendmail starts with no signal blocked, the default action for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, no stray files"
    )
    func signalStateOfTheProgram() throws {
        let dir = try Env.tempDirectory("sendmail-signals")
        defer { try? FileManager.default.removeItem(at: dir) }
        // `exec` first: a shell that has waited for a command has changed its own signal mask.
        let signals = try script(
            dir, "signals.sh", "exec grep -E '^Sig(Blk|Ign):' /proc/self/status > \"\(dir.path)/status\"\n")
        let files = try script(dir, "files.sh", "ls -l /proc/$$/fd/ > \"\(dir.path)/fds\"\ncat > /dev/null\n")
        // Ignored here (a child inherits what is ignored): the program must still stop on them.
        let ignored = [SIGHUP, SIGPIPE]
        let saved = ignored.map { signal($0, SIG_IGN) }
        defer { for (sig, old) in zip(ignored, saved) { signal(sig, old) } }
        // Open here without close-on-exec (as a parent or a library may leave one): not the program's.
        let stray = dir.appendingPathComponent("stray")
        _ = FileManager.default.createFile(atPath: stray.path, contents: nil)
        let strayFD = open(stray.path, O_RDONLY)
        defer { close(strayFD) }
        let message = try MIMEWriter().write(try drafts(["a@example.com"])[0])
        for path in [signals, files] {
            try SendmailTransport(path: path).deliver(message, from: "anna@example.com", to: ["a@example.com"]) {}
        }
        var masks: [String: UInt64] = [:]
        for line in try String(contentsOf: dir.appendingPathComponent("status"), encoding: .utf8).split(separator: "\n")
        {
            let parts = line.split(separator: ":")
            masks[String(parts[0])] = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        #expect(masks["SigBlk"] == 0, "\(masks)")
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] {
            #expect((masks["SigIgn"] ?? .max) & (1 << UInt64(sig - 1)) == 0, "signal \(sig) ignored: \(masks)")
        }
        let open = try String(contentsOf: dir.appendingPathComponent("fds"), encoding: .utf8)
        #expect(strayFD > 2 && !open.contains(stray.path), "\(open)")
    }

    @Test("a program that cannot be executed is an error naming it (a configuration error), not an exit status")
    func execFailureIsReported() throws {
        let dir = try Env.tempDirectory("sendmail-exec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("sendmail")
        try "#!/nonexistent/interpreter\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        let message = try MIMEWriter().write(try drafts(["a@example.com"])[0])
        #expect(throws: ComposerError.mailUnavailable(reason: "cannot start \(url.path): No such file or directory")) {
            try SendmailTransport(path: url.path).deliver(message, from: "anna@example.com", to: ["a@example.com"]) {}
        }
        // In an outbox run: nothing was handed over, the run stops and the message waits for the next one.
        let outbox = try Outbox(directory: dir.appendingPathComponent("outbox"))
        _ = try outbox.enqueue(try drafts(["a@example.com"]))
        #expect(throws: ComposerError.self) { try outbox.send(using: SendmailTransport(path: url.path)) }
        #expect(try outbox.status().items[0].state == .deferred)
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

@Suite("FileTransport never writes through links and never loses a draft to a long name")
struct FileTransportSafetyTests {
    @Test func smsFileIsOnlyAppendedWhenItIsAPlainFileOfItsOwn() throws {
        let dir = try Env.tempDirectory("sms-links")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let outside = dir.appendingPathComponent("outside.txt")
        try "keep\n".write(to: outside, atomically: true, encoding: .utf8)
        // messages.sms.txt: a symbolic link out of the folder; messages-2: a hard link; messages-3: a FIFO.
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent("messages.sms.txt"), withDestinationURL: outside)
        try FileManager.default.linkItem(at: outside, to: out.appendingPathComponent("messages-2.sms.txt"))
        #expect(mkfifo(out.appendingPathComponent("messages-3.sms.txt").path, 0o644) == 0)
        let files = FileTransport(directory: out)
        let first = try files.saveMessage(MessageDraft(recipients: ["+15555550123"], body: "Eins"))
        let second = try files.saveMessage(MessageDraft(recipients: ["+15555550124"], body: "Zwei"))
        #expect(first.lastPathComponent == "messages-4.sms.txt" && second == first)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "keep\n")
        #expect(
            try String(contentsOf: first, encoding: .utf8)
                == "sms:+15555550123?body=Eins\nsms:+15555550124?body=Zwei\n")
        // A plain file of its own, left by an earlier run, is appended to.
        let plain = FileTransport(directory: dir.appendingPathComponent("plain"))
        let a = try plain.saveMessage(MessageDraft(recipients: ["+15555550123"], body: "A"))
        let b = try plain.saveMessage(MessageDraft(recipients: ["+15555550123"], body: "B"))
        #expect(a.lastPathComponent == "messages.sms.txt" && a == b)
    }

    @Test func longCombiningClustersGiveShortUniqueNames() throws {
        let dir = try Env.tempDirectory("long-names")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cluster = { (base: String) in base + String(repeating: "\u{0301}\u{0308}", count: 80) }
        let name = "0001-" + (0..<30).map { cluster(String(UnicodeScalar(UInt8(97 + $0 % 26)))) }.joined()
        let files = FileTransport(directory: dir)
        let draft = MailDraft(
            from: try MailAddress(address: "a@example.com"), to: [try MailAddress(address: "b@example.com")],
            subject: "x", textBody: "y")
        let one = try files.save(draft, name: name)
        let two = try files.save(draft, name: name)
        #expect(one != two)
        for url in [one, two] { #expect(url.lastPathComponent.utf8.count <= 255) }
        #expect(one.lastPathComponent.hasPrefix("0001-abcdef"))
        // Cut between characters: a cluster that fits is kept whole.
        let accented = String(repeating: "é", count: 100)
        let slug = AtomicFile.slug(accented)
        #expect(slug.utf8.count <= AtomicFile.maxSlugBytes && slug.count == 40 && slug.allSatisfy { $0 == "é" })
        let mixed = String(repeating: "ق\u{0651}\u{064E}", count: 60)
        #expect(AtomicFile.slug(mixed).utf8.count <= AtomicFile.maxSlugBytes)
        #expect(AtomicFile.slug(mixed).unicodeScalars.count % 3 == 0)
    }
}
