import Foundation
import Testing

@testable import Composer

/// Cc, Bcc, Reply-To and the headers of a bulk mailing (List-Unsubscribe, one-click, Precedence,
/// Auto-Submitted), in written messages and through an SMTP server.
@Suite("Mailing headers: Cc, Bcc, Reply-To, List-Unsubscribe", .serialized)
struct MailingHeadersTests {
    func draft() throws -> MailDraft {
        var d = MailDraft(
            from: try MailAddress(name: "Anna", address: "anna@example.com"),
            to: [try MailAddress(name: "Zoë", address: "zoe@example.org")],
            cc: try MailAddress.list(parsing: "\"Doe, Jane\" <jane@example.org>; bob@example.org"),
            bcc: [try MailAddress(address: "archive@example.com")],
            replyTo: [try MailAddress(address: "replies@example.com")], subject: "Neuigkeiten",
            textBody: "Hallo!\n")
        d.listUnsubscribe = [
            "https://example.com/leave?id=Zoë Ä,1&list=news", "mailto:leave@example.com?subject=leave%20zoe",
        ]
        d.extraHeaders = [
            MailHeader(name: "Precedence", value: "bulk"), MailHeader(name: "Auto-Submitted", value: "auto-generated"),
        ]
        return d
    }

    @Test("address lists: ',' or ';' between addresses, quoted names keep theirs, a bad item is named")
    func addressLists() throws {
        let list = try MailAddress.list(parsing: " \"Doe, Jane\" <jane@example.org> ;bob@example.org,, ")
        #expect(list.map(\.address) == ["jane@example.org", "bob@example.org"])
        #expect(list.first?.name == "Doe, Jane")
        #expect(try MailAddress.list(parsing: "  ").isEmpty)
        #expect(throws: ComposerError.self) { try MailAddress.list(parsing: "a@example.org, not an address") }
        #expect(throws: ComposerError.self) { try MailAddress.list(parsing: "A <a@example.org> B <b@example.org>") }
    }

    @Test("headers as written: Cc and Reply-To, no Bcc, List-Unsubscribe encoded, one-click for https")
    func written() throws {
        let bytes = try MIMEWriter().write(try draft())
        let text = String(decoding: bytes, as: UTF8.self)
        let head = String(text[..<text.range(of: "\r\n\r\n")!.lowerBound])
        #expect(head.contains("Cc: \"Doe, Jane\" <jane@example.org>, bob@example.org\r\n"))
        #expect(head.contains("Reply-To: replies@example.com\r\n"))
        #expect(!head.lowercased().contains("bcc") && !text.contains("archive@"))
        #expect(
            head.contains(
                "List-Unsubscribe:\r\n <https://example.com/leave?id=Zo%C3%AB%20%C3%84%2C1&list=news>,\r\n"
                    + " <mailto:leave@example.com?subject=leave%20zoe>\r\n"))
        #expect(head.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"))
        #expect(head.contains("Precedence: bulk\r\nAuto-Submitted: auto-generated\r\n"))
        try checkEML([("mailing", bytes)])
        // A saved draft keeps its Bcc.
        let saved = String(decoding: try MIMEWriter(includeBcc: true).write(try draft()), as: UTF8.self)
        #expect(saved.contains("Bcc: archive@example.com\r\n"))
    }

    @Test("a % that starts no escape is encoded; escapes already there are kept")
    func strayPercent() throws {
        var d = try draft()
        d.listUnsubscribe = ["mailto:leave@example.com?subject=100% off%2x%4A%e9%"]
        let text = String(decoding: try MIMEWriter().write(d), as: UTF8.self)
        #expect(text.contains("<mailto:leave@example.com?subject=100%25%20off%252x%4A%e9%25>"), "\(text)")
        try checkEML([("percent", Array(text.utf8))])
    }

    @Test("one-click only with an https URI; other schemes, header names and duplicates are refused")
    func refusals() throws {
        var d = try draft()
        d.listUnsubscribe = ["mailto:leave@example.com"]
        let text = String(decoding: try MIMEWriter().write(d), as: UTF8.self)
        #expect(text.contains("List-Unsubscribe: <mailto:leave@example.com>\r\n"))
        #expect(!text.contains("List-Unsubscribe-Post"))
        d.listUnsubscribe = ["javascript:alert(1)"]
        #expect(throws: ComposerError.self) { try MIMEWriter().write(d) }
        d.listUnsubscribe = ["https://example.com/\r\nBcc: x@example.com"]
        #expect(throws: ComposerError.headerInjection(field: "List-Unsubscribe")) { try MIMEWriter().write(d) }
        d.listUnsubscribe = []
        d.extraHeaders = [MailHeader(name: "List-Unsubscribe", value: "<https://example.com>")]
        #expect(throws: ComposerError.self) { try MIMEWriter().write(d) }
        d.extraHeaders = [MailHeader(name: "Precedence", value: "bulk"), MailHeader(name: "precedence", value: "list")]
        #expect(throws: ComposerError.self) { try MIMEWriter().write(d) }
    }

    @Test("through SMTP: Cc and Bcc in the envelope, Bcc in no header the server received")
    func throughSMTP() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer()
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let d = try draft()
        try smtp.deliver(try MIMEWriter().write(d), from: "anna@example.com", to: d.envelopeRecipients, onCommit: {})
        let got = try server.deliveries()
        #expect(got.count == 1)
        let delivery = try #require(got.first)
        #expect(
            delivery.to.sorted()
                == ["archive@example.com", "bob@example.org", "jane@example.org", "zoe@example.org"])
        let received = String(decoding: delivery.message, as: UTF8.self)
        #expect(!received.lowercased().contains("\nbcc:") && !received.contains("archive@"))
        try checkEML([("received", delivery.message)])
    }
}
