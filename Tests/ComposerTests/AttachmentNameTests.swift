import Foundation
import Testing

@testable import Composer

/// Attachment names in any script and of any length reach every parser whole, and attached files are read
/// only while a message is written.
@Suite("Attachment names and attached files", .serialized)
struct AttachmentNameTests {
    /// Samples of ten scripts (2-, 3- and 4-octet UTF-8, combining marks, emoji sequences), and ASCII with
    /// the characters a quoted name cannot hold as they are.
    static let samples = [
        "Grüße Zoë façade œuvre", "Ελληνικά ονόματα αρχείων", "Привет мир файл отчёт", "مرحبا بالعالم ملف",
        "שלום עולם קובץ", "नमस्ते दुनिया फ़ाइल", "你好世界文件报告", "こんにちはカタカナ資料", "안녕하세요 세계 파일",
        "👩‍👩‍👧 🇩🇪 🎉 ✈️", #"plan "v2" =?UTF-8?Q?x?= back\slash; a=b"#,
    ]

    /// A name of exactly `length` UTF-8 octets from `sample` (its scalars in turn), padded at the front
    /// with `x` so that character boundaries fall at every offset as the length grows.
    static func name(_ sample: String, length: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var used = 0
        var cycle = sample.unicodeScalars.makeIterator()
        while true {
            guard let next = cycle.next() else {
                cycle = sample.unicodeScalars.makeIterator()
                continue
            }
            let size = String(next).utf8.count
            if used + size > length { break }
            scalars.append(next)
            used += size
        }
        return String(repeating: "x", count: length - used) + String(scalars)
    }

    @Test("names in 10 scripts at every length from 1 to 200 bytes: strict email, check_eml.py, the same name back")
    func namesInEveryScriptAndLength() throws {
        guard requireVenv() else { return }
        var names: [String] = []
        for sample in Self.samples {
            for length in 1...200 { names.append(Self.name(sample, length: length)) }
        }
        #expect(names.allSatisfy { !$0.isEmpty } && names[199].utf8.count == 200)
        let from = try MailAddress(address: "anna@example.com")
        let to = [try MailAddress(address: "b@example.org")]
        let writer = MIMEWriter()
        let messages = try names.enumerated().map { i, name in
            let draft = MailDraft(
                from: from, to: to, subject: "Datei", textBody: "Anbei.\n",
                attachments: [Composer.Attachment(filename: name, mediaType: "application/pdf", data: [1, 2, 3])])
            return (label: "name \(i) (\(name.utf8.count) bytes): \(name)", bytes: try writer.write(draft))
        }
        try checkEML(messages)
        let dir = try Env.tempDirectory("attach-names")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, m) in messages.enumerated() { try Data(m.bytes).write(to: dir.appendingPathComponent("\(i).eml")) }
        try JSONEncoder().encode(names).write(to: dir.appendingPathComponent("names.json"))
        // Each message read back with the strict policy (a defect raises) and by a second parser: the file
        // name (Content-Disposition), the `name` fallback (Content-Type) and fast-mail-parser's name are the
        // original name (a trailing space kept, except by get_filename(), which strips the ends).
        let script = """
            import email, email.policy, json, sys, os
            import fast_mail_parser
            names = json.load(open(os.path.join(sys.argv[1], 'names.json'), encoding='utf-8'))
            bad = 0
            for i, name in enumerate(names):
                data = open(os.path.join(sys.argv[1], f'{i}.eml'), 'rb').read()
                m = email.message_from_bytes(data, policy=email.policy.strict.clone(raise_on_defect=True))
                a = next(m.iter_attachments())
                disposition = a['Content-Disposition']
                got = [a.get_filename(), a['Content-Type'].params.get('name'),
                       fast_mail_parser.parse_email(data).attachments[0].filename]
                # get_filename() strips the ends (its documented behaviour); the others keep the name as written.
                if disposition.defects or got[0] != name.strip() or got[1:] != [name, name]:
                    bad += 1
                    print(i, repr(name), [repr(g) for g in got], disposition.defects)
            print('bad', bad)
            """
        let r = try Env.run(Env.python, ["-c", script, dir.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasSuffix("bad 0\n"), "\(r.out.suffix(3000))")
    }

    @Test("continuations end on character boundaries; =? is encoded, not quoted; the name fallback is RFC 2047")
    func parametersAsWritten() throws {
        let name = "Zusammenfassung für alle Teilnehmenden – März 2026 (endgültig).pdf"
        let pieces = MIME.rfc2231Pieces(name)
        #expect(pieces.count > 1 && pieces.allSatisfy { $0.count <= 56 })
        // Each piece decodes to whole characters on its own.
        for piece in pieces {
            let text = String(decoding: piece, as: UTF8.self).replacingOccurrences(of: "UTF-8''", with: "")
            #expect(text.removingPercentEncoding != nil, "\(text)")
        }
        #expect(!MIME.isPlainFilename("a=?b.pdf") && MIME.isPlainFilename("a=b?.pdf") && MIME.isPlainFilename("a.pdf"))
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "x", textBody: "y\n",
            attachments: [Composer.Attachment(filename: "Übersicht.pdf", mediaType: "application/pdf", data: [1])])
        let text = String(decoding: try MIMEWriter().write(draft), as: UTF8.self)
        #expect(text.contains("Content-Type: application/pdf;\r\n name=\"=?UTF-8?B?w5xiZXJzaWNodC5wZGY=?=\"\r\n"))
        #expect(text.contains("filename*=UTF-8''%C3%9Cbersicht.pdf\r\n"))
    }

    @Test("an attached file is read when the message is written, not held; a file changed since is refused")
    func filesAreReadWhenWritten() throws {
        let dir = try Env.tempDirectory("attach-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plan.pdf")
        let bytes = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x42, count: 100_000)
        try Data(bytes).write(to: file)
        let attachment = try Composer.Attachment(contentsOfFile: file.path)
        guard case .file(let attached) = attachment.content else {
            Issue.record("the file's bytes are held in the draft")
            return
        }
        #expect(
            attached.size == bytes.count && attachment.size == bytes.count && attachment.mediaType == "application/pdf")
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "b@example.org")],
            subject: "Plan", textBody: "Anbei.\n", attachments: [attachment])
        let written = try MIMEWriter().write(draft)
        #expect(written.count > bytes.count * 4 / 3)
        try checkEML([("file attachment", written)])
        // Changed after it was attached: the message is refused, naming the file.
        try Data(bytes + [0x0A]).write(to: file)
        #expect {
            try MIMEWriter().write(draft)
        } throws: { error in
            guard case ComposerError.io(let path, let message) = error else { return false }
            return path == file.path && message.contains("changed since it was attached")
        }
        try FileManager.default.removeItem(at: file)
        #expect(throws: ComposerError.self) { try MIMEWriter().write(draft) }
    }
}
