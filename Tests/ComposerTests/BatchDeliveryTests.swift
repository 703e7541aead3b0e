import Foundation
import Synchronization
import Testing

@testable import Composer

/// A mail draft to `address` without a sender (the delivery's sender fills it in).
private func draft(_ n: Int, to address: String) throws -> MailDraft {
    MailDraft(
        to: [try MailAddress(name: "Kontakt \(n)", address: address)], subject: "Einladung \(n)",
        textBody: "Hallo \(n)!\n")
}

/// Everything a delivery reported, as text, in order.
private final class EventLog {
    var lines: [String] = []
    var outbox: Outbox?

    func note(_ event: DeliveryEvent) {
        switch event {
        case .saved(let item, let file): lines.append("saved \(item.key) \(file.lastPathComponent)")
        case .savedMessages(let file): lines.append("saved messages \(file.lastPathComponent)")
        case .uri(_, let key, let uri): lines.append("uri \(key) \(uri.prefix(7))")
        case .wouldSend(let item, let size): lines.append("would send \(item.key) \(size > 0)")
        case .wouldText(let item, let segments): lines.append("would text \(item.key) \(segments)")
        case .refused(_, let key, let error): lines.append("refused \(key) \(error)")
        case .messagesNotCarried(let items, _): lines.append("not carried \(items.map(\.key))")
        case .queued(let box, let count):
            outbox = box
            lines.append("queued \(count)")
        case .resuming(let box, let count):
            outbox = box
            lines.append("resuming \(count)")
        case .stoppedBeforeQueueing(let count): lines.append("stopped before queueing \(count)")
        case .preparing: break
        case .progress(let p): lines.append("\(p.item.state.rawValue) \(p.item.label ?? "")")
        }
    }
}

/// An envelope transport that records what it was given (and when), and fails recipients it is told to.
private final class RecordingTransport: EnvelopeTransport {
    let log = Mutex<[(recipients: [String], at: Date)]>([])
    let refuse: Set<String>
    init(refuse: Set<String> = []) { self.refuse = refuse }

    func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        if let bad = recipients.first(where: refuse.contains) {
            throw .smtp(code: 550, message: "550 5.1.1 \(bad): no such user")
        }
        do { try onCommit() } catch { throw ComposerError.io(path: "journal", message: "\(error)") }
        log.withLock { $0.append((recipients, Date())) }
    }

    var recipients: [String] { log.withLock { $0.flatMap(\.recipients) } }
}

@Suite("Delivery: a batch of drafts to files, URIs, a dry run or an outbox, as a library user does it")
struct BatchDeliveryTests {
    let sender = try! MailAddress(name: "Anna", address: "anna@example.com")

    @Test("files: one .eml per mail draft and the sms file; a bad draft is refused, the others saved")
    func filesKeepGoodDrafts() throws {
        let dir = try Env.tempDirectory("delivery-files")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bad = try draft(2, to: "b@example.com")
        bad.subject = "Injected\r\nBcc: victim@example.com"
        let batch = DeliveryBatch(
            mail: [
                DeliveryItem(label: "Ann", key: "c1", draft: try draft(1, to: "a@example.com")),
                DeliveryItem(label: "Bob", key: "c2", draft: bad),
                DeliveryItem(label: "Cy", key: "c3", draft: try draft(3, to: "c@example.com")),
            ],
            messages: [
                DeliveryItem(label: "Dee", key: "c4", draft: MessageDraft(recipients: ["+15555550123"], body: "Hi")),
                DeliveryItem(label: "Eve", key: "c5", draft: MessageDraft(recipients: ["12"], body: "Hi")),
            ])
        let log = EventLog()
        let delivery = Delivery(target: .files(dir), sender: sender)
        let summary = try delivery.deliver(batch, events: log.note)
        #expect(summary.saved == 3 && summary.failed == 2 && summary.sent == 0)
        #expect(summary.outcome == .incomplete)
        #expect(log.lines.first == "saved c1 0001-ann.eml")
        #expect(log.lines.contains("saved c3 0003-cy.eml"))
        #expect(log.lines.contains { $0.hasPrefix("refused c2 ") && $0.contains("CR, LF or NUL") })
        #expect(log.lines.contains { $0.hasPrefix("refused c5 ") && $0.contains("E.164") })
        #expect(log.lines.last == "saved messages messages.sms.txt")
        let eml = try String(contentsOf: dir.appendingPathComponent("0001-ann.eml"), encoding: .utf8)
        #expect(eml.contains("From: Anna <anna@example.com>"), "the delivery's sender fills in a missing From")
        let sms = try String(contentsOf: dir.appendingPathComponent("messages.sms.txt"), encoding: .utf8)
        #expect(sms.split(separator: "\n").count == 1 && sms.hasPrefix("sms:+15555550123"))
    }

