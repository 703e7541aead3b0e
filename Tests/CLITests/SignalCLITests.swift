import Foundation
import TestSupport
import Testing

/// `compose --send` when it is killed or interrupted: no sendmail outlives it, and a Ctrl-C before anything
/// is sent leaves no outbox behind.
@Suite struct SignalCLITests {
    let delivery = DeliveryCLITests()

    @Test("kill -9 of contacts kills the sendmail it started; that message is then uncertain")
    func sendmailDiesWithContacts() throws {
        let dir = try Scratch.directory("signals-kill9")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try delivery.templates(in: dir)
        let ids = try delivery.sampleIDs(1, mode: "email")
        // Writes its pid (whole, by a rename), then sleeps as that same process.
        let pidFile = dir.appendingPathComponent("pid")
        let script = dir.appendingPathComponent("sendmail")
        try """
        #!/bin/sh
        echo $$ > "\(pidFile.path).new" && mv "\(pidFile.path).new" "\(pidFile.path)"
        exec sleep 600

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let run = try BackgroundProcess(
            CLI.executable,
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
                ids[0], "--from",
                "ada@example.org", "--sendmail-program", script.path, "--send",
            ], scratch: dir, currentDirectory: dir)
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: pidFile.path) && run.process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let text = (try? String(contentsOf: pidFile, encoding: .utf8)) ?? ""
        let sendmail = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if sendmail > 0 && processIsAlive(sendmail) { kill(sendmail, SIGKILL) } }
        try #require(sendmail > 0, "sendmail did not start: \(run.stderr)")

        kill(run.pid, SIGKILL)
        #expect(run.wait(timeout: 10) && run.process.terminationReason == .uncaughtSignal)
        #expect(processEnds(sendmail, timeout: 5), "sendmail \(sendmail) outlived contacts")
        // It was handed the message and gave no verdict: uncertain, for 'contacts outbox settle'.
        let outboxes = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        try #require(outboxes.count == 1, "\(outboxes)")
        let status = try CLI.run(["outbox", "status", dir.appendingPathComponent(outboxes[0]).path])
        #expect(status.stdout.hasPrefix("queued 0, deferred 0, uncertain 1, sent 0, failed 0"), "\(status.stdout)")
    }

    @Test(
        "SIGINT or SIGTERM while preparing a send: rendering and queueing stop, nothing is sent, no outbox is left, 130",
        arguments: [(SIGINT, 1), (SIGTERM, 1), (SIGINT, 2)])
    func interruptBeforeSending(_ signalNumber: Int32, times: Int) throws {
        let dir = try Scratch.directory("signals-early")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try delivery.templates(in: dir)
        let ids = try delivery.sampleIDs(3, mode: "email")
        let script = try delivery.fakeSendmail(in: dir)
        // The recipients' variables come through a pipe on stdin, in two parts: contacts reads the first
        // (which it does with the send under way: signals taken, nothing rendered yet) and waits for the
        // rest; the test interrupts it there.
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var writer: Int32? = fds[1]
        func closeWriter() {
            if let fd = writer { close(fd) }
            writer = nil
        }
        defer { closeWriter() }
        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        }
        let probe = dup(fds[0])  // the test's own view of the pipe: how much is still unread
        _ = fcntl(probe, F_SETFD, FD_CLOEXEC)
        defer { close(probe) }
        func unread() -> Int32 {
            var count: Int32 = 0
            return ioctl(probe, UInt(FIONREAD), &count) == 0 ? count : -1
        }
        let run = try BackgroundProcess(
            CLI.executable,
            [
                "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
                ids.joined(separator: ","),
                "--recipients", "-", "--from", "ada@example.org", "--sendmail-program", script.path, "--send",
            ], scratch: dir, currentDirectory: dir,
            standardInput: FileHandle(fileDescriptor: fds[0], closeOnDealloc: true))
        defer { if run.process.isRunning { _ = run.wait(timeout: 0) } }  // (kills it)

        send("id,note\n")
        var deadline = Date().addingTimeInterval(20)
        while unread() != 0 && run.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        try #require(unread() == 0, "contacts did not read its stdin: \(run.stderr)")
        kill(run.pid, signalNumber)
        // The stop is requested before the notice is printed: once it is there, go on.
        deadline = Date().addingTimeInterval(10)
        while !run.stderr.contains("interrupted: stopping before anything is sent") && run.process.isRunning
            && Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(run.stderr.contains("interrupted: stopping before anything is sent"), "\(run.stderr)")
        if times == 2 {
            kill(run.pid, signalNumber)
        } else {
            send(ids.map { "\($0),hi\n" }.joined())
            closeWriter()
        }

        #expect(run.wait(timeout: 20))
        #expect(run.exitedWith == 130, "\(run.process.terminationReason) \(run.stderr)")
        if times == 2 {
            #expect(run.stderr.contains("contacts: stopped at once; nothing was sent"), "\(run.stderr)")
        } else {
            #expect(run.stdout.contains("interrupted before anything was sent; nothing queued"), "\(run.stdout)")
        }
        #expect(delivery.calls(in: dir).isEmpty, "nothing was sent")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        #expect(left.isEmpty, "an outbox was left: \(left)")
    }
}
