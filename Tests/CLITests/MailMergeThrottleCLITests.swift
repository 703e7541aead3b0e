import Foundation
import TestSupport
import Testing

/// Pacing as a provider expects: `--daily-cap` stops cleanly and a later day's run sends the rest from
/// the same outbox, once; `--provider` refuses a message over its per-message recipients; `--jitter`.
@Suite("compose: daily cap, provider limits, jitter", .serialized)
struct MailMergeThrottleCLITests {
    typealias Sheet = MailMergeSheetCLITests

    @Test("--daily-cap: the run stops at the cap; the next day's run sends the rest from the outbox, once")
    func dailyCapResumesNextDay() throws {
        let (dir, templates) = try Sheet.setup("cap")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "email,table\na@example.org,1\nb@example.org,2\nc@example.org,3\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Sheet.mailServer(in: dir)
        defer { server.stop() }
        let r = try CLI.run(
            [
                "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
                "--from", "ada@example.org", "--smtp", url, "--locale", "en", "--daily-cap", "2", "--jitter", "0.1s",
                "--send",
            ], currentDirectory: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("held by the daily cap 1"), "\(r.stdout)")
        #expect(r.stdout.contains("daily cap reached: 1 message(s) wait in the outbox"))
        #expect(r.stdout.contains("--daily-cap 2"))
        #expect(try Sheet.received(mailbox).count == 2)
        let outbox = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("outbox-") })
        let resume = ["outbox", "send", outbox, "--smtp", url, "--daily-cap", "2"]
        // The same day: nothing more.
        let same = try CLI.run(resume, currentDirectory: dir)
        #expect(same.status == 1 && same.stdout.contains("held by the daily cap 1"), "\(same.stdout)\(same.stderr)")
        #expect(try Sheet.received(mailbox).count == 2)
        // A day later (the journal's sends 25 hours old): the rest, once.
        let journal = dir.appendingPathComponent(outbox + "/journal.jsonl")
        var lines: [String] = []
        for line in try String(contentsOf: journal, encoding: .utf8).split(separator: "\n") {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let at = object["at"] as? Double { object["at"] = at - 25 * 3600 }
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: journal, atomically: true, encoding: .utf8)
        let next = try CLI.run(resume, currentDirectory: dir)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let got = try Sheet.received(mailbox)
        #expect(got.map(\.envelope[0]).sorted() == ["a@example.org", "b@example.org", "c@example.org"])
        _ = try Sheet.summaries(got.map(\.eml))
        let bad = try CLI.run(resume.dropLast() + ["none"], currentDirectory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--daily-cap: expected a whole number above 0"))
        let jitter = try CLI.run(resume + ["--jitter", "soon"], currentDirectory: dir)
        #expect(jitter.status == 2 && jitter.stderr.contains("--jitter"))
    }

    @Test("--provider gmail: a message over 100 recipients is refused by name; the others are sent")
    func providerPerMessageLimit() throws {
        let (dir, templates) = try Sheet.setup("provider")
        defer { try? FileManager.default.removeItem(at: dir) }
        let many = (1...100).map { "c\($0)@example.org" }.joined(separator: ";")
        try "email,name,cc,table\na@example.org,Ann,\"\(many)\",1\nb@example.org,Bo,,2\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Sheet.mailServer(in: dir)
        defer { server.stop() }
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "ada@example.org", "--smtp", url, "--locale", "en", "--send", "--provider",
        ]
        let r = try CLI.run(args + ["gmail"], currentDirectory: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("Ann (a@example.org): 101 recipients (To, Cc, Bcc), more than the provider's 100"))
        #expect(try Sheet.received(mailbox).map(\.envelope) == [["b@example.org"]])
        let bad = try CLI.run(args + ["aol"], currentDirectory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("expected one of gmail, workspace, m365"))
    }
}
