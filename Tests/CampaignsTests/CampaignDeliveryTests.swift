import Composer
import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// A library user composing a campaign and delivering it without the command-line tool: to files, and
/// through an outbox (a stand-in sendmail) with a stop and a resume.
@Suite struct CampaignDeliveryTests {
    /// A library with one template `seat` (subject, text body, text message) that needs `{{table}}`.
    func library(in dir: URL) throws -> TemplateLibrary {
        let t = dir.appendingPathComponent("templates/seat")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        for (file, text) in [
            ("subject.mustache", "Table {{table}}, {{recipient.givenName}}"), ("body.txt.mustache", "See you.\n"),
            ("message.txt.mustache", "Table {{table}}"),
        ] {
            try text.write(to: t.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return try TemplateLibrary(directory: dir.appendingPathComponent("templates"))
    }

    /// A sendmail stand-in that appends its arguments to `calls`, one line per message.
    func sendmail(in dir: URL) throws -> SendmailTransport {
        let script = dir.appendingPathComponent("sendmail")
        try "#!/bin/sh\necho \"$*\" >> \"\(dir.path)/calls\"\ncat > /dev/null\n".write(
            to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return SendmailTransport(path: script.path)
    }

    func calls(in dir: URL) -> [String] {
        ((try? String(contentsOf: dir.appendingPathComponent("calls"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Felipe, Bruno, Hélène and Erin by email, with a table each but Hélène.
    func makeCampaign(_ mode: SelectionMode = .email) throws -> (Campaign, SelectionController) {
        let selection = try SelectionController(contacts: book) {
            $0.mode = mode
            $0.locale = "en"
        }
        for id in ["felipe", "bruno", "helene", "emailonly"] { try selection.select(id: id) }
        var campaign = Campaign(template: "seat")
        campaign.from = try MailAddress(name: "Ada", address: "ada@example.org")
        campaign.recipientData = ["felipe": ["table": "1"], "bruno": ["table": "2"], "emailonly": ["table": "4"]]
        return (campaign, selection)
    }

    @Test("deliver to files: a draft per rendered recipient; the one not rendered is a failure of its own")
    func deliverToFiles() throws {
        let dir = try Scratch.directory("campaign-files")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try makeCampaign()
        let out = dir.appendingPathComponent("out")
        var saved: [String] = []
        let result = try campaign.deliver(
            selection, library: try library(in: dir), with: Delivery(target: .files(out))
        ) { event in
            if case .saved(let item, _) = event { saved.append(item.key) }
        }
        #expect(result.failures.map(\.contactID) == ["helene"])
        #expect("\(result.failures[0])".contains("table"))
        #expect(Set(saved) == ["felipe", "bruno", "emailonly"])
        #expect(result.summary.saved == 3 && result.summary.outcome == .complete)
        #expect(result.outcome == .incomplete, "a recipient was not rendered")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(files.count == 3)
        #expect(result.outbox == nil)
    }

    @Test("queue without a sender or by text message: every such recipient is a failure, the outbox stays empty")
    func queueReportsEachRecipient() throws {
        let dir = try Scratch.directory("campaign-queue")
        defer { try? FileManager.default.removeItem(at: dir) }
        var (campaign, selection) = try makeCampaign(.both)
        campaign.from = nil
        campaign.recipientData["helene"] = ["table": "3"]
        let outbox = try Outbox(.new(in: dir))
        let result = try campaign.queue(selection, library: try library(in: dir), into: outbox)
        #expect(result.messages.count == 4)
        #expect(Set(result.failures.map(\.contactID)) == ["felipe", "bruno", "helene", "emailonly"])
        #expect(result.failures.allSatisfy { "\($0.error)".contains("from") || "\($0.error)".contains("mail only") })
        #expect(result.summary.failed == 4)
        #expect(try outbox.status().items.isEmpty)
    }

    @Test("a stop before sending: compose renders nothing, deliver queues and sends nothing, no outbox is left")
    func stopBeforeSending() throws {
        let dir = try Scratch.directory("campaign-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try makeCampaign()
        let library = try library(in: dir)
        let stop = OutboxStop()
        #expect(!campaign.compose(selection, library: library, stop: stop).messages.isEmpty)
        stop.request()
        let stopped = campaign.compose(selection, library: library, stop: stop)
        #expect(stopped.messages.isEmpty && stopped.failures.isEmpty, "nothing of a stopped campaign is delivered")
        let delivery = Delivery(target: .sendmail(try sendmail(in: dir)))
        var notQueued: Int?
        let result = try campaign.deliver(
            selection, library: library, with: delivery, outbox: .new(in: dir), stop: stop
        ) { event in
            if case .stoppedBeforeQueueing(let count) = event { notQueued = count }
        }
        #expect(notQueued == 0 && result.outcome == .interrupted && result.outbox == nil)
        #expect(calls(in: dir).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("outbox-") })
    }

    @Test("deliver through an outbox: a stop ends the run after the message in flight; the resume sends the rest once")
    func stopAndResume() throws {
        let dir = try Scratch.directory("campaign-outbox")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try makeCampaign()
        let library = try library(in: dir)
        let delivery = Delivery(target: .sendmail(try sendmail(in: dir)), policy: OutboxPolicy(backoff: 0.01))
        let stop = OutboxStop()
        let first = try campaign.deliver(
            selection, library: library, with: delivery, outbox: .new(in: dir), stop: stop
        ) { event in
            if case .progress = event { stop.request() }
        }
        #expect(first.failures.map(\.contactID) == ["helene"])
        #expect(first.summary.sent == 1 && first.summary.remaining == 2)
        #expect(first.outcome == .interrupted)
        #expect(calls(in: dir).count == 1)
        let dirs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        #expect(dirs.count == 1 && first.outbox?.lastPathComponent == dirs.first)
        guard let outbox = first.outbox else { return }

        var resumed = 0
        let second = try campaign.deliver(selection, library: library, with: delivery, outbox: .resume(outbox)) {
            if case .resuming(_, let count) = $0 { resumed = count }
        }
        #expect(resumed == 3)
        #expect(second.summary.sent == 2 && second.summary.skipped == 1 && second.summary.outcome == .complete)
        let made = calls(in: dir)
        #expect(made.count == 3)
        for address in ["felipe@example.com", "bruno@example.org", "erin@example.net"] {
            #expect(made.filter { $0.hasSuffix("-- \(address)") }.count == 1, "\(address): \(made)")
        }
        #expect(made.allSatisfy { $0.hasPrefix("-i -f ada@example.org -- ") })

        // A resume of a folder that is not there is an error, and creates nothing.
        let missing = dir.appendingPathComponent("outbox-missing")
        #expect(throws: ComposerError.outboxMissing(path: missing.path)) {
            try campaign.deliver(selection, library: library, with: delivery, outbox: .resume(missing))
        }
    }
}
