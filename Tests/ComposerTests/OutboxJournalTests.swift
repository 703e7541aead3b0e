import Foundation
import Testing

@testable import Composer

/// A journal as earlier versions wrote it (every event, sorted keys, one object a line), with its message
/// files: outboxes on disk must keep loading, and new lines keep the same shape.
private let earlierJournal = """
    {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000001","label":"row 2","to":["b@example.org"]}
    {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000002","to":["c@example.org","d@example.org"]}
    {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000003","to":["e@example.org"]}
    {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000004","to":["f@example.org"]}
    {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000005","to":["g@example.org"]}
    {"at":1767225601,"e":"attempt","id":"000001"}
    {"at":1767225601,"e":"commit","id":"000001"}
    {"at":1767225602,"e":"sent","id":"000001"}
    {"at":1767225603,"e":"attempt","id":"000002"}
    {"at":1767225603,"code":451,"e":"deferred","error":"SMTP 451: try later","id":"000002"}
    {"at":1767225604,"e":"attempt","id":"000003"}
    {"at":1767225604,"code":550,"e":"failed","error":"SMTP 550: no such user","id":"000003"}
    {"at":1767225605,"e":"attempt","id":"000004"}
    {"at":1767225605,"e":"commit","id":"000004"}
    {"at":1767225606,"e":"uncertain","error":"outcome unknown","id":"000004"}
    {"at":1767225607,"e":"attempt","id":"000005"}
    {"at":1767225607,"e":"commit","id":"000005"}
    {"at":1767225608,"e":"settled-resend","id":"000005"}
    {"at":1767225609,"e":"attempt","id":"000005"}
    {"at":1767225609,"e":"commit","id":"000005"}
    {"at":1767225610,"e":"settled-sent","id":"000005"}
    {"at":1767225611,"e":"attem
    """

private func outbox(journal: String) throws -> Outbox {
    let dir = try Env.tempDirectory("journal")
    let outbox = try Outbox(directory: dir)
    for n in 1...5 {
        let path = outbox.messagesDirectory.appendingPathComponent(String(format: "%06d.eml", n))
        try Data("Subject: x\r\n\r\nx\r\n".utf8).write(to: path)
    }
    try Data(journal.utf8).write(to: URL(fileURLWithPath: outbox.journalPath))
    return outbox
}

@Suite("Outbox journal: the on-disk format")
struct OutboxJournalTests {
    @Test("a journal written by an earlier version loads with every event")
    func earlierJournalLoads() throws {
        let status = try outbox(journal: earlierJournal).status()
        #expect(status.items.map(\.id) == ["000001", "000002", "000003", "000004", "000005"])
        #expect(status.items.map(\.state) == [.sent, .deferred, .failed, .uncertain, .sent])
        #expect(status.items.map(\.attempts) == [1, 1, 1, 1, 2])
        #expect(status.items[0].label == "row 2")
        #expect(status.items[1].recipients == ["c@example.org", "d@example.org"])
        #expect(status.items[1].lastCode == 451 && status.items[1].lastError == "SMTP 451: try later")
        #expect(status.items[2].lastCode == 550)
        #expect(status.tornLines == 1 && status.orphans.isEmpty)
    }

    @Test("new lines have the earlier shape: the same keys, sorted, the same event names")
    func newLinesKeepTheFormat() throws {
        let box = try outbox(journal: earlierJournal + "\n")
        try box.settle("000004", as: .resend)
        let lines = try String(contentsOfFile: box.journalPath, encoding: .utf8).split(separator: "\n")
        let last = try #require(lines.last)
        #expect(last.hasPrefix("{\"at\":") && last.hasSuffix(",\"e\":\"settled-resend\",\"id\":\"000004\"}"))
        #expect(try box.status().items[3].state == .queued)

        let fresh = try Outbox(directory: try Env.tempDirectory("journal-new"))
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Hallo", textBody: "Hallo\n")
        _ = try fresh.enqueue([draft], labels: ["row 2"], date: Date(timeIntervalSince1970: 1_767_225_600))
        let queued = try String(contentsOfFile: fresh.journalPath, encoding: .utf8)
        #expect(
            queued == """
                {"at":1767225600,"e":"queued","from":"anna@example.com","id":"000001","label":"row 2",\
                "to":["b@example.org"]}

                """)
    }

    @Test("every event name on disk is one of the enum's, and each round-trips")
    func eventNames() throws {
        #expect(
            Set(OutboxJournal.Event.allCases.map(\.rawValue)) == [
                "queued", "attempt", "commit", "sent", "deferred", "failed", "uncertain", "settled-sent",
                "settled-resend",
            ])
        let journal = OutboxJournal(directory: try Env.tempDirectory("journal-events"))
        for event in OutboxJournal.Event.allCases {
            let line = try journal.encode([.init(event: event, id: "000001", at: 1)])
            let back = try JSONDecoder().decode(OutboxJournal.Record.self, from: Data(line.dropLast()))
            #expect(back.event == event)
        }
    }

    @Test("an unknown event is an error naming its line, not a torn line")
    func unknownEvent() throws {
        let journal = earlierJournal.replacingOccurrences(
            of: "{\"at\":1767225602,\"e\":\"sent\"", with: "{\"at\":1767225602,\"e\":\"bounced\"")
        #expect(throws: ComposerError.journal(path: "", line: 8, message: "unknown event 'bounced'")) {
            do {
                _ = try outbox(journal: journal).status()
            } catch ComposerError.journal(_, let line, let message) {
                throw ComposerError.journal(path: "", line: line, message: message)
            }
        }
    }
}
