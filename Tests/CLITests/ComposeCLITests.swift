import Foundation
import TestSupport
import Testing

/// An outbox made by hand the way `Outbox` writes one: three messages, one already sent, one failed with
/// 550, one deferred after a 451.
private func makeOutbox() throws -> URL {
    let dir = Scratch.path("cli-outbox")
    let messages = dir.appendingPathComponent("messages")
    try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
    for n in 1...4 {
        let eml =
            "Date: Mon, 21 Sep 2026 14:13:20 +0000\r\nFrom: anna@example.com\r\nTo: c\(n)@example.com\r\nSubject: Hi \(n)\r\n\r\nHello\r\n"
        try Data(eml.utf8).write(to: messages.appendingPathComponent(String(format: "%06d.eml", n)))
    }
    var journal = ""
    for n in 1...4 {
        journal +=
            #"{"at":1,"e":"queued","from":"anna@example.com","id":"\#(String(format: "%06d", n))","label":"Kontakt \#(n)","to":["c\#(n)@example.com"]}"#
            + "\n"
    }
    journal += #"{"at":2,"e":"attempt","id":"000001"}"# + "\n" + #"{"at":2,"e":"commit","id":"000001"}"# + "\n"
    journal += #"{"at":2,"e":"sent","id":"000001"}"# + "\n"
    journal += #"{"at":3,"e":"attempt","id":"000002"}"# + "\n"
    journal += #"{"at":3,"code":550,"e":"failed","error":"SMTP 550: 550 5.1.1 No such user here","id":"000002"}"# + "\n"
    journal += #"{"at":4,"e":"attempt","id":"000003"}"# + "\n"
    journal += #"{"at":4,"code":451,"e":"deferred","error":"SMTP 451: try later","id":"000003"}"# + "\n"
    try Data(journal.utf8).write(to: dir.appendingPathComponent("journal.jsonl"))
    return dir
}

@Suite("contacts outbox")
struct OutboxCLITests {
    @Test func statusListsEveryMessage() throws {
        let dir = try makeOutbox()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["outbox", "status", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "queued 1, deferred 1, uncertain 0, sent 1, failed 1")
        #expect(
            lines.contains {
                $0.hasPrefix("000002  failed") && $0.contains("550 5.1.1 No such user here")
                    && $0.contains("(Kontakt 2)")
            })
        #expect(lines.contains { $0.hasPrefix("000003  deferred") && $0.contains("c3@example.com") })

        let json = try CLI.run(["outbox", "status", dir.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any]
        #expect((object?["counts"] as? [String: Int])?["failed"] == 1)
        #expect((object?["items"] as? [[String: Any]])?.count == 4)
    }

    @Test func sendResumesWithSendmailAndSkipsWhatIsDone() throws {
        let dir = try makeOutbox()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("fake-sendmail")
        try
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s ' \"$a\"; done >> \"\(dir.path)/calls\"\necho >> \"\(dir.path)/calls\"\ncat > /dev/null\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let r = try CLI.run(["outbox", "send", dir.path, "--sendmail-program", script.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("summary: sent 2, failed 0, skipped 2"))
        let calls = try String(contentsOf: dir.appendingPathComponent("calls"), encoding: .utf8)
        #expect(calls == "-i -f anna@example.com -- c3@example.com \n-i -f anna@example.com -- c4@example.com \n")
        let again = try CLI.run(["outbox", "send", dir.path, "--sendmail-program", script.path])
        #expect(again.stdout.contains("summary: sent 0, failed 0, skipped 4"))
        let status = try CLI.run(["outbox", "status", dir.path])
        #expect(status.stdout.hasPrefix("queued 0, deferred 0, uncertain 0, sent 3, failed 1"))
    }

    @Test func usageErrors() throws {
        #expect(try CLI.run(["outbox", "status"]).status == 2)
        let missing = try CLI.run(["outbox", "status", "/nonexistent/outbox"])
        #expect(missing.status == 2 && missing.stderr.contains("no outbox here"))
        let dir = try makeOutbox()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["outbox", "send", dir.path]).status == 2)
        let bad = try CLI.run(["outbox", "send", dir.path, "--smtp", "http://example.com"])
        #expect(bad.status == 2 && bad.stderr.contains("smtp://"))
        #expect(try CLI.run(["outbox", "send", dir.path, "--smtp", "smtp://127.0.0.1:1", "--sendmail"]).status == 2)
        #expect(
            try CLI.run(["outbox", "send", dir.path, "--smtp", "smtp://127.0.0.1:1", "--rate", "fast"]).status == 2)
        #expect(
            try CLI.run([
                "outbox", "send", dir.path, "--smtp", "smtp://127.0.0.1:1", "--user", "u", "--password-file",
                "/dev/null",
                "--password-command", "true",
            ]).status == 2)
    }
}
