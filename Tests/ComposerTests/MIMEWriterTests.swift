import Foundation
import Testing

@testable import Composer

private let fixedDate = Date(timeIntervalSince1970: 1_790_000_000)

private func mailbox(_ name: String?, _ address: String) -> MailAddress {
    try! MailAddress(name: name, address: address)
}

/// Drafts covering scripts, specials, long lines, bodies that pick each transfer encoding, HTML, attachments.
func sampleDrafts() -> [(String, MailDraft)] {
    let from = mailbox("Anna Example", "anna@example.com")
    let longGerman = String(repeating: "Grüße aus Zürich, lieber Jürgen! ", count: 6)
    let longJapanese = String(repeating: "山田太郎様、いつもお世話になっております。", count: 5)
    let emoji = "🏳️‍🌈 Party 🎉 with 👩‍👩‍👧‍👦 and 🇮🇹 flags — " + String(repeating: "😜", count: 30)
    var drafts: [(String, MailDraft)] = [
        (
            "ascii",
            MailDraft(
                from: from, to: [mailbox(nil, "bob@example.org")], subject: "Hello Bob", textBody: "Hi Bob,\nsee you.\n"
            )
        ),
        (
            "specials",
            MailDraft(
                from: from,
                to: [
                    mailbox("Jürgen Müller, Esq.", "jm@example.org"),
                    mailbox("Doe, Jane \"JD\" \\ Q.", "jane@example.net"),
                    mailbox("Mr. O'Neil (Sales)", "oneil@example.com"),
                ],
                cc: [mailbox("山田 太郎", "taro@example.org"), mailbox("Ελένη Παπαδοπούλου", "eleni@example.net")],
                subject: "Re: Grüße, Jürgen", textBody: "Grüße!\n")
        ),
        (
            "long-subjects",
            MailDraft(
                from: from, to: [mailbox("محمد عبد الله", "m@example.com")], subject: longGerman,
                textBody: longJapanese)
        ),
        (
            "japanese",
            MailDraft(
                from: mailbox("山田 太郎", "taro@example.org"), to: [mailbox(nil, "x@example.com")],
                subject: longJapanese, textBody: longJapanese + "\n" + longJapanese)
        ),
        (
            "emoji",
            MailDraft(from: from, to: [mailbox("🏳️‍🌈 Party 🎉 😜", "e@example.com")], subject: emoji, textBody: emoji)
        ),
        (
            "encoded-word-lookalike",
            MailDraft(
                from: from, to: [mailbox("=?UTF-8?B?Zm9v?=", "l@example.com")],
                subject: "=?UTF-8?B?Zm9v?= is not decoded", textBody: "x")
        ),
        (
            "whitespace",
            MailDraft(
                from: from, to: [mailbox("  spaced   name ", "s@example.com")],
                subject: "  two  spaces\tand tab  ", textBody: "trailing   \nspaces\t\r\nand CR\rlines   ")
        ),
        (
            "long-ascii-line",
            MailDraft(
                from: from, to: [mailbox(nil, "l@example.com")],
                subject: String(repeating: "x", count: 120),
                textBody: String(repeating: "abcdefghij", count: 50) + "\n=== equals ===\n")
        ),
        (
            "html",
            MailDraft(
                from: from, to: [mailbox("Zoë", "zoe@example.com")], subject: "Einladung",
                textBody: "Hallo Zoë,\nbis bald.", htmlBody: "<p>Hallo <b>Zoë</b>,</p>\n<p>bis bald.</p>")
        ),
        (
            "attachments",
            MailDraft(
                from: from, to: [mailbox(nil, "a@example.com")], subject: "Files",
                textBody: "Two files.", htmlBody: "<p>Two files.</p>",
                attachments: [
                    Attachment(
                        filename: "card.vcf", mediaType: "text/vcard", data: Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)),
                    Attachment(
                        filename: "Überblick über die Größenordnungen der Ergebnisse 2026 – endgültig.pdf",
                        mediaType: "application/pdf", data: (0..<3000).map { UInt8($0 % 251) }),
                    Attachment(filename: "写真.jpg", mediaType: "image/jpeg", data: [0xFF, 0xD8, 0xFF]),
                ])
        ),
        (
            "idn-and-quoted",
            MailDraft(
                from: mailbox("Bücher", "info@bücher.example"),
                to: [mailbox(nil, "user@example.com")],
                replyTo: [mailbox("Support", "help@example.org")],
                subject: "IDN", textBody: "ok",
                extraHeaders: [
                    MailHeader(name: "X-Campaign", value: "Frühling 2026"),
                    MailHeader(name: "In-Reply-To", value: "<abc@example.com>"),
                ],
                locale: "de_CH")
        ),
        ("empty", MailDraft(from: from, to: [mailbox(nil, "e@example.com")], subject: "", textBody: "")),
        (
            "bcc-only",
            MailDraft(from: from, bcc: [mailbox(nil, "hidden@example.com")], subject: "hidden", textBody: "b")
        ),
    ]
    drafts.append(
        (
            "mixed-scripts",
            MailDraft(
                from: from,
                to: [
                    mailbox("Łukasz Żółć", "l@example.pl"), mailbox("Nguyễn Văn A", "n@example.vn"),
                    mailbox("김민준", "k@example.kr"), mailbox("अनीता", "a@example.in"),
                ],
                subject: "Привет — שלום — مرحبا — नमस्ते — 你好 — こんにちは",
                textBody: "Привет\nשלום\nمرحبا\n")
        ))
    return drafts
}

