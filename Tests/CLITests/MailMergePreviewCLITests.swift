import Foundation
import TestSupport
import Testing

/// Seeing before sending: `--preview`, `--limit` as a resumable prefix, `--test-to`; what arrives at a
/// real SMTP server is parsed by Python's `email` (strict) and check_eml.
@Suite("compose: preview, limit, test send", .serialized)
struct MailMergePreviewCLITests {
    typealias Sheet = MailMergeSheetCLITests

    /// A campaign folder: the `note` templates, a three-row sheet (Zoë with an attachment), a mail server.
    func setup(_ name: String) throws -> (dir: URL, args: [String], mailbox: URL, server: ScriptServer) {
        let (dir, templates) = try Sheet.setup(name)
        try Data(repeating: 0x41, count: 1234).write(to: dir.appendingPathComponent("plan.txt"))
        try
            "email,name,table,attachments\nzoe@example.org,Zoë Zed,1,plan.txt\namy@example.org,Amy,2,\nbo@example.org,Bo,3,\n"
            .write(to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Sheet.mailServer(in: dir)
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "Ada <ada@example.org>", "--smtp", url, "--locale", "en",
        ]
        return (dir, args, mailbox, server)
    }

    func outboxes(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
    }

    @Test("--preview shows the messages as a reader would, sends nothing; what arrives reads the same")
    func previewMatchesWhatArrives() throws {
        let (dir, args, mailbox, server) = try setup("preview")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let p = try CLI.run(args + ["--preview", "2", "--send"], currentDirectory: dir)
        #expect(p.status == 0, "\(p.stdout)\(p.stderr)")
        #expect(p.stdout.contains("══ message 1 of 2 ══\nenvelope: ada@example.org → zoe@example.org\n"), "\(p.stdout)")
        #expect(
            p.stdout.contains("From: Ada <ada@example.org>\nTo: Zoë Zed <zoe@example.org>\nSubject: Hello Zoë Zed\n"))
        #expect(
            p.stdout.contains("── text/plain ──\nTable 1. See you.\n── attachment: plan.txt (text/plain, 1234 bytes)\n")
        )
        #expect(p.stdout.contains("To: Amy <amy@example.org>") && !p.stdout.contains("bo@example.org"))
        #expect(p.stdout.contains("preview: 2 message(s) shown; nothing was sent"))
        #expect(try Sheet.received(mailbox).isEmpty && (try outboxes(dir)).isEmpty)
        let all = try CLI.run(args + ["--preview", "all"], currentDirectory: dir)
        #expect(all.stdout.contains("══ message 3 of 3 ══"))
        let bad = try CLI.run(args + ["--preview", "some"], currentDirectory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--preview: expected a whole number above 0 or 'all'"))
        // Sent: Python reads the same fields, text and attachment from what arrived.
        let r = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let zoe = try #require(try Sheet.received(mailbox).first { $0.envelope == ["zoe@example.org"] })
        _ = try Sheet.summaries([zoe.eml])
        let script = """
            import email, email.policy, sys
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.strict)
            for k in ('From', 'To', 'Subject', 'Content-Language'): print(f'{k}: {m[k]}')
            print('── text/plain ──'); print(m.get_body(('plain',)).get_content(), end='')
            for a in m.iter_attachments():
                print(f'── attachment: {a.get_filename()} ({a.get_content_type()}, {len(a.get_payload(decode=True))} bytes)')
            """
        let parsed = try runToEnd([DemoCLITests.python, "-c", script, zoe.eml.path])
        #expect(parsed.status == 0, "\(parsed.output)")
        for line in parsed.output.split(separator: "\n") {
            #expect(p.stdout.contains(line + "\n"), "\(line) not in the preview")
        }
    }

    @Test("--limit sends a prefix; the full run later sends only the rest; a third run sends nothing")
    func limitIsAResumablePrefix() throws {
        let (dir, args, mailbox, server) = try setup("limit")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let first = try CLI.run(args + ["--limit", "1", "--send"], currentDirectory: dir)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("held back by --limit: 2"), "\(first.stdout)")
        #expect(try Sheet.received(mailbox).map(\.envelope) == [["zoe@example.org"]])
        let rest = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        #expect(rest.stdout.contains("already queued by an earlier run of this batch: 1"), "\(rest.stdout)")
        let got = try Sheet.received(mailbox)
        #expect(
            got.map(\.envelope).sorted { $0[0] < $1[0] } == [
                ["amy@example.org"], ["bo@example.org"], ["zoe@example.org"],
            ])
        _ = try Sheet.summaries(got.map(\.eml))
        let again = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(again.status == 0 && again.stdout.contains("already queued by an earlier run of this batch: 3"))
        #expect(try Sheet.received(mailbox).count == 3)
        let bad = try CLI.run(args + ["--limit", "0"], currentDirectory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--limit: expected a whole number above 0"))
    }

    @Test("--test-to sends the first message to that address alone, marked [TEST]; the real run sends all")
    func testSendCountsForNobody() throws {
        let (dir, args, mailbox, server) = try setup("test-to")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let t = try CLI.run(args + ["--test-to", "me@example.net", "--send"], currentDirectory: dir)
        #expect(t.status == 0, "\(t.stdout)\(t.stderr)")
        #expect(t.stdout.contains("test: to me@example.net only"))
        let test = try Sheet.received(mailbox)
        #expect(test.map(\.envelope) == [["me@example.net"]])
        let lines = try Sheet.summaries(test.map(\.eml))
        #expect(
            lines.first?.hasPrefix("me@example.net|Ada <ada@example.org>|||[TEST] Hello Zoë Zed|en|Table 1.") == true,
            "\(lines)")
        let real = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(real.status == 0 && !real.stdout.contains("already queued"), "\(real.stdout)\(real.stderr)")
        #expect(try Sheet.received(mailbox).count == 4)
    }
}
