import Foundation
import TestSupport
import Testing

/// Mail merge from the command line: Cc/Bcc/Reply-To and List-Unsubscribe from options and from columns
/// of --recipients, checked on what a real SMTP server received.
@Suite("compose: mail-merge options", .serialized)
struct MailMergeCLITests {
    typealias Listing = DeliveryCLITests.Listing

    /// Two email recipients of the sample address book (id and address).
    func recipients() throws -> [Listing.Section.Item] {
        let listing = try CLI.run(["list", "--mode", "email", "--json", "--locale", "en"])
        let items = try JSONDecoder().decode(Listing.self, from: listing.stdoutData).sections.flatMap(\.items)
        return Array(items.prefix(2))
    }

    /// A folder with a template library holding `note` (subject and text body).
    func setup() throws -> (dir: URL, templates: URL) {
        let dir = Scratch.path("mailmerge")
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Hello {{recipient.name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "See you.\n".write(to: note.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        return (dir, dir.appendingPathComponent("templates"))
    }

    /// Runs scripts/check_eml.py over `files`; every one must pass.
    func expectValid(_ files: [URL], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        let r = try runToEnd(
            [DemoCLITests.python, DemoCLITests.checkEML.path] + files.map(\.path),
            environment: [:])
        #expect(r.status == 0, "\(r.output)", sourceLocation: sourceLocation)
        #expect(
            r.output.components(separatedBy: ": 0 error(s)").count - 1 == files.count, "\(r.output)",
            sourceLocation: sourceLocation)
    }

    struct Received: Decodable {
        var from: String
        var to: [String]
    }

    @Test("--cc/--bcc/--reply-to and cc/bcc/reply-to columns; Bcc only in the envelope the server got")
    func copiesThroughSMTP() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        let csv =
            "id,cc,bcc,reply-to\n\(picked[0].id),\"\"\"Doe, Jane\"\" <jane@example.org>; joe@example.org\",boss@example.com,\n"
            + "\(picked[1].id),,,desk@example.com\n"
        try csv.write(to: dir.appendingPathComponent("guests.csv"), atomically: true, encoding: .utf8)
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let (server, url) = try ExamplesCLITests.mailServer(mailbox: mailbox)
        defer { server.stop() }
        let r = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
                "email",
                "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
                "--recipients", dir.appendingPathComponent("guests.csv").path,
                "--cc", "team@example.org", "--bcc", "archive@example.com", "--bcc", "audit@example.com",
                "--reply-to", "Ada <replies@example.org>",
                "--unsubscribe", "https://example.com/leave?id={{recipient.id}}",
                "--unsubscribe", "mailto:leave@example.com?subject=leave-{{recipient.id}}",
                "--smtp", url, "--send",
            ], currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let metas = try FileManager.default.contentsOfDirectory(atPath: mailbox.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(metas.count == 2)
        var byRecipient: [String: (to: [String], eml: String)] = [:]
        for meta in metas {
            let m = try JSONDecoder().decode(
                Received.self, from: Data(contentsOf: mailbox.appendingPathComponent(meta)))
            let eml = try String(
                contentsOf: mailbox.appendingPathComponent(meta.replacingOccurrences(of: ".json", with: ".eml")),
                encoding: .utf8)
            let primary = try #require(picked.first { m.to.contains($0.value) })
            byRecipient[primary.id] = (m.to, eml)
        }
        let first = try #require(byRecipient[picked[0].id])
        let second = try #require(byRecipient[picked[1].id])
        #expect(
            Set(first.to) == [
                picked[0].value, "team@example.org", "jane@example.org", "joe@example.org", "archive@example.com",
                "audit@example.com", "boss@example.com",
            ])
        #expect(Set(second.to) == [picked[1].value, "team@example.org", "archive@example.com", "audit@example.com"])
        for (id, message) in [(picked[0].id, first.eml), (picked[1].id, second.eml)] {
            let head = String(message[..<message.range(of: "\r\n\r\n")!.lowerBound])
            #expect(!head.lowercased().contains("bcc:"))
            #expect(!message.contains("archive@") && !message.contains("audit@") && !message.contains("boss@"))
            #expect(head.contains("List-Unsubscribe:\r\n <https://example.com/leave?id=\(id)>,\r\n"))
            #expect(head.contains("<mailto:leave@example.com?subject=leave-\(id)>"))
            #expect(head.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"))
            #expect(head.contains("Precedence: bulk") && head.contains("Auto-Submitted: auto-generated"))
        }
        #expect(first.eml.contains("Cc: team@example.org, \"Doe, Jane\" <jane@example.org>, joe@example.org"))
        #expect(first.eml.contains("Reply-To: Ada <replies@example.org>"))
        #expect(second.eml.contains("Reply-To: desk@example.com") && !second.eml.contains("replies@"))
        try expectValid(
            metas.map { mailbox.appendingPathComponent($0.replacingOccurrences(of: ".json", with: ".eml")) })
    }

