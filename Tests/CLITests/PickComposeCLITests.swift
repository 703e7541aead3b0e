import Foundation
import TestSupport
import Testing

/// `contacts pick` with composer options: the compose sheet on a pseudo-terminal read by pyte (exact
/// screens in en, de and ar), and in a real terminal (tmux) sending into a local SMTP server, editing in
/// `$EDITOR`, the alert, and a Markdown body.
@Suite(.serialized) struct PickComposeCLITests {
    /// `pick` over the picker's book in email mode (Anna Berg and Zoë Ünal) with a written message.
    static func pickArgs(_ extra: [String], body: String = "Hi {{recipient.givenName}}, see you on Friday.")
        throws -> [String]
    {
        [
            "pick", "--source", try PickScreenCLITests.book().path, "--region", "US", "--mode", "email",
            "--subject", "Dinner, {{recipient.givenName}}", "--body", body,
        ] + extra
    }

    // MARK: - Screens (pyte)

    @Test func sheetPagesThroughTheRecipientsAndEscapeKeepsTheSelection() throws {
        let drafts = try Scratch.directory("pick-sheet")
        let (run, stdout) = try PickScreenCLITests.run(
            try Self.pickArgs(["--out", drafts.path, "--from", "ada@example.org"]),
            steps: [
                ["wait", "Search contacts"], ["send", "\t\t\r"], ["wait", "Subject"], ["snap"], ["send", "\u{1B}OC"],
                ["wait", "2/2"], ["snap"], ["send", "\u{1B}"], ["wait", "Select (2)"], ["snap"], ["send", "\u{1B}"],
            ])
        #expect(run.status == 130)
        #expect(stdout.isEmpty)
        #expect(
            run.snaps[0] == [
                "Back                     Anna Berg                      Send",
                "To: Anna Berg <anna@example.org>                         1/2",
                "Subject: Dinner, Anna                                       ",
                String(repeating: "─", count: 60),
                "Hi Anna, see you on Friday.                                 ",
            ] + Array(repeating: String(repeating: " ", count: 60), count: 6) + [
                "e Edit  s Send  Esc Back  ← →                               "
            ])
        #expect(run.snaps[1][1] == "To: Zoë Ünal <zoe@example.org>                           2/2")
        #expect(run.snaps[1][4].hasPrefix("Hi Zoë, see you on Friday."))
        #expect(run.snaps[2][0].hasSuffix("Select (2)"))
        #expect(run.snaps[2][3].hasPrefix("[x] Anna Berg") && run.snaps[2][5].hasPrefix("[x] Zoë Ünal"))
        // Nothing was written: the sheet only shows.
        #expect(try FileManager.default.contentsOfDirectory(atPath: drafts.path).isEmpty)
    }

    @Test func germanAndArabicSheetsAndTheGermanAlert() throws {
        let drafts = try Scratch.directory("pick-sheet")
        let deliver = ["--out", drafts.path, "--from", "ada@example.org"]
        let steps: [[Any]] = [
            ["wait", "2/2"], ["send", "\t\t\r"], ["wait", "1/2"], ["snap"], ["send", "\u{1B}"], ["wait", "2/2"],
            ["send", "\u{1B}"],
        ]
        let (de, _) = try PickScreenCLITests.run(
            try Self.pickArgs(deliver + ["--locale", "de"]), steps: steps, environment: ["LANG": "de.UTF-8"])
        #expect(
            Array(de.snaps[0].prefix(4)) == [
                "Zurück                   Anna Berg                    Senden",
                "An: Anna Berg <anna@example.org>                         1/2",
                "Betreff: Dinner, Anna                                       ",
                String(repeating: "─", count: 60),
            ])
        #expect(de.snaps[0][11] == "e Bearbeiten  s Senden  Esc Zurück  ← →" + String(repeating: " ", count: 21))
        let (ar, _) = try PickScreenCLITests.run(
            try Self.pickArgs(deliver + ["--locale", "ar"]), steps: steps, environment: ["LANG": "ar.UTF-8"])
        // Mirrored: the send button on the left, back on the right, the page count first.
        #expect(ar.snaps[0][0].hasPrefix("إرسال") && ar.snaps[0][0].hasSuffix("رجوع"))
        // A space between each label and its value, mirrored too.
        #expect(ar.snaps[0][1].hasPrefix("1/2") && ar.snaps[0][1].hasSuffix("<anna@example.org> إلى:"))
        #expect(ar.snaps[0][2].hasSuffix("Dinner, Anna الموضوع:"), "\(ar.snaps[0][2])")
        // No delivery option: mail cannot be sent from here, said before the list opens, with the options
        // that would add a way; OK ends pick.
        let (alert, stdout) = try PickScreenCLITests.run(
            try Self.pickArgs(["--locale", "de"]), steps: [["wait", "[ OK ]"], ["snap"], ["send", "\r"]],
            environment: ["LANG": "de.UTF-8"])
        #expect(alert.status == 2 && stdout.isEmpty)
        let lines = alert.snaps[0].map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines[1] == "Nachrichten nicht unterstützt", "\(lines)")
        // The message wrapped to the screen.
        #expect(lines[3] + " " + lines[4] == "Das Senden von E-Mails wird auf diesem Gerät nicht unterstützt.")
        #expect(lines[6] + "  " + lines[7] == "--smtp URL  --sendmail  --maildir DIR  --mbox FILE  --out DIR  --uri")
        #expect(lines[9] == "[ OK ]")
        #expect(!alert.snaps[0].joined().contains("Anna Berg"), "the list is not open")
    }

    @Test func aLibraryTemplateIsRenderedInEachRecipientsLanguageAndNotEdited() throws {
        let dir = try Scratch.directory("pick-template")
        let book = dir.appendingPathComponent("book.vcf")
        try Scratch.write(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:anna\r\nFN:Anna Berg\r\nN:Berg;Anna;;;\r\nEMAIL:anna@example.org\r\n"
                + "LANG:de\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nUID:ben\r\nFN:Ben Cole\r\nN:Cole;Ben;;;\r\n"
                + "EMAIL:ben@example.org\r\nEND:VCARD\r\n", to: book)
        let data = dir.appendingPathComponent("invite.json")
        try Scratch.write(
            #"{"inviter": {"givenName": "Ada", "familyName": "Lovelace"}, "project": "Atlas", "#
                + #""url": "https://example.com/join", "expires": "2025-07-01"}"#, to: data)
        let (run, _) = try PickScreenCLITests.run(
            [
                "pick", "--source", book.path, "--mode", "email", "--locale", "en", "--template", "invite", "--data",
                data.path, "--out", dir.appendingPathComponent("drafts").path, "--from", "ada@example.org",
            ], columns: 60, lines: 12,
            steps: [
                ["wait", "2/2"], ["send", "\t\t\r"], ["wait", "1/2"], ["snap"], ["send", "\u{1B}OC"], ["wait", "2/2"],
                ["snap"], ["send", "\u{3}"],
            ])
        #expect(run.status == 130)
        #expect(run.snaps[0][2].hasPrefix("Subject: Ada Lovelace hat Sie zu Atlas eingeladen"), "\(run.snaps[0])")
        #expect(run.snaps[1][2].hasPrefix("Subject: Ada Lovelace invited you to Atlas"), "\(run.snaps[1])")
        // A library template is not edited here: no e.
        #expect(run.snaps[0][11].hasPrefix("s Send  Esc Back"))
    }

    // MARK: - A real terminal (tmux)

    /// Runs `contacts ARGS` in a tmux window, its output on the screen, then `status=N`.
    static func start(_ args: [String], in folder: URL? = nil, environment: [String: String] = [:]) throws
        -> TmuxWindow
    {
        let quoted = ([CLI.executable.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let cd = folder.map { "cd '\($0.path)' && " } ?? ""
        let command = cd + quoted.joined(separator: " ") + "; echo status=$?; sleep 600"
        return try TmuxWindow(
            columns: 80, lines: 20, command: command,
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"].merging(environment) { $1 })
    }

    @Test func sendDeliversBothMessagesToTheSMTPServerAndPrintsTheSummary() throws {
        let dir = try Scratch.directory("pick-send")
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let (server, url) = try ExamplesCLITests.mailServer(mailbox: mailbox)
        defer { server.stop() }
        let window = try Self.start(
            try Self.pickArgs(["--smtp", url, "--from", "Ada <ada@example.org>", "--send"]), in: dir)
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("Tab")
        try window.send("Tab")
        #expect(window.waitFor("Select (2)"))
        try window.send("Enter")
        #expect(window.waitFor("Subject: Dinner, Anna"))
        try window.send("s", literal: true)
        #expect(window.waitFor("status="))
        let screen = window.screen
        #expect(screen.contains("summary: sent 2, failed 0, skipped 0"), "\(screen)")
        #expect(screen.contains("status=0"), "\(screen)")
        let emls = try FileManager.default.contentsOfDirectory(atPath: mailbox.path).filter { $0.hasSuffix(".eml") }
        #expect(emls.count == 2)
        let messages = try emls.map {
            try String(contentsOf: mailbox.appendingPathComponent($0), encoding: .utf8)
        }
        #expect(
            messages.contains { $0.contains("Subject: Dinner, Anna") && $0.contains("Hi Anna, see you on Friday.") })
        #expect(messages.contains { $0.contains("To: =?UTF-8?") || $0.contains("zoe@example.org") })
        #expect(messages.allSatisfy { $0.contains("From: Ada <ada@example.org>") })
    }

    @Test func sendWithoutSendIsADryRunThatShowsWhatWouldBeSent() throws {
        let dir = try Scratch.directory("pick-dry")
        let mailbox = dir.appendingPathComponent("mailbox")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let (server, url) = try ExamplesCLITests.mailServer(mailbox: mailbox)
        defer { server.stop() }
        let program = dir.appendingPathComponent("send-sms")
        try Scratch.write("#!/bin/sh\ncat >> '\(dir.path)/texts'\n", to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let book = try PickScreenCLITests.book().path
        for (args, expected) in [
            (
                try Self.pickArgs(["--smtp", url, "--from", "Ada <ada@example.org>"]),
                "would send via \(url): Anna Berg: ada@example.org → anna@example.org"
            ),
            (
                ["pick", "--source", book, "--region", "US", "--message-body", "Hi", "--sms-program", program.path],
                "would text via \(program.path): Anna Berg: +14155550100 (1 SMS segment(s))"
            ),
        ] {
            let window = try Self.start(args, in: dir)
            defer { window.close() }
            #expect(window.waitFor("Search contacts"))
            try window.send("Tab")
            try window.send("Tab")
            try window.send("Enter")
            #expect(window.waitFor("Anna Berg <"))
            try window.send("s", literal: true)
            #expect(window.waitFor("status="))
            // (Long lines wrap at 80 columns, and a space at a wrap is lost from the captured screen, so the
            // line is compared without its spaces; where it wraps depends on the length of the paths in it.)
            let screen = window.screen.replacingOccurrences(of: "\n", with: "")
            let unspaced = { (text: String) in text.filter { !$0.isWhitespace } }
            #expect(unspaced(screen).contains(unspaced(expected)), "\(window.screen)")
            #expect(screen.contains("dry run: add --send to deliver"), "\(screen)")
            #expect(screen.contains("status=0"), "\(screen)")
        }
        // Nothing was delivered, queued or texted.
        #expect(try FileManager.default.contentsOfDirectory(atPath: mailbox.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("texts").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("outbox-") })
    }

    @Test func editInEditorChangesTheSubjectForEveryone() throws {
        let dir = try Scratch.directory("pick-edit")
        let editor = dir.appendingPathComponent("edit.sh")
        // The editor asks on the terminal for a new subject (it must be the terminal's foreground job to read
        // it) and writes it on the first line.
        try Scratch.write(
            "#!/bin/sh\nprintf 'New subject: ' > /dev/tty\nread subject < /dev/tty\n"
                + "sed -i \"1s/.*/Subject: $subject/\" \"$1\"\n", to: editor)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let failing = dir.appendingPathComponent("fail.sh")
        try Scratch.write("#!/bin/sh\nprintf 'Waiting: ' > /dev/tty\nread x < /dev/tty\nexit 3\n", to: failing)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
        let drafts = dir.appendingPathComponent("drafts")
        let window = try Self.start(
            try Self.pickArgs(["--out", drafts.path, "--from", "ada@example.org"]),
            environment: ["EDITOR": editor.path, "VISUAL": "", "TMPDIR": dir.path])
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("Tab")
        try window.send("Tab")
        try window.send("Enter")
        #expect(window.waitFor("Subject: Dinner, Anna"))
        try window.send("e", literal: true)
        #expect(window.waitFor("New subject:"))
        try window.send("Lunch, {{recipient.givenName}}", literal: true)
        try window.send("Enter")
        #expect(window.waitFor("Subject: Lunch, Anna"))
        try window.send("Right")
        #expect(window.waitFor("Subject: Lunch, Zoë"), "\(window.screen)")
        try window.send("s", literal: true)
        #expect(window.waitFor("status=0"), "\(window.screen)")
        let emls = try FileManager.default.contentsOfDirectory(atPath: drafts.path).filter { $0.hasSuffix(".eml") }
        #expect(emls.count == 2)
        let subjects = try emls.map {
            try String(contentsOf: drafts.appendingPathComponent($0), encoding: .utf8).components(separatedBy: "\r\n")
                .first { $0.hasPrefix("Subject: ") }
        }
        // "Lunch, Zoë" in an encoded word.
        #expect(Set(subjects) == ["Subject: Lunch, Anna", "Subject: =?UTF-8?B?THVuY2gsIFpvw6s=?="])

        // An editor that fails leaves the message as it was and says so.
        let second = try Self.start(
            try Self.pickArgs(["--out", drafts.path, "--from", "ada@example.org"]),
            environment: ["EDITOR": failing.path, "VISUAL": "", "TMPDIR": dir.path])
        defer { second.close() }
        #expect(second.waitFor("Search contacts"))
        try second.send("Enter")
        #expect(second.waitFor("Subject: Dinner, Anna"))
        try second.send("e", literal: true)
        #expect(second.waitFor("Waiting:"))
        try second.send("Enter")
        #expect(second.waitFor("The editor exited with 3; the message is unchanged"))
        #expect(second.screen.contains("Subject: Dinner, Anna"))
        // Shown whole, wrapped over the last lines (the editor's path is longer than the screen is wide).
        let lines = second.screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let start = try #require(lines.firstIndex { $0.hasPrefix("The editor exited with 3") })
        #expect(
            lines[start...].joined(separator: " ").replacingOccurrences(of: "/ ", with: "/")
                .contains("(\(failing.path))")
                || lines[start...].joined().contains("(\(failing.path))"), "\(second.screen)")
        // A Ctrl-C in the editor ends the editor, not the picker.
        try second.send("e", literal: true)
        #expect(second.waitFor("Waiting:"))
        try second.send("C-c")
        #expect(second.waitFor("The editor exited with 130; the message is unchanged"))
        try second.send("Escape")
        #expect(second.waitFor("0 contacts selected"))
        try second.send("C-c")
        #expect(second.waitFor("status=130"))
        // No temporary folder is left behind (the text of an edit not taken stays with the sheet).
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("contacts-pick-")
        }
        #expect(kept.isEmpty, "\(kept)")
    }

    /// A rejected edit: the error says why, and `e` reopens the user's own text (not the message before
    /// it), so they mend it instead of writing it again; no temporary folder stays behind.
    @Test func aRejectedEditReopensTheUsersOwnText() throws {
        let dir = try Scratch.directory("pick-rejected")
        let editor = dir.appendingPathComponent("edit.sh")
        // First run: the user writes a message without its Subject: line. Second: they add it. Each run
        // keeps a copy of what the editor opened.
        try Scratch.write(
            "#!/bin/sh\nn=$(cat '\(dir.path)/count' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '\(dir.path)/count'\n"
                + "cp \"$1\" '\(dir.path)/opened-'$n\n"
                + "if [ $n = 1 ]; then printf 'Lunch on Friday\\n\\nMy own words, written with care.\\n' > \"$1\"\n"
                + "else sed -i '1s/^/Subject: /' \"$1\"; fi\n", to: editor)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let window = try Self.start(
            try Self.pickArgs(["--out", dir.appendingPathComponent("drafts").path, "--from", "ada@example.org"]),
            environment: ["EDITOR": editor.path, "VISUAL": "", "TMPDIR": tmp.path])
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("Enter")
        #expect(window.waitFor("Subject: Dinner, Anna"))
        try window.send("e", literal: true)
        #expect(window.waitFor("message.txt:1:1: expected 'Subject: …' on the first line"), "\(window.screen)")
        #expect(window.screen.contains("Subject: Dinner, Anna"))
        try window.send("e", literal: true)
        #expect(window.waitFor("Subject: Lunch on Friday"), "\(window.screen)")
        #expect(window.screen.contains("My own words, written with care."))
        // The second edit opened what the user had written, not the message before it.
        let opened = try String(contentsOf: dir.appendingPathComponent("opened-2"), encoding: .utf8)
        #expect(opened == "Lunch on Friday\n\nMy own words, written with care.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        try window.send("C-c")
        #expect(window.waitFor("status=130"))
    }

    @Test func textMessagesGoThroughTheSMSProgram() throws {
        let dir = try Scratch.directory("pick-sms")
        let program = dir.appendingPathComponent("send-sms")
        try Scratch.write(
            "#!/bin/sh\nbody=$(cat)\nprintf '%s|%s\\n' \"$1\" \"$body\" >> '\(dir.path)/log'\n", to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let window = try Self.start(
            [
                "pick", "--source", try PickScreenCLITests.book().path, "--region", "US", "--message-body",
                "See you at 8, {{recipient.givenName}}", "--sms-program", program.path, "--send",
            ], in: dir)
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("Tab")
        try window.send("Tab")
        try window.send("Enter")
        // A text message has no subject: To, then the body.
        #expect(window.waitFor("See you at 8, Anna"))
        #expect(!window.screen.contains("Subject:"))
        try window.send("s", literal: true)
        #expect(window.waitFor("status=0"), "\(window.screen)")
        #expect(window.screen.contains("text messages: 2 sent"), "\(window.screen)")
        let log = try String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8)
        #expect(log == "+14155550100|See you at 8, Anna\n+14155550101|See you at 8, Bruno\n")
    }

    @Test func noTransportAlertComesBeforeTheListAndNamesTheOptions() throws {
        let window = try Self.start(try Self.pickArgs([]))
        defer { window.close() }
        #expect(window.waitFor("Sending emails from this device is not supported."))
        #expect(window.screen.contains("Messaging not supported"))
        #expect(window.screen.contains("--smtp URL  --sendmail  --maildir DIR  --mbox FILE  --out DIR  --uri"))
        #expect(window.screen.contains("[ OK ]") && !window.screen.contains("Search contacts"))
        try window.send("Enter")
        #expect(window.waitFor("status=2"), "\(window.screen)")
        #expect(window.screen.contains("Add one of: --smtp URL"), "\(window.screen)")
        // Text messages: the SMS program (or files, URIs) would carry them.
        let texts = try Self.start([
            "pick", "--source", try PickScreenCLITests.book().path, "--message-body", "Hi", "--smtp",
            "smtp://127.0.0.1:1",
        ])
        defer { texts.close() }
        #expect(texts.waitFor("Messaging on this device is not supported."), "\(texts.screen)")
        #expect(texts.screen.contains("--sms-program PATH  --out DIR  --uri"))
        try texts.send("Escape")
        #expect(texts.waitFor("status=2"))
    }

    @Test func markdownBodyFileMakesTheHTMLPart() throws {
        let dir = try Scratch.directory("pick-md")
        let body = dir.appendingPathComponent("note.md")
        try Scratch.write("# Dinner\n\nHi *{{recipient.givenName}}*, see you & yours.\n", to: body)
        let drafts = dir.appendingPathComponent("drafts")
        let window = try Self.start(
            try Self.pickArgs(["--out", drafts.path, "--from", "ada@example.org"], body: "@" + body.path))
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("Enter")
        #expect(window.waitFor("Hi *Anna*, see you & yours."))
        try window.send("s", literal: true)
        #expect(window.waitFor("status=0"), "\(window.screen)")
        let emls = try FileManager.default.contentsOfDirectory(atPath: drafts.path).filter { $0.hasSuffix(".eml") }
        #expect(emls.count == 1)
        let eml = try String(contentsOf: drafts.appendingPathComponent(try #require(emls.first)), encoding: .utf8)
        #expect(eml.contains("Content-Type: multipart/alternative"))
        #expect(eml.contains("Content-Type: text/html"))
        #expect(eml.contains("<h1>Dinner</h1>"))
        #expect(eml.contains("<em>Anna</em>, see you &amp; yours."))
        #expect(eml.contains("Content-Type: text/plain"))
    }

    @Test func composerOptionsAreCheckedBeforeThePickerStarts() throws {
        let book = try PickScreenCLITests.book().path
        let out = try Scratch.directory("pick-options").appendingPathComponent("x").path
        let both = try CLI.run(["pick", "--source", book, "--subject", "S", "--template", "invite"])
        #expect(both.status == 2 && both.stderr.contains("not both"))
        let alone = try CLI.run(["pick", "--source", book, "--out", out])
        #expect(alone.status == 2 && alone.stderr.contains("go with --subject"))
        let bad = try CLI.run(["pick", "--source", book, "--subject", "Hi {{name", "--out", out, "--from", "a@b.c"])
        #expect(bad.status == 2 && bad.stderr.contains("subject"), "\(bad.stderr)")
        let noFrom = try CLI.run([
            "pick", "--source", book, "--mode", "email", "--subject", "S", "--smtp", "smtp://127.0.0.1:1",
        ])
        #expect(noFrom.status == 2 && noFrom.stderr.contains("--from ADDR is needed"))
        let unknown = try CLI.run(["pick", "--source", book, "--template", "nope", "--out", out, "--from", "a@b.c"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no template 'nope'"))
    }
}
