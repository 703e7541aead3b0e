import Foundation
import TestSupport
import Testing

/// `compose --send` run twice, stopped or killed on the way, and what it leaves: one batch is never sent
/// twice without being asked to, every contact asked for is accounted for, and outboxes are removed when
/// settled.
@Suite struct CampaignSendingCLITests {
    let delivery = DeliveryCLITests()

    /// A sendmail stand-in that logs each call to `calls` and answers 75 (try later) while `dir/down` exists.
    func sendmail(in dir: URL) throws -> URL {
        let script = dir.appendingPathComponent("sendmail")
        try """
        #!/bin/sh
        cat > /dev/null
        if [ -e "\(dir.path)/down" ]; then echo "down $*" >> "\(dir.path)/calls"; exit 75; fi
        echo "$*" >> "\(dir.path)/calls"

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    func outboxes(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }.sorted()
    }

    /// The command after "resume with: " (or "Resume with: ") in `text`, up to the end of its line or " (or".
    func resumeCommand(in text: String) throws -> String {
        let range = try #require(text.range(of: "esume with: "), "\(text)")
        var command = String(text[range.upperBound...].prefix { $0 != "\n" })
        if let or = command.range(of: " (or add --new-batch") { command = String(command[..<or.lowerBound]) }
        return command
    }

    /// Runs `command`, a shell line the tool printed (`contacts …`, quoted for a shell), in `dir`: the shell
    /// splits it as a user's would, and its first word runs the built `contacts`.
    func runShell(_ command: String, in dir: URL) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "set -- \(command) && shift && exec \"$CONTACTS\" \"$@\""]
        var env = ProcessInfo.processInfo.environment
        env["CONTACTS"] = CLI.executable.path
        env["NO_COLOR"] = "1"
        process.environment = env
        process.currentDirectoryURL = dir
        return try CLI.collect(process)
    }

    /// A scratch folder with the `note` template and the sendmail stand-in (answering 75 when `down`), and
    /// the `compose --send` of `count` sample contacts through it (one try per message).
    func batch(_ name: String, count: Int, down: Bool = false) throws -> (dir: URL, args: [String]) {
        let dir = try Scratch.directory(name)
        let library = try delivery.templates(in: dir)
        let script = try sendmail(in: dir)
        let ids = try delivery.sampleIDs(count, mode: "email")
        if down { try Data().write(to: dir.appendingPathComponent("down")) }
        let args = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
            ids.joined(separator: ","), "--from", "ada@example.org", "--sendmail-program", script.path, "--send",
            "--attempts", "1",
        ]
        return (dir, args)
    }

    @Test(
        "the same compose --send after a failed run is refused with the command that resumes it; --new-batch sends anew"
    )
    func sameBatchIsRefusedWithTheResumeCommand() throws {
        let (dir, args) = try batch("batch-again", count: 2, down: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try CLI.run(args, currentDirectory: dir)
        #expect(first.status == 1 && first.stdout.contains("deferred 2"), "\(first.stdout)\(first.stderr)")
        let made = try outboxes(in: dir)
        try #require(made.count == 1)

        // Run again as it was: refused before anything is rendered, queued or sent, no new outbox.
        let again = try CLI.run(args, currentDirectory: dir)
        #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("an unfinished outbox of the same batch"), "\(again.stderr)")
        let resume = try resumeCommand(in: again.stderr)
        #expect(resume.hasPrefix("contacts compose --source "))
        #expect(resume.hasSuffix("--resume " + dir.appendingPathComponent(made[0]).path), "\(resume)")
        #expect(try outboxes(in: dir) == made)
        #expect(delivery.calls(in: dir).count == 2)

        // Another batch (other data) is not this one.
        let data = dir.appendingPathComponent("data.json")
        try #"{"x": 1}"#.write(to: data, atomically: true, encoding: .utf8)
        let other = try CLI.run(args + ["--data", data.path], currentDirectory: dir)
        #expect(other.stdout.contains("2 message(s) queued"), "\(other.stdout)\(other.stderr)")
        #expect(try outboxes(in: dir).count == 2)

        // The printed command resumes it: each message sent once.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("down"))
        let resumed = try runShell(resume, in: dir)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stdout.contains("resuming 2 message(s)") && resumed.stdout.contains("summary: sent 2"))
        #expect(delivery.calls(in: dir).filter { !$0.hasPrefix("down") }.count == 2)

        // Settled: the same batch may be sent again (a new outbox); --new-batch sends even beside an
        // unfinished one.
        let otherOutbox = try #require(try outboxes(in: dir).first { $0 != made[0] })
        let forced = try CLI.run(args + ["--data", data.path, "--new-batch"], currentDirectory: dir)
        #expect(forced.status == 0 && forced.stdout.contains("2 message(s) queued"), "\(forced.stderr)")
        #expect(try outboxes(in: dir).count == 3)
        #expect(
            try CLI.run(["outbox", "status", dir.appendingPathComponent(otherOutbox).path]).stdout.hasPrefix(
                "queued 0, deferred 2"))
    }

    @Test("a kill while queueing: the same run is refused with --resume; the resume drops the files never journaled")
    func killWhileQueueingIsResumedWithoutItsLeftovers() throws {
        let (dir, args) = try batch("batch-killed", count: 3, down: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(args, currentDirectory: dir)
        let outbox = dir.appendingPathComponent(try #require(try outboxes(in: dir).first))
        // What a kill between writing the message files and recording them leaves: the files, no journal.
        try FileManager.default.removeItem(at: outbox.appendingPathComponent("journal.jsonl"))
        let before = try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent("messages").path)
        #expect(before.count == 3)

        let again = try CLI.run(args, currentDirectory: dir)
        #expect(again.status == 2 && again.stderr.contains("an unfinished outbox"), "\(again.stderr)")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("down"))
        let resumed = try runShell(try resumeCommand(in: again.stderr), in: dir)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stdout.contains("3 message(s) queued") && resumed.stdout.contains("summary: sent 3"))
        let status = try CLI.run(["outbox", "status", outbox.path])
        #expect(status.stdout.hasPrefix("queued 0, deferred 0, uncertain 0, sent 3, failed 0"), "\(status.stdout)")
        #expect(!status.stdout.contains("not queued"), "\(status.stdout)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent("messages").path).count
                == 3)
        #expect(try outboxes(in: dir).count == 1)
    }

    @Test("stopped at once before queueing: nothing sent, the line that resumes the outbox it made")
    func stopAtOnceBeforeQueueingPrintsTheResumeLine() throws {
        let dir = try Scratch.directory("batch-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try delivery.templates(in: dir)
        let ids = try delivery.sampleIDs(2, mode: "email")
        // An SMTP server that takes the connection and never greets: a new batch asks the server for its
        // SIZE before queueing, and waits there.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        try #require(bound == 0 && listen(listener, 8) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        let args = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
            ids.joined(separator: ","), "--from", "ada@example.org", "--smtp",
            "smtp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))", "--send",
        ]
        let run = try BackgroundProcess(CLI.executable, args, scratch: dir, currentDirectory: dir)
        defer { if run.process.isRunning { _ = run.wait(timeout: 0) } }
        var client: Int32 = -1
        defer { if client >= 0 { close(client) } }
        let deadline = Date().addingTimeInterval(20)
        while client < 0 && run.process.isRunning && Date() < deadline {
            client = accept(listener, nil, nil)
            if client < 0 { Thread.sleep(forTimeInterval: 0.005) }
        }
        try #require(client >= 0, "contacts did not connect: \(run.stderr)")
        kill(run.pid, SIGINT)
        // (Two signals sent at once may arrive as one: the second goes once the first is taken.)
        let noticed = Date().addingTimeInterval(10)
        while !run.stderr.contains("interrupted: stopping before") && run.process.isRunning && Date() < noticed {
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(run.pid, SIGINT)
        #expect(run.wait(timeout: 20))
        #expect(run.exitedWith == 130, "\(run.stderr)")
        #expect(
            run.stderr.contains("stopped at once; nothing was sent; resume with: contacts compose"), "\(run.stderr)")
        let made = try outboxes(in: dir)
        try #require(made.count == 1, "\(made)")
        // The command given is this one, resuming the outbox (which nothing was queued into yet).
        let resume = try resumeCommand(in: run.stderr)
        #expect(
            resume == "contacts "
                + (args + ["--resume", dir.appendingPathComponent(made[0]).path]).joined(separator: " "))
        let status = try CLI.run(["outbox", "status", dir.appendingPathComponent(made[0]).path])
        #expect(status.status == 2, "no journal yet: \(status.stdout)")
    }

    @Test("every contact asked for is accounted for: one without an address is named on stderr and counted, exit 1")
    func contactsWithoutAnAddressAreNamedAndCounted() throws {
        let dir = try Scratch.directory("batch-noaddress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try delivery.templates(in: dir)
        let book = dir.appendingPathComponent("book.vcf")
        try """
        BEGIN:VCARD\r\nVERSION:4.0\r\nUID:ann\r\nFN:Ann Lee\r\nEMAIL:ann@example.org\r\nEND:VCARD\r
        BEGIN:VCARD\r\nVERSION:4.0\r\nUID:dental\r\nFN:Example Dental\r\nTEL:+14155550100\r\nEND:VCARD\r

        """.write(to: book, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("drafts")
        let r = try CLI.run([
            "compose", "--source", book.path, "--template", "note", "--templates", library.path, "--mode", "email",
            "--ids", "ann,dental,nobody", "--from", "ada@example.org", "--out", out.path,
        ])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("Example Dental (dental): no email address"), "\(r.stderr)")
        #expect(r.stderr.contains("no contact with the id 'nobody'"), "\(r.stderr)")
        #expect(r.stdout.contains("summary: sent 0, saved 1, failed 0, skipped 0, no address 2"), "\(r.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 1)

        // A group's member without an address, too.
        try """
        BEGIN:VCARD\r\nVERSION:4.0\r\nUID:ann\r\nFN:Ann Lee\r\nEMAIL:ann@example.org\r\nCATEGORIES:Team\r\nEND:VCARD\r
        BEGIN:VCARD\r\nVERSION:4.0\r\nUID:dental\r\nFN:Example Dental\r\nTEL:+14155550100\r\nCATEGORIES:Team\r\nEND:VCARD\r

        """.write(to: book, atomically: true, encoding: .utf8)
        let group = try CLI.run([
            "compose", "--source", book.path, "--template", "note", "--templates", library.path, "--mode", "email",
            "--group", "Team", "--from", "ada@example.org", "--uri",
        ])
        #expect(group.status == 1, "\(group.stdout)\(group.stderr)")
        #expect(group.stderr.contains("Example Dental (dental): no email address"), "\(group.stderr)")
        #expect(group.stdout.contains("no address 1"), "\(group.stdout)")
    }

    @Test("compose --send without --source never mails the built-in sample book")
    func sendNeverMailsTheSampleBook() throws {
        let dir = try Scratch.directory("batch-sample")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try delivery.templates(in: dir)
        let script = try sendmail(in: dir)
        let ids = try delivery.sampleIDs(2, mode: "email")
        let args = [
            "compose", "--template", "note", "--templates", library.path, "--ids", ids.joined(separator: ","),
            "--from", "ada@example.org", "--sendmail-program", script.path,
        ]
        let refused = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(refused.status == 2, "\(refused.stdout)")
        #expect(refused.stderr.contains("--send mails only a book you name: give --source"), "\(refused.stderr)")
        #expect(delivery.calls(in: dir).isEmpty)
        #expect(try outboxes(in: dir).isEmpty)
        // Without --send it shows what would be sent.
        let dry = try CLI.run(args, currentDirectory: dir)
        #expect(dry.status == 0 && dry.stdout.contains("would send via"), "\(dry.stderr)")
    }

    @Test(
        "outbox prune removes settled outboxes only (--older-than by the journal's age); a batch refused before queueing leaves none"
    )
    func pruneRemovesSettledOutboxes() throws {
        // The same batch each time: once an outbox of it is settled, it may be sent again.
        let (dir, args) = try batch("batch-prune", count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        func send(extra: [String] = []) throws -> CLIResult { try CLI.run(args + extra, currentDirectory: dir) }
        // Every message refused (too large) before queueing: no outbox is left.
        let big = dir.appendingPathComponent("big.bin")
        try Data(repeating: 0x41, count: 4096).write(to: big)
        let refused = try send(extra: ["--attach", big.path, "--max-message-size", "2k"])
        #expect(
            refused.status == 1 && refused.stderr.contains("more than the limit"), "\(refused.stdout)\(refused.stderr)")
        #expect(try outboxes(in: dir).isEmpty)

        _ = try send()
        let old = try #require(try outboxes(in: dir).first)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-40 * 86_400)],
            ofItemAtPath: dir.appendingPathComponent(old + "/journal.jsonl").path)
        Thread.sleep(forTimeInterval: 1.1)  // (outbox names have seconds)
        _ = try send()
        try Data().write(to: dir.appendingPathComponent("down"))
        Thread.sleep(forTimeInterval: 1.1)
        _ = try send()
        let all = try outboxes(in: dir)
        try #require(all.count == 3)

        let bad = try CLI.run(["outbox", "prune", "--older-than", "a month"], currentDirectory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("expected a duration such as 90s"), "\(bad.stderr)")
        let aged = try CLI.run(["outbox", "prune", "--older-than", "30d"], currentDirectory: dir)
        #expect(aged.status == 0 && aged.stdout == "removed \(dir.appendingPathComponent(old).path)\n", "\(aged)")
        let rest = try CLI.run(["outbox", "prune", dir.path])
        #expect(rest.stdout == "removed \(dir.appendingPathComponent(all[1]).path)\n", "\(rest.stdout)")
        // The one with a deferred message is kept.
        #expect(try outboxes(in: dir) == [all[2]])
    }
}
