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
        #expect(attachment.filename == name && attachment.mediaType == "application/pdf" && attachment.data == pdf)
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

    @Test("the server's SIZE: a larger message is refused by the server (552, failed); the others are sent")
    func serverSize() throws {
        guard requireVenv() else { return }
        let server = try SMTPTestServer(sizeLimit: 20_000)
        let dir = try Env.tempDirectory("attach-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = Composer.Attachment(
            filename: "big.bin", mediaType: "application/octet-stream", data: [UInt8](repeating: 1, count: 30_000))
        func draft(_ n: Int, _ attachments: [Composer.Attachment]) throws -> MailDraft {
            MailDraft(
                from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "c\(n)@example.org")],
                subject: "Nr \(n)", textBody: "x\n", attachments: attachments)
        }
        let outbox = try Outbox(directory: dir)
        _ = try outbox.enqueue([try draft(1, []), try draft(2, [big]), try draft(3, [])])
        let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: server.url))
        let summary = try outbox.send(using: smtp)
        #expect(summary.sent == 2 && summary.failed == 1)
        let failed = try outbox.status().items.first { $0.state == .failed }
        #expect(failed?.recipients == ["c2@example.org"] && failed?.lastCode == 552)
        #expect(try server.deliveries().flatMap(\.to).sorted() == ["c1@example.org", "c3@example.org"])
    }
}
