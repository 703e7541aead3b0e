import Foundation
import TestSupport
import Testing

/// Mail merge from a spreadsheet alone (`compose --recipients people.csv` without `--source`), checked on
/// what a real SMTP server received: every message parsed by Python's `email` (strict) and check_eml.
@Suite("compose: a recipient sheet on its own", .serialized)
struct MailMergeSheetCLITests {
    /// A folder with a template library holding `note` (English, and French words for `fr` rows).
    static func setup(_ name: String) throws -> (dir: URL, templates: URL) {
        let dir = Scratch.path(name)
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Hello {{recipient.name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Table {{table}}. See you.\n".write(
            to: note.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        try "Table {{table}}. À bientôt.\n".write(
            to: note.appendingPathComponent("body.txt.fr.mustache"), atomically: true, encoding: .utf8)
        return (dir, dir.appendingPathComponent("templates"))
    }

    /// A mail server (aiosmtpd) writing what it receives into `dir/mailbox`, made here.
    static func mailServer(in dir: URL) throws -> (mailbox: URL, server: ScriptServer, url: String) {
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let (server, url) = try ExamplesCLITests.mailServer(mailbox: mailbox)
        return (mailbox, server, url)
    }

    /// Python's strict `email` policy reads each file: one line per message with its envelope-free
    /// headers, Content-Language, the text of its body and its attachments' names.
    static let summaryScript = """
        import email, email.policy, sys
        for path in sys.argv[1:]:
            m = email.message_from_binary_file(open(path, 'rb'), policy=email.policy.strict)
            assert not m.defects, m.defects
            body = m.get_body(('plain',)).get_content().strip()
            names = [a.get_filename() for a in m.iter_attachments()]
            print('|'.join([str(m['To']), str(m['From']), str(m['Cc'] or ''), str(m['Reply-To'] or ''),
                            str(m['Subject']), str(m['Content-Language']), body, ','.join(names),
                            str(m['Bcc'] or '')]))
        """

    /// The messages the server wrote into `mailbox` (.eml, with its envelope in the .json beside it).
    static func received(_ mailbox: URL) throws -> [(envelope: [String], eml: URL)] {
        struct Envelope: Decodable { var to: [String] }
        return try FileManager.default.contentsOfDirectory(atPath: mailbox.path).filter { $0.hasSuffix(".json") }
            .sorted().map { meta in
                let e = try JSONDecoder().decode(
                    Envelope.self, from: Data(contentsOf: mailbox.appendingPathComponent(meta)))
                return (e.to, mailbox.appendingPathComponent(meta.replacingOccurrences(of: ".json", with: ".eml")))
            }
    }

    /// Every message of `files` summarised by ``summaryScript``, after check_eml passed on each.
    static func summaries(_ files: [URL]) throws -> [String] {
        try MailMergeCLITests().expectValid(files)
        let parsed = try runToEnd([DemoCLITests.python, "-c", summaryScript] + files.map(\.path))
        #expect(parsed.status == 0, "\(parsed.output)")
        return parsed.output.split(separator: "\n").map(String.init)
    }

    @Test("every row is mailed with its language, sender, copies, attachments and variables; bad rows named")
    func sheetAlone() throws {
        let (dir, templates) = try Self.setup("sheet-alone")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("plan".utf8).write(to: dir.appendingPathComponent("plan.txt"))
        let csv =
            "email;name;lang;from;cc;bcc;reply_to;attachments;table\n"
            + "zoe@example.org;Zoë Zed;fr;Sales <sales@example.com>;cc@example.org;audit@example.org;"
            + "help@example.org;plan.txt;7\n"
            + "amy@example.org;Amy Ash;;;;;;;3\n"
            + "nobody;No One;en;;;;;;1\n"
            + "AMY@example.org;Amy again;;;;;;;9\n"
        try csv.write(to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Self.mailServer(in: dir)
        defer { server.stop() }
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "Ada <ada@example.org>", "--smtp", url, "--locale", "en",
        ]
        // A dry run says what would go, in the sheet's order, and sends nothing.
        let dry = try CLI.run(args, currentDirectory: dir)
        #expect(dry.status == 1, "\(dry.stdout)\(dry.stderr)")
        let would = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("would send") }
        #expect(would.count == 2 && would[0].contains("zoe@example.org") && would[1].contains("amy@example.org"))
        let r = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")  // a row was skipped
        #expect(r.stderr.contains("people.csv:4:1: column 'email'"), "\(r.stderr)")
        #expect(r.stderr.contains("people.csv:5: duplicate address 'AMY@example.org' (first on line 3)"))
        #expect(r.stdout.contains("summary: sent 2,"), "\(r.stdout)")
        let got = try Self.received(mailbox)
        #expect(got.count == 2)
        let envelopes = Set(got.map { Set($0.envelope) })
        #expect(envelopes == [["zoe@example.org", "cc@example.org", "audit@example.org"], ["amy@example.org"]])
        let lines = Set(try Self.summaries(got.map(\.eml)))
        #expect(
            lines == [
                "Zoë Zed <zoe@example.org>|Sales <sales@example.com>|cc@example.org|help@example.org|Hello Zoë Zed|fr"
                    + "|Table 7. À bientôt.|plan.txt|",
                "Amy Ash <amy@example.org>|Ada <ada@example.org>|||Hello Amy Ash|en|Table 3. See you.||",
            ], "\(lines)")
        // With --source the sheet is joined to the book as before: --query or --ids are needed.
        let joined = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--recipients", "people.csv", "--template", "note",
                "--templates",
                templates.path, "--from", "ada@example.org",
            ], currentDirectory: dir)
        #expect(joined.status == 2 && joined.stderr.contains("give --query or --ids"))
    }

    struct Envelope: Decodable {
        var from: String
        var to: [String]
    }

    @Test("--verp: each envelope sender names its recipient; the bounce read back suppresses it next time")
    func verpAndSuppressions() throws {
        let (dir, templates) = try Self.setup("sheet-verp")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "email,name,table\nzoe@example.org,Zoë,1\namy@example.org,Amy,2\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Self.mailServer(in: dir)
        defer { server.stop() }
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "ada@example.org", "--smtp", url, "--locale", "en", "--verp", "bounces@example.org", "--send",
        ]
        let first = try CLI.run(args, currentDirectory: dir)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        var senders: [String: String] = [:]
        for meta in try FileManager.default.contentsOfDirectory(atPath: mailbox.path) where meta.hasSuffix(".json") {
            let e = try JSONDecoder().decode(
                Envelope.self, from: Data(contentsOf: mailbox.appendingPathComponent(meta)))
            senders[e.to[0]] = e.from
        }
        #expect(
            senders == [
                "zoe@example.org": "bounces+zoe=example.org@example.org",
                "amy@example.org": "bounces+amy=example.org@example.org",
            ])
        _ = try Self.summaries(try Self.received(mailbox).map(\.eml))
        // A report naming no recipient, to Zoë's VERP address: `bounces read` finds her by it.
        let dsn =
            "To: bounces+zoe=example.org@example.org\nContent-Type: multipart/report; report-type=delivery-status;"
            + " boundary=b\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.net\n\n"
            + "Action: failed\nStatus: 5.1.1\n--b--\n"
        try ("From MAILER-DAEMON Thu Jan  1 12:00:00 2026\n" + dsn).write(
            to: dir.appendingPathComponent("bounces.mbox"), atomically: true, encoding: .utf8)
        let read = try CLI.run(
            ["bounces", "read", "bounces.mbox", "--into", "suppressions.txt", "--return-path", "bounces@example.org"],
            currentDirectory: dir)
        #expect(read.status == 0 && read.stdout.contains("1 addresses added"), "\(read.stdout)\(read.stderr)")
        for file in try FileManager.default.contentsOfDirectory(atPath: mailbox.path) {
            try FileManager.default.removeItem(at: mailbox.appendingPathComponent(file))
        }
        // The next campaign from this folder skips her, says so, and is not a failure.
        let second = try CLI.run(args + ["--new-batch"], currentDirectory: dir)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stderr.contains("zoe@example.org: suppressed (bounce 5.1.1"), "\(second.stderr)")
        #expect(second.stdout.contains("sent 1,") && second.stdout.contains("suppressed 1"), "\(second.stdout)")
        #expect(try Self.received(mailbox).map(\.envelope) == [["amy@example.org"]])
        let named = try CLI.run(args + ["--suppressions", "missing.txt"], currentDirectory: dir)
        #expect(named.status == 2 && named.stderr.contains("--suppressions"))
        let badVERP = try CLI.run(Array(args.dropLast(3)) + ["--verp", "no-at-sign"], currentDirectory: dir)
        #expect(badVERP.status == 2 && badVERP.stderr.contains("--verp"))
    }

    /// The messages in a Maildir's cur/ and new/.
    static func stored(_ maildir: URL) -> [URL] {
        ["cur", "new"].flatMap { sub in
            let dir = maildir.appendingPathComponent(sub)
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map {
                dir.appendingPathComponent($0)
            }
        }
    }

    @Test("--save-sent: a copy of each sent mail in Dovecot's Sent, once, also when the outbox is sent again")
    func copiesInSent() throws {
        let (dir, templates) = try Self.setup("sheet-sent")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "email,name,table\nzoe@example.org,Zoë,1\namy@example.org,Amy,2\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let imap = try DovecotServer()
        defer { imap.stop() }
        try (imap.password + "\n").write(to: dir.appendingPathComponent("pw"), atomically: true, encoding: .utf8)
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let smtp = try ScriptServer(
            python: URL(fileURLWithPath: DemoCLITests.python),
            script: DemoCLITests.packageRoot.appendingPathComponent("Tests/ComposerTests/Fixtures/smtp_server.py"),
            arguments: ["--mailbox", mailbox.path, "--mode", "plain", "--auth", "\(imap.user):\(imap.password)"])
        defer { smtp.stop() }
        let sentURL = "imap://127.0.0.1:\(imap.port)/Sent"
        let login = ["--user", imap.user, "--password-file", "pw", "--smtp", "smtp://127.0.0.1:\(smtp.port)"]
        let r = try CLI.run(
            [
                "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
                "--from", "ada@example.org", "--locale", "en", "--send", "--save-sent", sentURL,
            ] + login, currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)\(imap.logText)")
        #expect(r.stdout.contains("copies saved 2"), "\(r.stdout)")
        #expect(!r.stdout.contains(imap.password) && !r.stderr.contains(imap.password))
        let copies = Self.stored(imap.maildir("Sent"))
        #expect(copies.count == 2)
        let sent = Set(try Self.summaries(try Self.received(mailbox).map(\.eml)))
        // Maildir keeps LF line ends: the copies are the sent messages, byte for byte but for those.
        let saved = try copies.map { url -> URL in
            let crlf = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
            let out = dir.appendingPathComponent(url.lastPathComponent + ".eml")
            try crlf.write(to: out, atomically: true, encoding: .utf8)
            return out
        }
        #expect(Set(try Self.summaries(saved)) == sent)
        // The outbox sent again (nothing left to send): no second copy.
        let outbox = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("outbox-") })
        let again = try CLI.run(["outbox", "send", outbox, "--save-sent", sentURL] + login, currentDirectory: dir)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(Self.stored(imap.maildir("Sent")).count == 2)
        // Sent before without copies: a later run of the outbox saves each one, once.
        let maildir = dir.appendingPathComponent("Mail/Sent")
        for _ in 0..<2 {
            let late = try CLI.run(
                ["outbox", "send", outbox, "--save-sent-maildir", maildir.path] + login, currentDirectory: dir)
            #expect(late.status == 0, "\(late.stdout)\(late.stderr)")
        }
        #expect(Self.stored(maildir).count == 2)
        let wrong = try CLI.run(
            [
                "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
                "--from", "ada@example.org", "--out", "drafts", "--save-sent-maildir", maildir.path,
            ], currentDirectory: dir)
        #expect(wrong.status == 2 && wrong.stderr.contains("go with --smtp or --sendmail"))
    }
}
