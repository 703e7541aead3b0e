import Foundation
import TestSupport
import Testing

/// What `compose --maildir` and `compose --mbox` write, opened with mutt (/usr/bin/mutt, `make deps`) in a
/// real terminal (tmux): the index lists each message with its sender and decoded subject, a message
/// opens with its non-ASCII body decoded and no stray `^M`, its attachments show their RFC 2231 names and
/// charsets, and mutt quits cleanly.
@Suite("compose: mutt reads the Maildir and the mbox", .serialized)
struct MuttCLITests {
    static let mutt = "/usr/bin/mutt"
    static let names = ["Zoë Çelik", "Jürgen Müller"]

    /// An address book of two people with non-ASCII names, a template `note`, and their ids.
    func setup() throws -> (dir: URL, args: [String]) {
        let dir = try Scratch.directory("mutt")
        let book = dir.appendingPathComponent("book.vcf")
        try """
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Zoë Çelik\r
        N:Çelik;Zoë;;;\r
        EMAIL:zoe@example.org\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Jürgen Müller\r
        N:Müller;Jürgen;;;\r
        EMAIL:jm@example.org\r
        END:VCARD\r

        """.write(to: book, atomically: true, encoding: .utf8)
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Grüße an {{recipient.name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Schöne Grüße aus Zürich – 東京, {{recipient.name}}!\n".write(
            to: note.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        // A UTF-8 text with a non-ASCII name (RFC 2231) and a Latin-1 one (no charset can be told).
        try Data("Grüße aus Köln\n".utf8).write(to: dir.appendingPathComponent("Notizen für Zoë.txt"))
        try Data([0x5A, 0x6F, 0xEB, 0x0A]).write(to: dir.appendingPathComponent("latin1.txt"))
        let listing = try CLI.run(["list", "--source", book.path, "--mode", "email", "--json", "--locale", "en"])
        let ids = try JSONDecoder().decode(DeliveryCLITests.Listing.self, from: listing.stdoutData).sections
            .flatMap(\.items).map(\.id)
        #expect(ids.count == 2, "\(listing.stderr)")
        return (
            dir,
            [
                "compose", "--source", book.path, "--template", "note", "--templates",
                dir.appendingPathComponent("templates").path, "--mode", "email", "--ids", ids.joined(separator: ","),
                "--from", "Ada Lovelace <ada@example.org>", "--attach",
                dir.appendingPathComponent("Notizen für Zoë.txt").path, "--attach",
                dir.appendingPathComponent("latin1.txt").path,
            ]
        )
    }

    /// Opens `folder` with mutt in a tmux window (no user configuration: HOME is a folder of the test's),
    /// checks the index and the first message, quits; mutt's exit status must be 0.
    func read(_ folder: URL, in dir: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let home = dir.appendingPathComponent("home-" + folder.lastPathComponent)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let status = dir.appendingPathComponent("status-" + folder.lastPathComponent)
        let command =
            "\(Self.mutt) -n -F /dev/null -e 'set folder=\(home.path)' -e 'set charset=utf-8' -e 'set sort=subject' "
            + "-e 'set status_format=\"Msgs:%m\"' "
            + "-f '\(folder.path)'; echo $? > '\(status.path)'"
        let window = try TmuxWindow(
            columns: 110, lines: 24, command: command,
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "MAIL": "", "TERM": "xterm"])
        defer { window.close() }
        // The index: both messages, the sender's name and the decoded subjects.
        let index = window.waitFor { screen in
            Self.names.allSatisfy { screen.contains("Grüße an \($0)") } && screen.contains("Msgs:2")
        }
        #expect(index, "\(window.screen)", sourceLocation: sourceLocation)
        let rows = window.screen.split(separator: "\n").filter { $0.contains("Grüße an ") }
        #expect(
            rows.count == 2 && rows.allSatisfy { $0.contains("Ada Lovelace") }, "\(rows)",
            sourceLocation: sourceLocation)
        // Sorted by subject: the first is Jürgen's; it opens with its body decoded.
        try window.send("Enter")
        let opened = window.waitFor("Schöne Grüße aus Zürich – 東京, Jürgen Müller!")
        #expect(opened, "\(window.screen)", sourceLocation: sourceLocation)
        let pager = window.screen
        #expect(pager.contains("From: Ada Lovelace <ada@example.org>"), "\(pager)", sourceLocation: sourceLocation)
        #expect(pager.contains("Subject: Grüße an Jürgen Müller"), "\(pager)", sourceLocation: sourceLocation)
        #expect(!pager.contains("^M") && !pager.contains("=?utf-8?"), "\(pager)", sourceLocation: sourceLocation)
        // The attachments: the file name decoded, the UTF-8 text labelled utf-8, the Latin-1 one as octets.
        try window.send("v")
        // The pager names the attachments too ("[-- Attachment #2: …"): wait for the menu's own lines.
        let attachments = window.waitFor {
            $0.contains("Notizen für Zoë.txt") && $0.contains("latin1.txt") && $0.contains("[text/plain,")
        }
        #expect(attachments, "\(window.screen)", sourceLocation: sourceLocation)
        let menu = window.screen.split(separator: "\n")
        let named = menu.first { $0.contains("Notizen für Zoë.txt") }.map(String.init) ?? ""
        let latin1 = menu.first { $0.contains("latin1.txt") }.map(String.init) ?? ""
        #expect(named.contains("[text/plain, base64, utf-8"), "\(named)", sourceLocation: sourceLocation)
        #expect(latin1.contains("octet") && !latin1.contains("utf-8"), "\(latin1)", sourceLocation: sourceLocation)
        try window.send("q")
        #expect(window.waitFor("Schöne Grüße aus Zürich"), sourceLocation: sourceLocation)
        try window.send("q")
        #expect(
            window.waitFor { !$0.contains("Schöne Grüße") && $0.contains("Msgs:2") }, sourceLocation: sourceLocation)
        try window.send("q")
        #expect(window.waitForFile(status) == "0\n", "\(window.screen)", sourceLocation: sourceLocation)
    }

    @Test("mutt lists and opens what --maildir wrote")
    func maildir() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.mutt) else {
            Issue.record("mutt is not installed (make deps)")
            return
        }
        let (dir, args) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let maildir = dir.appendingPathComponent("Mail")
        let r = try CLI.run(args + ["--maildir", maildir.path])
        #expect(r.status == 0, "\(r.stderr)")
        try read(maildir, in: dir)
        // mutt moved the messages it saw to cur/ and flagged the one it opened as seen (":2,S").
        let cur = try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("cur").path)
        #expect(cur.count == 2 && cur.filter { $0.hasSuffix(":2,S") }.count == 1, "\(cur)")
    }

    @Test("mutt lists and opens what --mbox wrote")
    func mbox() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.mutt) else {
            Issue.record("mutt is not installed (make deps)")
            return
        }
        let (dir, args) = try setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mbox = dir.appendingPathComponent("campaign.mbox")
        let r = try CLI.run(args + ["--mbox", mbox.path])
        #expect(r.status == 0, "\(r.stderr)")
        try read(mbox, in: dir)
        // mutt wrote its flags back; the file still holds both messages for Python's mailbox.
        let count = try runToEnd([
            DemoCLITests.python, "-c", "import mailbox, sys; print(len(mailbox.mbox(sys.argv[1], create=False)))",
            mbox.path,
        ])
        #expect(count.output == "2\n", "\(count.output)")
    }
}