    @Test("URIs and a dry run write nothing; SMTP refuses text messages but keeps the mail")
    func urisAndDryRun() throws {
        let batch = DeliveryBatch(
            mail: [DeliveryItem(label: "Ann", key: "c1", draft: try draft(1, to: "a@example.com"))],
            messages: [
                DeliveryItem(label: "Dee", key: "c4", draft: MessageDraft(recipients: ["+15555550123"], body: "Hi"))
            ])
        let uris = EventLog()
        let summary = try Delivery(target: .uris).deliver(batch, events: uris.note)
        #expect(uris.lines == ["uri c1 mailto:", "uri c4 sms:+15"])
        #expect(summary.saved == 2 && summary.outcome == .complete)

        let dry = EventLog()
        let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:1")), sender: sender)
        let drySummary = try smtp.deliver(batch, outbox: nil, events: dry.note)
        #expect(dry.lines == ["not carried [\"c4\"]", "would send c1 true"])
        #expect(drySummary.skipped == 1 && drySummary.failed == 1 && drySummary.outcome == .incomplete)
        #expect(dry.outbox == nil)

        // Without a sender the draft cannot be written: refused, not thrown.
        let noSender = EventLog()
        let unsigned = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:1")))
        let refused = unsigned.dryRun(batch.mail, events: noSender.note)
        #expect(refused.failed == 1 && noSender.lines.first?.hasPrefix("refused c1 from") == true, "\(noSender.lines)")
    }

    @Test("targets: which need an outbox, and the transport each gives")
    func targets() throws {
        #expect(DeliveryTarget.smtp(try SMTPConfiguration(url: "smtp://x.example")).needsOutbox)
        #expect(!DeliveryTarget.uris.needsOutbox && !DeliveryTarget.files(URL(fileURLWithPath: ".")).needsOutbox)
        #expect(DeliveryTarget.smtp(try SMTPConfiguration(url: "smtps://x.example:465")).via == "smtps://x.example:465")
        #expect(throws: ComposerError.mailUnavailable(reason: "/nonexistent/sendmail is not executable")) {
            try DeliveryTarget.sendmail(SendmailTransport(path: "/nonexistent/sendmail")).envelopeTransport()
        }
        #expect(throws: ComposerError.self) { try DeliveryTarget.uris.envelopeTransport() }
        let transport = try DeliveryTarget.smtp(try SMTPConfiguration(url: "smtp://x.example")).envelopeTransport()
        #expect(transport is SMTPTransport)

