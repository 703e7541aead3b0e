import Foundation
import Testing

@testable import Composer

/// The .eml validator is the oracle of the MIME tests: it must pass what the writer produces and catch each
/// kind of damage it claims to check.
@Suite("scripts/check_eml.py catches broken messages")
struct EMLCheckerTests {
    static let good: String = {
        let draft = MailDraft(
            from: try! MailAddress(name: "Anna", address: "anna@example.com"),
            to: [try! MailAddress(name: "Jürgen Müller", address: "jm@example.org")],
            subject: "Grüße aus Köln", textBody: "Hallo Jürgen!\n", htmlBody: "<p>Hallo Jürgen!</p>\n")
        return String(
            decoding: try! MIMEWriter().write(draft, date: Date(timeIntervalSince1970: 1_790_000_000)), as: UTF8.self)
    }()

    /// Damage applied to a good message, and a piece of the error the validator must report.
    static let damages: [(name: String, damage: @Sendable (String) -> String, expected: String)] = [
        ("bare LF", { $0.replacingOccurrences(of: "\r\n", with: "\n") }, "bare LF"),
        ("line over 998", { $0.replacingOccurrences(of: "Hallo", with: String(repeating: "x", count: 1200)) }, "998"),
        ("bad field name", { "Bad Name: x\r\n" + $0 }, "expected 'name: value'"),
        ("8-bit header", { "X-Note: Grüße\r\n" + $0 }, "in the header"),
        ("second Subject", { "Subject: again\r\n" + $0 }, "'subject' appears 2 times"),
        ("no Date", { $0.replacingOccurrences(of: "Date:", with: "X-Date:") }, "'date' missing"),
        (
            "encoded-word in quotes", { "Reply-To: \"=?UTF-8?Q?J=C3=BCrgen?=\" <j@example.org>\r\n" + $0 },
            "quoted-string"
        ),
        ("split character", { "Comments: =?UTF-8?Q?J=C3?= =?UTF-8?Q?=BCrgen?=\r\n" + $0 }, "splits a character"),
        (
            "no close delimiter",
            { s in
                guard let r = s.range(of: "--\r\n", options: .backwards) else { return s }
                return s.replacingCharacters(in: r, with: "\r\n")
            }, "close delimiter"
        ),
        (
            "name fallback not the file name",
            { _ in
                "Date: Thu, 01 Jan 2026 12:00:00 +0000\r\nFrom: a@example.com\r\nMIME-Version: 1.0\r\n"
                    + "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n"
                    + "--b\r\nContent-Type: application/pdf;\r\n name=\"=?UTF-8?B?QUJD?=\"\r\n"
                    + "Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment;\r\n"
                    + " filename*=UTF-8''%C3%9Cbersicht.pdf\r\n\r\nAAAA\r\n--b--\r\n"
            }, "differs from the filename"
        ),
        (
            "8 bit labelled 7bit",
            { _ in
                "Date: Thu, 01 Jan 2026 12:00:00 +0000\r\nFrom: a@example.com\r\nMIME-Version: 1.0\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nGrüße\r\n"
            }, "labelled 7bit"
        ),
    ]

    @Test("the writer's output passes")
    func goodMessagePasses() throws {
        let reports = try validateEML([Array(Self.good.utf8)])
        #expect(reports.first?.errors == [])
        #expect(reports.first?.python?.subject == "Grüße aus Köln")
    }

    @Test("each damage is reported", arguments: 0..<damages.count)
    func damageIsReported(_ index: Int) throws {
        let d = Self.damages[index]
        let damaged = d.damage(Self.good)
        #expect(damaged != Self.good, "\(d.name): the damage changed nothing")
        let reports = try validateEML([Array(damaged.utf8)])
        let errors = reports.first?.errors ?? []
        #expect(errors.contains { $0.contains(d.expected) }, "\(d.name): \(errors)")
    }
}