@Suite("MIME writer")
struct MIMEWriterTests {
    @Test("every sample message passes check_eml.py and both parsers decode our inputs")
    func samplesValidate() throws {
        let drafts = sampleDrafts()
        let messages = try drafts.map { ($0.0, try MIMEWriter().write($0.1, date: fixedDate)) }
        let reports = try checkEML(messages)
        for (report, (label, draft)) in zip(reports, drafts) {
            guard let py = report.python else { continue }
            #expect(py.subject == draft.subject, "\(label)")
            #expect(py.from?.first == [draft.from?.name ?? "", draft.from!.asciiAddress], "\(label)")
            #expect(py.to?.map { $0[1] }.sorted() == draft.to.map(\.asciiAddress).sorted(), "\(label)")
            let names = Dictionary(uniqueKeysWithValues: (py.to ?? []).map { ($0[1], $0[0]) })
            for a in draft.to {
                #expect(names[a.asciiAddress] == (a.name ?? "").trimmingCharacters(in: .whitespaces), "\(label)")
            }
            let expectedText = draft.textBody.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
                of: "\r", with: "\n")
            #expect(py.plain == expectedText, "\(label)")
            if let html = draft.htmlBody { #expect(py.html == html, "\(label)") }
        }
    }

    @Test func structureAndHeaders() throws {
        let bytes = try MIMEWriter().write(sampleDrafts()[9].1, date: fixedDate, messageID: "<fixed@example.com>")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("Date: Mon, 21 Sep 2026 14:13:20 +0000\r\nMessage-ID: <fixed@example.com>\r\n"))
        #expect(text.contains("Content-Type: multipart/mixed;\r\n boundary=\"=_"))
        #expect(text.contains("Content-Type: multipart/alternative;"))
        #expect(text.contains("filename*0*=UTF-8''%C3%9Cberblick"))
        #expect(text.contains("filename=\"card.vcf\""))
        #expect(!bytes.contains(0) && !text.contains("\n\n"))
    }

    @Test("a 7-bit body can never hold a delimiter line, even when the boundary is known in advance")
    func bodyCannotForgeABoundary() throws {
        // With a given Message-ID the boundary is reproducible: write once to learn it, then send a body
        // that contains its delimiter lines.
        func write(_ text: String) throws -> String {
            let d = MailDraft(
                from: mailbox(nil, "a@example.com"), to: [mailbox(nil, "b@example.com")], subject: "s",
                textBody: text, htmlBody: "<p>x</p>")
            return String(
                decoding: try MIMEWriter().write(d, date: fixedDate, messageID: "<fixed@example.com>"), as: UTF8.self)
        }
        let first = try write("hello")
        let boundary = try #require(first.firstMatch(of: /boundary="([^"]+)"/)?.1)
        let forged = "hello\n--\(boundary)\nContent-Type: text/html\n\n<script>x</script>\n--\(boundary)--\n"
        let message = try write(forged)
        #expect(message.components(separatedBy: "\r\n--\(boundary)\r\n").count == 3)  // two parts, as written
        let reports = try checkEML([("forged body", Array(message.utf8))])
        #expect(reports.first?.python?.plain == forged)
    }

    @Test func transferEncodingIsTheSmaller() throws {
        func cte(_ body: String) throws -> String {
            let d = MailDraft(
                from: mailbox(nil, "a@example.com"), to: [mailbox(nil, "b@example.com")], subject: "s", textBody: body)
            let t = String(decoding: try MIMEWriter().write(d, date: fixedDate), as: UTF8.self)
            let line = t.components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Transfer-Encoding:") }!
            return String(line.dropFirst("Content-Transfer-Encoding: ".count))
        }
        #expect(try cte("plain ascii") == "7bit")
        #expect(try cte("Hello Zoë, the meeting moved to Thursday at the usual place.") == "quoted-printable")
        #expect(try cte("Grüße aus Zürich") == "base64")  // 31 octets as QP, 30 as base64
        #expect(try cte(String(repeating: "山田太郎", count: 20)) == "base64")
        #expect(try cte(String(repeating: "a", count: 100)) == "quoted-printable")
    }

    @Test func bccOnlyInSavedDrafts() throws {
        let d = sampleDrafts().first { $0.0 == "bcc-only" }!.1
        #expect(!String(decoding: try MIMEWriter().write(d), as: UTF8.self).contains("Bcc:"))
        #expect(
            String(decoding: try MIMEWriter(includeBcc: true).write(d), as: UTF8.self).contains(
                "Bcc: hidden@example.com\r\n"))
        #expect(d.envelopeRecipients == ["hidden@example.com"])
    }

    @Test func refusesBadInput() throws {
        let from = mailbox(nil, "a@example.com")
        let to = [mailbox(nil, "b@example.com")]
        #expect(throws: ComposerError.headerInjection(field: "subject")) {
            try MIMEWriter().write(MailDraft(from: from, to: to, subject: "hi\r\nBcc: victim@example.com"))
        }
        #expect(throws: ComposerError.headerInjection(field: "X-Note")) {
            try MIMEWriter().write(
                MailDraft(from: from, to: to, extraHeaders: [MailHeader(name: "X-Note", value: "a\nb")]))
        }
        #expect(throws: ComposerError.self) {
            try MIMEWriter().write(
                MailDraft(from: from, to: to, extraHeaders: [MailHeader(name: "Bcc", value: "x@example.com")]))
        }
        #expect(throws: ComposerError.self) {
            try MIMEWriter().write(MailDraft(from: from, to: to, extraHeaders: [MailHeader(name: "X Bad", value: "v")]))
        }
        #expect(throws: ComposerError.headerInjection(field: "attachment filename")) {
            try MIMEWriter().write(
                MailDraft(
                    from: from, to: to,
                    attachments: [Attachment(filename: "a\r\n.txt", mediaType: "text/plain", data: [])]))
        }
        #expect(throws: ComposerError.invalidMediaType("text")) {
            try MIMEWriter().write(
                MailDraft(from: from, to: to, attachments: [Attachment(filename: "a", mediaType: "text", data: [])]))
        }
        #expect(throws: ComposerError.missingField("from")) { try MIMEWriter().write(MailDraft(to: to)) }
        #expect(throws: ComposerError.missingField("to")) { try MIMEWriter().write(MailDraft(from: from)) }
        #expect(throws: ComposerError.invalidLocale("de CH")) {
            try MIMEWriter().write(MailDraft(from: from, to: to, locale: "de CH"))
        }
    }

    @Test("a display name with CR/LF is folded to a space for the header, not refused")
    func displayNameLineBreaksAreFolded() throws {
        let eve = try MailAddress(name: "Eve\r\nBcc: x@example.com", address: "e@example.com")
        #expect(eve.name == "Eve Bcc: x@example.com")
        #expect(try MailAddress(name: " Ada \r\n\tLovelace\n\0", address: "ada@example.org").name == "Ada Lovelace")
        #expect(try MailAddress(name: "\r\n", address: "ada@example.org").name == nil)
        let from = try MailAddress(address: "ada@example.org")
        let text = String(
            decoding: try MIMEWriter().write(MailDraft(from: from, to: [eve], subject: "Hi")), as: UTF8.self)
        let headers = text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(headers.contains("To: \"Eve Bcc: x@example.com\" <e@example.com>"), "\(headers)")
        #expect(!headers.contains { $0.hasPrefix("Bcc:") })
    }

    @Test func dateFormatting() {
        var out: [UInt8] = []
        MIME.appendDate(Date(timeIntervalSince1970: 0), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Thu, 01 Jan 1970 00:00:00 +0000")
        out = []
        MIME.appendDate(Date(timeIntervalSince1970: 951_782_400), to: &out)  // leap day
        #expect(String(decoding: out, as: UTF8.self) == "Tue, 29 Feb 2000 00:00:00 +0000")
    }

    @Test func quotedPrintableKeepsLinesShortAndRoundTrips() {
        var out: [UInt8] = []
        let input = MIME.normalizedLines(
            String(repeating: "é=x ", count: 40) + "end \n" + String(repeating: "a", count: 200))
        QuotedPrintable.append(input, to: &out)
        let lines = String(decoding: out, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(decodeQP(out) == input)
    }
}

/// Minimal quoted-printable decoder used as the test oracle.
func decodeQP(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    func hex(_ b: UInt8) -> UInt8 { b <= 57 ? b - 48 : b - 55 }
    while i < data.count {
        if data[i] == 61 {
            if i + 2 < data.count && data[i + 1] == 13 && data[i + 2] == 10 {
                i += 3
                continue
            }
            out.append(hex(data[i + 1]) << 4 | hex(data[i + 2]))
            i += 3
        } else {
            out.append(data[i])
            i += 1
        }
    }
    return out
}
