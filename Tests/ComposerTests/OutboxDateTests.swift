import Foundation
import Testing

@testable import Composer

@Suite("Outbox: the Date header is the first attempt's", .serialized)
struct OutboxDateTests {
    /// The Date header of a message, as seconds since 1970.
    func dateHeader(_ message: [UInt8]) -> Date? {
        let text = String(decoding: message.prefix(200), as: UTF8.self)
        guard let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("Date: ") }) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss Z"
        return formatter.date(from: String(line.dropFirst(6)))
    }

    @Test("mail queued long ago is dated when it leaves, and a retry keeps that date")
    func dateOfTheFirstAttempt() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-date")
        let outbox = try Outbox(directory: dir)
        let drafts = try (1...2).map { n in
            MailDraft(
                from: try MailAddress(name: "Anna", address: "anna@example.com"),
                to: [try MailAddress(name: "Kontakt \(n)", address: "c\(n)@example.com")],
                subject: "Einladung \(n)", textBody: "Hallo \(n)!\n")
        }
        let queuedAt = Date(timeIntervalSince1970: 1_000_000_000)  // 2001: queued long before the send
        let ids = try outbox.enqueue(drafts, date: queuedAt).ids
        #expect(ids.count == 2)
        // The first message's first attempt fails after DATA; its retry comes more than two seconds later.
        server.command("datafail 451 1")
        var policy = OutboxPolicy()
        policy.maxAttempts = 3
        policy.backoff = 2.1
        policy.maxBackoff = 3
        let start = Date()
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let summary = try outbox.send(using: smtp, policy: policy)
        #expect(summary.sent == 2)
        let delivered = try server.deliveries()
        #expect(delivered.count == 2)
        for delivery in delivered {
            let date = try #require(dateHeader(delivery.message))
            // Not the queueing time, and not the retry's: the first attempt's (the header has whole seconds).
            #expect(date.timeIntervalSince1970 >= start.timeIntervalSince1970.rounded(.down))
            #expect(date.timeIntervalSince1970 < start.timeIntervalSince1970 + 1)
        }
    }

    @Test func restampingReplacesOnlyTheDateLine() throws {
        let message = Array("Date: Sun, 9 Sep 2001 01:46:40 +0000\r\nMessage-ID: <a@b>\r\n\r\nbody".utf8)
        let stamped = try #require(MIME.restamped(message, date: Date(timeIntervalSince1970: 1_800_000_000)))
        let expected = "Date: Fri, 15 Jan 2027 08:00:00 +0000\r\nMessage-ID: <a@b>\r\n\r\nbody"
        #expect(String(decoding: stamped, as: UTF8.self) == expected)
        #expect(MIME.restamped(Array("Subject: x\r\n\r\n".utf8), date: Date()) == nil)
    }
}
