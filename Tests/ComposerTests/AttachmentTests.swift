import Foundation
import Testing

@testable import Composer

/// Attachments from files: media types by content and extension, RFC 2231 names, size limits (the
/// delivery's and the server's SIZE), and files that cannot be read.
@Suite("Attachments from files", .serialized)
struct AttachmentTests {
    @Test("media type: the content's signature first, then the extension, then text or octets")
    func mediaTypes() {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]
        #expect(MediaType.guess(Array("%PDF-1.7\n".utf8), filename: "Plan.txt") == "application/pdf")
        #expect(MediaType.guess([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], filename: "x") == "image/png")
        #expect(MediaType.guess([0xFF, 0xD8, 0xFF, 0xE0], filename: "photo.PNG") == "image/jpeg")
        #expect(MediaType.guess(Array("BEGIN:VCARD\r\n".utf8), filename: "ada") == "text/vcard")
        #expect(
            MediaType.guess(zip, filename: "Bericht.docx")
                == "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        #expect(MediaType.guess(zip, filename: "a.odt") == "application/vnd.oasis.opendocument.text")
        #expect(MediaType.guess(zip, filename: "archive") == "application/zip")
        #expect(MediaType.guess(zip, filename: "notes.txt") == "application/zip")
        #expect(MediaType.guess(Array("RIFF\0\0\0\0WEBPVP8 ".utf8), filename: "p") == "image/webp")
        #expect(MediaType.guess(Array("a,b\n1,2\n".utf8), filename: "Gäste.CSV") == "text/csv")
        #expect(MediaType.guess(Array("Grüße\n".utf8), filename: "README") == "text/plain")
        #expect(MediaType.guess([0, 1, 2, 0xFF], filename: "blob") == "application/octet-stream")
    }

    @Test("a file keeps its non-ASCII name (RFC 2231) and its bytes; Python reads both back")
    func fromFile() throws {
        guard requireVenv() else { return }
        let dir = try Env.tempDirectory("attach")
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "Übersicht März 2026 – Zusammenfassung für alle Teilnehmenden.pdf"
        let pdf = Array("%PDF-1.4\n".utf8) + (0..<3000).map { UInt8($0 % 251) }
        try Data(pdf).write(to: dir.appendingPathComponent(name))
        let attachment = try Composer.Attachment(contentsOfFile: dir.appendingPathComponent(name).path)
        let contents = try attachment.contents()
        #expect(attachment.filename == name && attachment.mediaType == "application/pdf" && contents == pdf)
        #expect(attachment.size == pdf.count)
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Plan", textBody: "Anbei.\n", attachments: [attachment])
        let bytes = try MIMEWriter().write(draft)
        try checkEML([("attachment", bytes)])
        let file = dir.appendingPathComponent("m.eml")
        try Data(bytes).write(to: file)
        let script = """
            import email, email.policy, sys, hashlib
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.strict)
            a = [p for p in m.iter_attachments()][0]
            print(a.get_filename()); print(a.get_content_type()); print(hashlib.sha256(a.get_content()).hexdigest())
            """
        let r = try Env.run(Env.python, ["-c", script, file.path])
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(r.err)")
        #expect(lines.first == name)
        #expect(lines.dropFirst().first == "application/pdf")
        let expected = try Env.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [dir.appendingPathComponent(name).path])
        #expect(lines.last.map { expected.out.hasPrefix($0) } == true)
    }

    @Test("text attachments carry charset=utf-8; text in another encoding goes as application/octet-stream")
    func textCharset() throws {
        guard requireVenv() else { return }
        let dir = try Env.tempDirectory("attach-charset")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files: [(String, [UInt8])] = [
            ("notes.txt", Array("Grüße aus Zürich – 東京\n".utf8)), ("gäste.csv", Array("name;ort\nZoë;Köln\n".utf8)),
            ("README.md", Array("# Plan\n\n*Café* at 8\n".utf8)), ("plain.txt", Array("ASCII only\n".utf8)),
            ("latin1.txt", [0x5A, 0x6F, 0xEB, 0x20, 0x4B, 0xF6, 0x6C, 0x6E, 0x0A]),
        ]
        var attachments: [Composer.Attachment] = []
        for (name, bytes) in files {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
            attachments.append(try Composer.Attachment(contentsOfFile: dir.appendingPathComponent(name).path))
        }
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Files", textBody: "Anbei.\n", attachments: attachments)
        let bytes = try MIMEWriter().write(draft)
        try checkEML([("text attachments", bytes)])
        let file = dir.appendingPathComponent("m.eml")
        try Data(bytes).write(to: file)
        // The strict policy raises on any defect; get_content() decodes text parts with their charset.
        let script = """
            import email, email.policy, sys
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.strict)
            for a in m.iter_attachments():
                assert not a.defects, a.defects
                c = a.get_content()
                print(a.get_filename(), a.get_content_type(), a.get_param('charset'),
                      c.encode('utf-8').hex() if isinstance(c, str) else c.hex())
            """
        let r = try Env.run(Env.python, ["-c", script, file.path])
        #expect(r.status == 0, "\(r.err)")
        func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
        let expected = [
            "notes.txt text/plain utf-8 \(hex(files[0].1))", "gäste.csv text/csv utf-8 \(hex(files[1].1))",
            "README.md text/markdown utf-8 \(hex(files[2].1))", "plain.txt text/plain utf-8 \(hex(files[3].1))",
            "latin1.txt application/octet-stream None \(hex(files[4].1))",
        ]
        #expect(r.out.split(separator: "\n").map(String.init) == expected, "\(r.out)")
        #expect(MediaType.label("text/vcard", data: Array("BEGIN:VCARD\r\n".utf8)) == ("text/vcard", "utf-8"))
        #expect(MediaType.label("application/pdf", data: [0xFF]) == ("application/pdf", nil))
    }

    @Test("a missing file, a folder or an unreadable file is an error naming the file")
    func unreadable() throws {
        let dir = try Env.tempDirectory("attach-missing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("nope.pdf").path
        #expect {
            try Composer.Attachment(contentsOfFile: missing)
        } throws: { error in
            guard case ComposerError.io(let path, let message) = error else { return false }
            return path == missing && message.contains("No such file")
        }
        #expect {
            try Composer.Attachment(contentsOfFile: dir.path)
        } throws: { error in
            guard case ComposerError.io(_, let message) = error else { return false }
            return message.contains("not a plain file")
        }
    }

    @Test("a message over the writer's limit is refused with its size; the delivery refuses only that one")
    func sizeLimit() throws {
        let big = Composer.Attachment(
            filename: "big.bin", mediaType: "application/octet-stream", data: [UInt8](repeating: 7, count: 60_000))
        var draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Big", textBody: "x\n", attachments: [big])
        #expect {
            try MIMEWriter(maxMessageSize: 50_000).write(draft)
        } throws: { error in
            guard case ComposerError.messageTooLarge(let size, let limit) = error else { return false }
            return size > 80_000 && limit == 50_000
        }
        let small = draft
        draft.attachments = []
        var delivery = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:1")))
        delivery.maxMessageSize = 50_000
        var refused: [String] = []
        let summary = delivery.dryRun(
            [DeliveryItem(label: "big", draft: small), DeliveryItem(label: "small", draft: draft)]
        ) { event in
            if case .refused(let label, _, .messageTooLarge) = event { refused.append(label) }
        }
        #expect(refused == ["big"] && summary.failed == 1 && summary.skipped == 1)
    }

    func sized(_ n: Int, _ attachments: [Composer.Attachment]) throws -> MailDraft {
        MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "c\(n)@example.org")],
            subject: "Nr \(n)", textBody: "x\n", attachments: attachments)
    }

    var big: Composer.Attachment {
        Composer.Attachment(
            filename: "big.bin", mediaType: "application/octet-stream", data: [UInt8](repeating: 1, count: 30_000))
    }

    @Test("the server's SIZE: once known, a larger message is not offered to it (failed); the others are sent")
    func serverSize() throws {
        guard requireVenv() else { return }
        let server = try FaultSMTPServer(size: 20_000)
        let dir = try Env.tempDirectory("attach-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        // The first message is larger than the limit before anything is known: libcurl declares its size
        // with MAIL FROM (SIZE=), and the server refuses it there, before any of it is sent.
        _ = try outbox.enqueue([try sized(0, [big]), try sized(1, []), try sized(2, [big]), try sized(3, [])])
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let summary = try outbox.send(using: smtp)
        #expect(summary.sent == 2 && summary.failed == 2)
        #expect(smtp.serverCapabilities?.sizeLimit == 20_000 && smtp.serverCapabilities?.offers("8BITMIME") == true)
        let items = try outbox.status().items
        #expect(items[0].state == .failed && items[0].lastCode == 552)
        #expect(items[2].state == .failed && items[2].lastCode == nil)
        #expect(
            items[2].lastError?.contains("more than the SIZE limit of 20000 bytes that \(server.url) announces") == true
        )
        #expect(try server.stored().flatMap(\.to).sorted() == ["c1@example.org", "c3@example.org"])
        let mails = server.commands().filter { $0.uppercased().hasPrefix("MAIL FROM") }
        #expect(mails.count == 3, "\(mails)")
        #expect(mails[0].contains("SIZE=") && server.commands().filter { $0 == "DATA" }.count == 2)
    }

    @Test("a new batch asks the server's SIZE first: a larger message is refused before queueing, by label")
    func serverSizeBeforeQueueing() throws {
        guard requireVenv() else { return }
        let server = try FaultSMTPServer(size: 20_000)
        let dir = try Env.tempDirectory("attach-size-queue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let delivery = Delivery(target: .smtp(try SMTPConfiguration(url: server.url)))
        var refused: [(String, ComposerError)] = []
        let summary = try delivery.deliver(
            DeliveryBatch(mail: [
                DeliveryItem(label: "Ann", draft: try sized(1, [big])),
                DeliveryItem(label: "Bob", draft: try sized(2, [])),
            ]), outbox: .new(in: dir)
        ) { event in
            if case .refused(let label, _, let error) = event { refused.append((label, error)) }
        }
        #expect(summary.sent == 1 && summary.failed == 1)
        #expect(refused.count == 1 && refused.first?.0 == "Ann")
        guard case .exceedsServerSize(let size, 20_000, server.url)? = refused.first?.1 else {
            Issue.record("\(refused)")
            return
        }
        #expect(size > 30_000)
        #expect(try server.stored().flatMap(\.to) == ["c2@example.org"])
        #expect(server.commands().filter { $0.uppercased().hasPrefix("MAIL FROM") }.count == 1)
        // The delivery's own limit stays the smaller one: it is named as before.
        var strict = delivery
        strict.maxMessageSize = 10_000
        var errors: [ComposerError] = []
        _ = try strict.deliver(
            DeliveryBatch(mail: [DeliveryItem(label: "Ann", draft: try sized(1, [big]))]), outbox: .new(in: dir)
        ) { event in
            if case .refused(_, _, let error) = event { errors.append(error) }
        }
        #expect(
            errors.count == 1
                && errors.first.map { if case .messageTooLarge(_, 10_000) = $0 { true } else { false } } == true)
    }

    @Test("EHLO replies: extensions and SIZE read out; SIZE alone or 0 is no limit")
    func capabilities() {
        let caps = SMTPCapabilities(ehloReply: [
            "mx.example.com Hello", "PIPELINING", "SIZE 35882577", "auth PLAIN LOGIN",
        ])
        #expect(caps.extensions == ["PIPELINING", "SIZE 35882577", "auth PLAIN LOGIN"])
        #expect(
            caps.sizeLimit == 35_882_577 && caps.parameters(of: "AUTH") == "PLAIN LOGIN" && !caps.offers("STARTTLS"))
        #expect(SMTPCapabilities(ehloReply: ["mx", "SIZE"]).sizeLimit == nil)
        #expect(SMTPCapabilities(ehloReply: ["mx", "SIZE 0"]).sizeLimit == nil)
        var reader = EHLOReplyReader()
        reader.sent("EHLO client\r\n")
        reader.received("250-mx.example.com\r\n")
        reader.received("250-SIZE 1000\r\n250-8BITMIME\r\n")
        #expect(reader.capabilities == nil)
        reader.received("250 STARTTLS\r\n")
        #expect(reader.capabilities?.extensions == ["SIZE 1000", "8BITMIME", "STARTTLS"])
        reader.sent("EHLO client\r\n")
        reader.received("250 mx.example.com\r\n")
        #expect(reader.capabilities?.extensions == [] && reader.capabilities?.sizeLimit == nil)
    }
}