        let policy = OutboxPolicy(maxAttempts: 2, backoff: 600, messagesPerMinute: 30)
        #expect(policy.maxAttempts == 2 && policy.messagesPerMinute == 30)
        #expect(policy.maxBackoff == 600, "a first backoff above the cap raises the cap")
        #expect(OutboxPolicy(backoff: 1).maxBackoff == OutboxPolicy().maxBackoff)
    }

    @Test("Outbox(.new) makes a fresh folder every time; .resume needs one that is there")
    func outboxLocations() throws {
        let dir = try Env.tempDirectory("delivery-locations")
        defer { try? FileManager.default.removeItem(at: dir) }
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(Outbox.defaultName(for: date) == "outbox-20260921-141320")
        let first = try Outbox(.new(in: dir), date: date)
        let second = try Outbox(.new(in: dir), date: date)
        #expect(first.directory.lastPathComponent == "outbox-20260921-141320")
        #expect(second.directory.lastPathComponent == "outbox-20260921-141320-2")
        #expect(try Outbox(.resume(first.directory)).directory == first.directory)
        let missing = dir.appendingPathComponent("nope")
        #expect(throws: ComposerError.outboxMissing(path: missing.path)) { try Outbox(.resume(missing)) }
        #expect(!FileManager.default.fileExists(atPath: missing.path), "a resume never creates the folder")
    }

    @Test("a stop while queueing takes back the message files written: nothing queued, the next queueing is whole")
    func stopWhileQueueing() throws {
        let dir = try Env.tempDirectory("queue-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        var drafts = try (1...5).map { try draft($0, to: "r\($0)@example.com") }
        for i in drafts.indices { drafts[i].from = sender }
        let messages = dir.appendingPathComponent("messages")
        // Between two drafts (after the third file), and after the last one, just before the journal.
        for last in ["000003", "000005"] {
            let stop = OutboxStop()
            outbox.faultHook = { step, id in if step == .afterQueuedFile && id == last { stop.request() } }
            guard case .interrupted = try outbox.enqueueOnce(drafts, stop: stop) else {
                Issue.record("expected the queueing to stop")
                return
            }
            #expect(!Outbox.exists(at: dir), "no journal: nothing is queued")
            #expect(try FileManager.default.contentsOfDirectory(atPath: messages.path).isEmpty)
            let status = try outbox.status()
            #expect(status.items.isEmpty && status.orphans.isEmpty)
        }
        outbox.faultHook = nil
        guard case .queued(let result) = try outbox.enqueueOnce(drafts, stop: OutboxStop()) else {
            Issue.record("expected the drafts to be queued")
            return
        }
        #expect(result.ids == (1...5).map { String(format: "%06d", $0) })
        #expect(try outbox.status().items.count == 5)
    }

    @Test("a queueing whose journal cannot be written takes its message files back")
    func failedQueueingLeavesNoFiles() throws {
        let dir = try Env.tempDirectory("queue-fail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        // A folder where the journal goes: it cannot be replaced by the journal file.
        let journal = dir.appendingPathComponent("journal.jsonl")
        try FileManager.default.createDirectory(
            at: journal.appendingPathComponent("x"), withIntermediateDirectories: true)
        var drafts = try (1...3).map { try draft($0, to: "r\($0)@example.com") }
        for i in drafts.indices { drafts[i].from = sender }
        #expect(throws: ComposerError.self) { try outbox.enqueue(drafts) }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != ".lock" }
        #expect(left.sorted() == ["journal.jsonl", "messages"], "\(left)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("messages").path).isEmpty)
    }

    @Test("a stop before the batch is queued: nothing queued or sent, the new outbox folder removed, interrupted")
    func stopBeforeQueueing() throws {
        let parent = try Env.tempDirectory("delivery-stop")
        defer { try? FileManager.default.removeItem(at: parent) }
        let batch = DeliveryBatch(
            mail: try (1...3).map { DeliveryItem(label: "R\($0)", draft: try draft($0, to: "r\($0)@example.com")) })
        // No program to send with: reaching the send would throw.
        let delivery = Delivery(target: .sendmail(SendmailTransport(path: "/nonexistent/sendmail")), sender: sender)
        let stop = OutboxStop()
        stop.request()
        let log = EventLog()
        let summary = try delivery.deliver(batch, outbox: .new(in: parent), stop: stop, events: log.note)
        #expect(log.lines == ["stopped before queueing 3"])
        #expect(summary.outcome == .interrupted && summary.remaining == 3 && summary.sent == 0 && summary.failed == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty, "the new folder is gone")

        // A folder to resume that holds no outbox yet: it stays, without a journal or a message file.
        let empty = parent.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let again = EventLog()
        _ = try delivery.deliver(batch, outbox: .resume(empty), stop: stop, events: again.note)
        #expect(again.lines == ["stopped before queueing 3"])
        #expect(!Outbox.exists(at: empty))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: empty.appendingPathComponent("messages").path).isEmpty)

        // Delivery.queue says the same.
        let queue = EventLog()
        #expect(try delivery.queue(batch.mail, into: Outbox(directory: empty), stop: stop, events: queue.note) == 0)
        #expect(queue.lines == ["stopped before queueing 3"] && !Outbox.exists(at: empty))
    }

    @Test("enqueueOnce queues into an empty outbox only; settle of several ids refuses the unsettleable")
    func enqueueOnceAndSettleMany() throws {
        let dir = try Env.tempDirectory("delivery-once")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        var drafts = try (1...3).map { try draft($0, to: "r\($0)@example.com") }
        for i in drafts.indices { drafts[i].from = sender }
        drafts[1].from = nil
        guard case .queued(let result) = try outbox.enqueueOnce(drafts, labels: ["a", "b", "c"]) else {
            Issue.record("expected the drafts to be queued")
            return
        }
        #expect(result.ids == ["000001", "000002"] && result.rejected.map(\.index) == [1])
        guard case .resumed(let count) = try outbox.enqueueOnce(drafts) else {
            Issue.record("expected a resume")
            return
        }
        #expect(try count == 2 && outbox.status().items.count == 2)

        // One message uncertain (the transport lost track of it after the commit point).
        final class Lost: EnvelopeTransport {
            func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
                throws(ComposerError)
            {
                do { try onCommit() } catch { throw .io(path: "journal", message: "\(error)") }
                if recipients == ["r1@example.com"] { throw .deliveryUncertain(reason: "connection dropped") }
            }
        }
        let run = try outbox.send(using: Lost(), policy: OutboxPolicy())
        #expect(run.uncertain == 1 && run.sent == 1)
        let settled = try outbox.settle(["000001", "000002", "000009", "000001"], as: .resend)
        #expect(settled.settled == ["000001"])
        #expect(settled.refused.map(\.id) == ["000002", "000009", "000001"])
        #expect("\(settled.refused[0].error)".contains("is sent, not uncertain"))
        #expect("\(settled.refused[1].error)".contains("no message 000009"))
        #expect("\(settled.refused[2].error)".contains("is queued, not uncertain"))
        #expect(try outbox.status().count(.queued) == 1)
    }

    @Test("an outbox run keeps the rate limit, retries, and a stop ends it after the message in flight")
    func rateRetryStopAndResume() throws {
        let dir = try Env.tempDirectory("delivery-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recipients = (1...5).map { "s\($0)@example.com" }
        let batch = DeliveryBatch(
            mail: try recipients.enumerated().map {
                DeliveryItem(label: "K\($0.offset + 1)", draft: try draft($0.offset + 1, to: $0.element))
            })
        let transport = RecordingTransport(refuse: ["s2@example.com"])
        let stop = OutboxStop()
        let log = EventLog()
        let policy = OutboxPolicy(maxAttempts: 2, backoff: 0.01, messagesPerMinute: 600)  // one every 0.1 s
        let delivery = Delivery(target: .uris, policy: policy, sender: sender)
        let outbox = try Outbox(.new(in: dir))
        #expect(try delivery.queue(batch.mail, into: outbox, events: log.note) == 0)
        // A stop requested while the third message is reported: the run ends there.
        var sendLog = EventLog()
        let first = try outbox.send(using: transport, policy: policy, stop: stop) { p in
            sendLog.note(.progress(p))
            if p.done == 3 { stop.request() }
        }
        #expect(sendLog.lines == ["sent K1", "failed K2", "sent K3"])
        let summary = first
        #expect(summary.outcome == .interrupted && summary.remaining == 2 && summary.sent == 2 && summary.failed == 1)
        let times = transport.log.withLock { $0.map(\.at) }
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 0.15, "K2 and K3 each waited 0.1 s") }

        // The resume, as a library user writes it: the same batch into the same outbox, not queued again.
        sendLog = EventLog()
        let resumed = try Delivery(target: .uris, policy: policy, sender: sender).queue(
            batch.mail, into: try Outbox(.resume(outbox.directory)), events: sendLog.note)
        #expect(resumed == 0 && sendLog.lines == ["resuming 5"])
        let second = try outbox.send(using: transport, policy: policy)
        #expect(second.sent == 2 && second.skipped == 3 && second.outcome == .complete)
        #expect(transport.recipients == ["s1@example.com", "s3@example.com", "s4@example.com", "s5@example.com"])
    }

    @Test("through the SMTP fault server: refused, retried, stopped and resumed; each message stored once")
    func smtpStopAndResume() throws {
        guard requireVenv() else { return }
        let recipients = (1...5).map { "m\($0)@example.com" }
        let server = try FaultSMTPServer(faults: [recipients[1]: [.rcpt550], recipients[2]: [.data451]])
        let dir = try Env.tempDirectory("delivery-smtp")
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = try SMTPConfiguration(url: server.url)
        config.commandTimeout = 5
        config.dataTimeout = 5
        let delivery = Delivery(
            target: .smtp(config), policy: OutboxPolicy(maxAttempts: 3, backoff: 0.5), sender: sender)
        var batch = DeliveryBatch(
            mail: try recipients.enumerated().map {
                DeliveryItem(
                    label: "K\($0.offset + 1)", key: $0.element, draft: try draft($0.offset + 1, to: $0.element))
            })
        batch.messages = [
            DeliveryItem(label: "T", key: "t", draft: MessageDraft(recipients: ["+15555550123"], body: "Hi"))
        ]
        let stop = OutboxStop()
        let log = EventLog()
        let first = try delivery.deliver(batch, outbox: .new(in: dir), stop: stop) { event in
            log.note(event)
            if case .progress(let p) = event, p.done == 3 { stop.request() }
        }
        // K3 is deferred by the 451 and waits 0.5 s for its retry: K4 goes first, then the stop.
        #expect(log.lines == ["not carried [\"t\"]", "queued 5", "sent K1", "failed K2", "sent K4"], "\(log.lines)")
        #expect(first.sent == 2 && first.failed == 2 && first.remaining == 2 && first.outcome == .interrupted)
        guard let outbox = log.outbox else { return }

        let again = EventLog()
        let second = try delivery.deliver(DeliveryBatch(mail: batch.mail), outbox: .resume(outbox.directory)) {
            again.note($0)
        }
        #expect(again.lines == ["resuming 5", "sent K3", "sent K5"], "\(again.lines)")
        #expect(second.sent == 2 && second.skipped == 3 && second.outcome == .complete)
        let stored = try server.stored()
        #expect(
            stored.map { $0.to } == [["m1@example.com"], ["m4@example.com"], ["m3@example.com"], ["m5@example.com"]])
        #expect(try server.storedCounts().values.allSatisfy { $0 == 1 })
        let status = try outbox.status()
        #expect(status.count(.sent) == 4 && status.count(.failed) == 1)
        #expect(status.items.first { $0.recipients == ["m3@example.com"] }?.attempts == 2, "the 451 was retried")
    }
}
