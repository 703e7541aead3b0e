import Foundation
import Testing

@testable import Composer

/// `SMTPTransport` is `Sendable` (checked by the compiler, no `@unchecked`): one transport may be shared by
/// tasks, which then take turns on its one connection.
@Suite("One SMTP transport shared by tasks", .serialized)
struct SharedTransportTests {
    static func draft(_ n: Int) throws -> MailDraft {
        MailDraft(
            from: try MailAddress(name: "Anna Example", address: "anna@example.com"),
            to: [try MailAddress(address: "rcpt\(n)@example.com")],
            bcc: [try MailAddress(address: "hidden\(n)@example.org")],
            subject: "Message \(n)", textBody: "Hello \(n).\n")
    }

    @Test func tasksShareOneTransport() async throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let count = 12
        let results = try await withThrowingTaskGroup(of: (Int, ComposeResult).self) { group in
            for n in 0..<count {
                // `smtp` crosses into each child task: this compiles only while the transport is Sendable.
                group.addTask { (n, try smtp.send(try Self.draft(n))) }
            }
            var results: [Int: ComposeResult] = [:]
            for try await (n, result) in group { results[n] = result }
            return results
        }
        #expect(results.count == count)
        for n in 0..<count { #expect(results[n] == .sent, "message \(n): \(String(describing: results[n]))") }
        let got = try server.deliveries()
        #expect(got.count == count)
        // Each message went out whole, to its own envelope, once.
        let envelopes = Set(got.map { $0.to.joined(separator: ",") })
        #expect(envelopes == Set((0..<count).map { "rcpt\($0)@example.com,hidden\($0)@example.org" }))
        for delivery in got {
            let text = String(decoding: delivery.message, as: UTF8.self)
            let n = delivery.to.first.map { String($0.dropFirst(4).prefix { $0.isNumber }) } ?? "?"
            #expect(text.contains("Subject: Message \(n)\r\n") && text.contains("Hello \(n)."))
            #expect(!text.contains("hidden"))
        }
    }

    @Test func theWriterIsChosenAtInit() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let keepsBcc = try SMTPTransport(
            configuration: SMTPConfiguration(url: server.url), writer: MIMEWriter(includeBcc: true))
        #expect(keepsBcc.writer.includeBcc)
        #expect(try keepsBcc.send(try Self.draft(1)) == .sent)
        let plain = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        #expect(try plain.send(try Self.draft(2)) == .sent)
        let texts = try server.deliveries().map { String(decoding: $0.message, as: UTF8.self) }
        #expect(texts.count == 2)
        #expect(texts.filter { $0.contains("Bcc: hidden1@example.org") }.count == 1)
        #expect(!texts.contains { $0.contains("hidden2") })
    }
}
