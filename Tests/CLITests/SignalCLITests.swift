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
                "compose", "--template", "note", "--templates", library.path, "--ids", ids[0], "--from",
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
}