    @Test("personal mail (no --unsubscribe) is not bulk; bad addresses are named with their option or column")
    func personalMailAndBadAddresses() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        let base = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
            "email",
            "--ids", picked[0].id, "--from", "ada@example.org",
        ]
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(base + ["--cc", "team@example.org", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        let text = try String(contentsOf: out.appendingPathComponent(try #require(files.first)), encoding: .utf8)
        #expect(text.contains("Cc: team@example.org") && !text.contains("Precedence:"))
        #expect(!text.contains("Auto-Submitted:") && !text.contains("List-Unsubscribe"))
        try expectValid(files.map { out.appendingPathComponent($0) })

        let badOption = try CLI.run(base + ["--bcc", "not an address", "--out", out.path])
        #expect(badOption.status == 2 && badOption.stderr.contains("compose: --bcc: invalid address"))
        let badTemplate = try CLI.run(base + ["--unsubscribe", "https://x/{{#a}}", "--out", out.path])
        #expect(badTemplate.status == 2 && badTemplate.stderr.contains("--unsubscribe"))
        try "id,cc\n\(picked[0].id),nobody at all\n".write(
            to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let badColumn = try CLI.run(
            base + ["--recipients", dir.appendingPathComponent("bad.csv").path, "--out", out.path])
        #expect(badColumn.status == 1 && badColumn.stderr.contains("column 'cc': invalid address 'nobody at all'"))
        let scheme = try CLI.run(base + ["--unsubscribe", "ftp://example.com/{{recipient.id}}", "--out", out.path])
        #expect(scheme.status == 1 && scheme.stderr.contains("List-Unsubscribe takes https:, http: or mailto: URIs"))
    }

    @Test("--attach for every mail and an 'attachments' column per recipient; a missing file refuses its row")
    func attachments() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        let files = dir.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0xA5, count: 2000)).write(
            to: files.appendingPathComponent("Programm für Zoë.pdf"))
        try "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n".write(
            to: dir.appendingPathComponent("ada.vcf"), atomically: true, encoding: .utf8)
        try "id,attachments\n\(picked[0].id),files/Programm für Zoë.pdf\n\(picked[1].id),files/missing.pdf\n".write(
            to: dir.appendingPathComponent("guests.csv"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let base = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
            "email",
            "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
            "--attach", dir.appendingPathComponent("ada.vcf").path,
        ]
        // Run from another folder: the column's paths are relative to the recipients file.
        let r = try CLI.run(
            base + ["--recipients", dir.appendingPathComponent("guests.csv").path, "--out", out.path],
            currentDirectory: files)
        #expect(r.status == 1)
        #expect(r.stderr.contains("guests.csv:3: column 'attachments': \(files.path)/missing.pdf: cannot read"))
        let emls = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(emls.count == 1)
        let eml = try String(contentsOf: out.appendingPathComponent(try #require(emls.first)), encoding: .utf8)
        #expect(eml.contains("Content-Type: text/vcard") && eml.contains("filename=\"ada.vcf\""))
        #expect(
            eml.contains("Content-Type: application/pdf")
                && eml.contains("filename*=UTF-8''Programm%20f%C3%BCr%20Zo%C3%AB.pdf"))
        try expectValid(emls.map { out.appendingPathComponent($0) })

        let missing = try CLI.run(base + ["--attach", "/nonexistent/plan.pdf", "--out", out.path])
        #expect(missing.status == 2 && missing.stderr.contains("compose: --attach: /nonexistent/plan.pdf: cannot read"))
        let tooLarge = try CLI.run(
            base + [
                "--recipients", dir.appendingPathComponent("guests.csv").path, "--max-message-size", "2k",
                "--smtp", "smtp://127.0.0.1:9",
            ])
        #expect(tooLarge.status == 1 && tooLarge.stderr.contains("more than the limit of 2048 bytes"))
        let badSize = try CLI.run(base + ["--max-message-size", "lots", "--out", out.path])
        #expect(badSize.status == 2 && badSize.stderr.contains("--max-message-size"))
    }

    @Test("--maildir and --mbox write every mail at once; Python's mailbox reads them")
    func mailStores() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        let base = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
            "email",
            "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org", "--bcc",
            "archive@example.com",
        ]
        let maildir = dir.appendingPathComponent("Mail/campaign")
        let m = try CLI.run(base + ["--maildir", maildir.path])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.stdout.contains("summary: sent 0, saved 2, failed 0"))
        let mbox = dir.appendingPathComponent("campaign.mbox")
        for _ in 0..<2 {
            let b = try CLI.run(base + ["--mbox", mbox.path])
            #expect(b.status == 0, "\(b.stderr)")
        }
        let script = """
            import mailbox, sys
            d = mailbox.Maildir(sys.argv[1], create=False); b = mailbox.mbox(sys.argv[2], create=False)
            print(len(d), len(b), sorted(set(m['Bcc'] for m in list(d) + list(b))))
            """
        let r = try runToEnd([DemoCLITests.python, "-c", script, maildir.path, mbox.path])
        #expect(r.status == 0 && r.output == "2 4 ['archive@example.com']\n", "\(r.output)")
        // Stored with LF line ends (the local form mutt reads); with CRLF again each is a valid message.
        let emls = try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("new").path)
        let check = dir.appendingPathComponent("check")
        try FileManager.default.createDirectory(at: check, withIntermediateDirectories: true)
        for name in emls {
            let text = try String(contentsOf: maildir.appendingPathComponent("new/" + name), encoding: .utf8)
            #expect(!text.contains("\r"))
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(
                to: check.appendingPathComponent(name + ".eml"), atomically: true, encoding: .utf8)
        }
        try expectValid(emls.map { check.appendingPathComponent($0 + ".eml") })

        let both = try CLI.run(base + ["--mbox", mbox.path, "--maildir", maildir.path])
        #expect(both.status == 2 && both.stderr.contains("choose one of"))
        let folder = try CLI.run(base + ["--mbox", dir.path])
        #expect(folder.status == 1 && folder.stderr.contains("compose: --mbox: \(dir.path): is not a plain file"))
    }

    /// The first `count` contacts of the sample reachable by text message.
    func phoneRecipients(_ count: Int) throws -> [Listing.Section.Item] {
        let listing = try CLI.run(["list", "--mode", "messages", "--json", "--locale", "en"])
        let items = try JSONDecoder().decode(Listing.self, from: listing.stdoutData).sections.flatMap(\.items)
        return Array(items.prefix(count))
    }

    @Test("--sms-program: queued in the outbox, kill -9 mid-run, resume: every number texted at most once")
    func smsProgramKillAndResume() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "See you, {{recipient.name}}.".write(
            to: templates.appendingPathComponent("note/message.txt.mustache"), atomically: true, encoding: .utf8)
        let picked = try phoneRecipients(3)
        #expect(picked.count == 3)
        // Logs each call; on the second number it kills the `contacts` that started it (once).
        let program = dir.appendingPathComponent("send-sms")
        try """
        #!/bin/sh
        body=$(cat)
        printf '%s|%s\\n' "$1" "$body" >> "\(dir.path)/log"
        n=$(wc -l < "\(dir.path)/log")
        if [ "$n" -eq 2 ] && [ ! -e "\(dir.path)/killed" ]; then : > "\(dir.path)/killed"; kill -9 $PPID; fi
        exit 0
        """.write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let args = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
            "messages", "--region", "US",
            "--ids", picked.map(\.id).joined(separator: ","), "--sms-program", program.path,
        ]
        let dry = try CLI.run(args, currentDirectory: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.components(separatedBy: "would text via").count == 4)
        #expect(dry.stdout.contains("(1 SMS segment(s))") && dry.stdout.contains("dry run: add --send"))

        let killed = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(killed.status != 0)
        #expect(killed.stdout.contains("3 message(s) queued"))
        let outboxes = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        let outbox = dir.appendingPathComponent(try #require(outboxes.first))
        let resumed = try CLI.run(["outbox", "send", outbox.path, "--sms-program", program.path])
        #expect(resumed.stdout.contains("summary: sent 1, failed 0, skipped 1"), "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stdout.contains("text messages: 1 sent, 1 SMS segment(s)"))
        let lines = try String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8).split(separator: "\n")
        let numbers = lines.map { $0.split(separator: "|")[0] }
        #expect(lines.count == 3 && Set(numbers).count == 3, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("|See you, ") })
        // The message in flight when the run was killed is uncertain: listed, never texted again by itself.
        let status = try CLI.run(["outbox", "status", outbox.path])
        #expect(status.stdout.hasPrefix("queued 0, deferred 0, uncertain 1, sent 2, failed 0"), "\(status.stdout)")
        let again = try CLI.run(["outbox", "send", outbox.path, "--sms-program", program.path])
        #expect(again.status == 1 && again.stdout.contains("uncertain 1"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8).split(separator: "\n").count == 3
        )
        // Mail-only transports leave the texts alone.
        let noProgram = try CLI.run(["outbox", "send", outbox.path])
        #expect(noProgram.status == 2 && noProgram.stderr.contains("--sms-program"))
    }

    /// The project's fault SMTP server (Tests/ComposerTests/Fixtures/smtp_fault_server.py) on `port` (0: a
    /// free one), recording what it stores in `record`.
    func faultServer(port: Int, record: URL, extra: [String] = []) throws -> ScriptServer {
        try ScriptServer(
            python: URL(fileURLWithPath: DemoCLITests.python),
            script: DemoCLITests.packageRoot.appendingPathComponent(
                "Tests/ComposerTests/Fixtures/smtp_fault_server.py"),
            arguments: ["--record", record.path, "--port", String(port)] + extra)
    }

    @Test(
        "the server's SIZE: a larger message is refused by recipient before sending, the others sent; --check shows it")
    func serverSize() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        try Data([UInt8](repeating: 0xA5, count: 30_000)).write(to: dir.appendingPathComponent("big.bin"))
        try "Grüße aus Köln\n".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try "id,attachments\n\(picked[0].id),big.bin\n\(picked[1].id),\n".write(
            to: dir.appendingPathComponent("guests.csv"), atomically: true, encoding: .utf8)
        let record = dir.appendingPathComponent("stored.jsonl")
        let log = dir.appendingPathComponent("commands.log")
        let server = try faultServer(port: 0, record: record, extra: ["--size", "20000", "--log", log.path])
        defer { server.stop() }
        let url = "smtp://127.0.0.1:\(server.port)"
        let check = try CLI.run(["compose", "--check", "--smtp", url])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout
                == "check: \(url): connected, EHLO accepted, no TLS\ncheck: \(url): offers SIZE 20000, 8BITMIME; "
                + "messages up to 20000 bytes (SIZE)\ncheck: ready (nothing was sent)\n", "\(check.stdout)")
        let r = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
                "email",
                "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
                "--recipients", dir.appendingPathComponent("guests.csv").path,
                "--attach", dir.appendingPathComponent("notes.txt").path, "--smtp", url, "--send",
            ], currentDirectory: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("compose: \(picked[0].name ?? "?"): the message is ")
                && r.stderr.contains("more than the SIZE limit of 20000 bytes that \(url) announces"), "\(r.stderr)")
        #expect(
            r.stdout.contains("1 message(s) queued") && r.stdout.contains("summary: sent 1, failed 1"), "\(r.stdout)")
        let stored = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        #expect(stored.count == 1 && stored[0].contains(picked[1].value))
        // The larger message was never offered: one MAIL FROM, for the message that was sent.
        let mails = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter {
            $0.uppercased().hasPrefix("MAIL FROM")
        }
        #expect(mails.count == 1, "\(mails)")
    }

    @Test("--unsubscribe: each value URL-encoded into a valid URI, the template's text kept; RFC 2369 folding")
    func unsubscribeEncoding() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "Zoë & Émile Brontë-O'Hara"
        let book = dir.appendingPathComponent("book.vcf")
        try
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nN:Brontë-O'Hara;Zoë & Émile;;;\r\nEMAIL:zoe@example.org\r\nEND:VCARD\r\n"
            .write(to: book, atomically: true, encoding: .utf8)
        try "Grüße\n".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let base = [
            "compose", "--source", book.path, "--template", "note", "--templates", templates.path, "--mode", "email",
            "--query", "Zoë", "--from", "ada@example.org", "--attach", dir.appendingPathComponent("notes.txt").path,
        ]
        let r = try CLI.run(
            base + [
                "--unsubscribe", "https://example.com/leave?name={{recipient.name}}&list=spring-news",
                "--unsubscribe", "mailto:leave@example.com?subject=leave%20{{recipient.name}}", "--out", out.path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let mailto = dir.appendingPathComponent("mailto")
        let m = try CLI.run(
            base + ["--unsubscribe", "mailto:leave@example.com?subject={{recipient.name}}", "--out", mailto.path])
        #expect(m.status == 0, "\(m.stderr)")
        var files: [URL] = []
        for folder in [out, mailto] {
            files += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".eml") }
                .map { folder.appendingPathComponent($0) }
        }
        #expect(files.count == 2)
        try expectValid(files)
        // Python's strict policy parses the message; each URI is RFC 3986 (only its characters, every %
        // followed by two hex digits) and gives the name back; folded only between URIs, lines ≤ 78.
        let script = """
            import email, email.policy, re, sys, urllib.parse
            for path in sys.argv[1:]:
                raw = open(path, 'rb').read()
                m = email.message_from_bytes(raw, policy=email.policy.strict)
                head = raw.split(b'\\r\\n\\r\\n', 1)[0].decode('ascii')
                lines = head.split('\\r\\n')
                start = next(i for i, l in enumerate(lines) if l.startswith('List-Unsubscribe:'))
                field = [lines[start]]
                for l in lines[start + 1:]:
                    if not l[:1] in (' ', '\\t'): break
                    field.append(l)
                # A URI is never broken: a line over 78 octets holds one URI alone (and at most 998).
                assert all(len(l) <= 78 or re.fullmatch(r' <[^<> ]*>,?', l) for l in field), field
                assert all(len(l) <= 998 for l in field), field
                assert all(l.lstrip().startswith('<') for l in field[1:]), field
                uris = re.findall(r'<([^>]*)>', ''.join(field))
                for u in uris:
                    assert re.fullmatch(r"(?:[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+;=]|%[0-9A-F]{2})+", u), u
                    parts = urllib.parse.urlsplit(u)
                    q = urllib.parse.parse_qs(parts.query)
                    print(parts.scheme, parts.netloc or parts.path, sorted((k, v[0]) for k, v in q.items()))
                print('post', m['List-Unsubscribe-Post'])
                a = next(m.iter_attachments())
                print(a.get_content_type(), a.get_param('charset'), a.get_content(), end='')
            """
        let parsed = try runToEnd([DemoCLITests.python, "-c", script] + files.map(\.path))
        #expect(parsed.status == 0, "\(parsed.output)")
        let expected = [
            "https example.com [('list', 'spring-news'), ('name', \"\(name)\")]",
            "mailto leave@example.com [('subject', \"leave \(name)\")]",
            "post List-Unsubscribe=One-Click", "text/plain utf-8 Grüße",
            "mailto leave@example.com [('subject', \"\(name)\")]", "post None", "text/plain utf-8 Grüße",
        ]
        #expect(parsed.output.split(separator: "\n").map(String.init) == expected, "\(parsed.output)")
        let eml = try String(contentsOf: try #require(files.first), encoding: .utf8)
        #expect(
            eml.contains(
                "<https://example.com/leave?name=Zo%C3%AB%20%26%20%C3%89mile%20Bront%C3%AB-O%27Hara&list=spring-news>"))
    }

    @Test("compose --send with the server down queues and says how to send later; outbox send --wait sends then")
    func sendWhenBackOnline() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try recipients()
        let record = dir.appendingPathComponent("stored.jsonl")
        let probe = try faultServer(port: 0, record: record)
        let port = probe.port
        probe.stop()
        let url = "smtp://127.0.0.1:\(port)"
        let r = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
                "email",
                "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
                "--smtp", url, "--send", "--attempts", "1",
            ], currentDirectory: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("2 message(s) queued") && r.stdout.contains("deferred 2"))
        let outboxes = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        let outbox = dir.appendingPathComponent(try #require(outboxes.first))
        #expect(
            r.stdout.contains(
                "send them when it is back with: contacts outbox send \(outbox.path) --smtp \(url) … --wait 1h"),
            "\(r.stdout)")

        // outbox send --wait keeps trying; the server comes up while it waits.
        let send = Process()
        send.executableURL = CLI.executable
        send.arguments = [
            "outbox", "send", outbox.path, "--smtp", url, "--wait", "10m", "--backoff", "0.1", "--attempts", "1",
        ]
        let output = Pipe()
        send.standardOutput = output
        send.standardError = FileHandle.nullDevice
        try send.run()
        let journal = outbox.appendingPathComponent("journal.jsonl")
        func deferred() -> Int {
            ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").components(separatedBy: #""e":"deferred""#)
                .count - 1
        }
        while deferred() < 6 && send.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        let server = try faultServer(port: port, record: record)
        defer { server.stop() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        send.waitUntilExit()
        #expect(send.terminationStatus == 0, "\(text)")
        #expect(text.contains("summary: sent 2, failed 0, skipped 0"), "\(text)")
        let stored = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        #expect(stored.count == 2)
        let bad = try CLI.run(["outbox", "send", outbox.path, "--smtp", url, "--wait", "soon"])
        #expect(bad.status == 2 && bad.stderr.contains("--wait: expected a duration"))
    }

    @Test("compose --check tries the server (connect, EHLO, AUTH) and sends nothing; no transport: the alert")
    func capabilityCheck() throws {
        let (dir, templates) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let server = try ScriptServer(
            python: URL(fileURLWithPath: DemoCLITests.python),
            script: DemoCLITests.packageRoot.appendingPathComponent("Tests/ComposerTests/Fixtures/smtp_server.py"),
            arguments: ["--mailbox", mailbox.path, "--mode", "plain", "--auth", "ada:secret"])
        defer { server.stop() }
        let url = "smtp://127.0.0.1:\(server.port)"
        for (file, password) in [("good", "secret\n"), ("bad", "wrong\n")] {
            try password.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let good = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file",
            dir.appendingPathComponent("good").path,
        ])
        #expect(good.status == 0, "\(good.stderr)")
        let lines = good.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.count == 3 && lines.first?.hasPrefix("check: \(url): connected, EHLO accepted, no TLS, AUTH ") == true
                && lines.first?.hasSuffix(" accepted") == true, "\(good.stdout)")
        #expect(
            lines.dropFirst().first?.hasPrefix("check: \(url): offers ") == true
                && lines.last == "check: ready (nothing was sent)")
        let bad = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file",
            dir.appendingPathComponent("bad").path,
        ])
        #expect(bad.status == 1 && bad.stderr.contains("compose: check failed: authentication failed"), "\(bad.stderr)")
        server.stop()
        let down = try CLI.run(["compose", "--check", "--smtp", url])
        #expect(down.status == 1 && down.stderr.contains("compose: check failed: network error"), "\(down.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: mailbox.path).filter { $0.hasSuffix(".eml") }.isEmpty)

        // No transport for the mode: the documented alert, in the language asked for.
        let noSendmail = try CLI.run([
            "compose", "--check", "--sendmail-program", dir.appendingPathComponent("none").path, "--locale", "de",
        ])
        #expect(
            noSendmail.status == 1
                && noSendmail.stderr.contains(
                    "Nachrichten nicht unterstützt: Das Senden von E-Mails wird auf diesem Gerät nicht unterstützt."),
            "\(noSendmail.stderr)")
        let noSMS = try CLI.run(["compose", "--check", "--sms-program", dir.appendingPathComponent("none").path])
        #expect(
            noSMS.status == 1
                && noSMS.stderr.contains("Messaging not supported: Messaging on this device is not supported."))
        let picked = try phoneRecipients(1)
        let texts = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
                "messages", "--region", "US",
                "--ids", picked[0].id, "--locale", "fr", "--smtp", url, "--send",
            ], currentDirectory: dir)
        #expect(texts.status == 1)
        #expect(
            texts.stderr.contains(
                "compose: Messagerie non prise en charge: La messagerie n’est pas prise en charge sur cet appareil. (1 text message(s): SMTP and sendmail carry mail only"
            )
                && texts.stderr.contains("--sms-program"), "\(texts.stderr)")
        #expect(!texts.stderr.contains("Messaging not supported"), "\(texts.stderr)")
    }

    @Test("a body.md.mustache template gives text and HTML parts (cmark), values escaped in the HTML")
    func markdownBody() throws {
        let (dir, _) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let note = dir.appendingPathComponent("md/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Hello {{recipient.name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "# Welcome, {{recipient.name}}\n\nThe *plan* for {{venue}}:\n\n- arrive\n- eat\n".write(
            to: note.appendingPathComponent("body.md.mustache"), atomically: true, encoding: .utf8)
        try #"{"venue": "<Café & Bar>"}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let picked = try recipients()
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run([
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates",
            dir.appendingPathComponent("md").path, "--mode", "email",
            "--ids", picked[0].id, "--from", "ada@example.org", "--data", dir.appendingPathComponent("data.json").path,
            "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let emls = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(emls.count == 1)
        try expectValid(emls.map { out.appendingPathComponent($0) })
        let script = """
            import email, email.policy, sys
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.strict)
            print(m.get_content_type())
            print(m.get_body(('plain',)).get_content(), end='')
            print('---')
            print(m.get_body(('html',)).get_content(), end='')
            """
        let parsed = try runToEnd([DemoCLITests.python, "-c", script, out.appendingPathComponent(emls[0]).path])
        #expect(parsed.output.hasPrefix("multipart/alternative\n# Welcome, "), "\(parsed.output)")
        #expect(parsed.output.contains("The *plan* for <Café & Bar>:\n\n- arrive\n- eat\n---\n<h1>Welcome, "))
        #expect(parsed.output.contains("<p>The <em>plan</em> for &lt;Café &amp; Bar&gt;:</p>\n<ul>\n<li>arrive</li>"))
    }
}
