import Foundation
import TestSupport
import Testing

@Suite struct BouncesCLITests {
    @Test func bouncesReadFillsTheSuppressionList() throws {
        let dir = try Scratch.directory("bounces-cli")
        let report = """
            From: MAILER-DAEMON@mx.example.net
            To: bounces+bo=example.org@sender.example
            Subject: Undelivered Mail
            Content-Type: multipart/report; report-type=delivery-status; boundary="b"

            --b
            Content-Type: text/plain

            Sorry.
            --b
            Content-Type: message/delivery-status

            Reporting-MTA: dns; mx.example.net

            Final-Recipient: rfc822; anna@example.org
            Action: failed
            Status: 5.1.1
            Diagnostic-Code: smtp; 550 5.1.1 user unknown

            Action: failed
            Status: 5.2.1

            Final-Recipient: rfc822; cy@example.org
            Action: delayed
            Status: 4.4.1
            --b--

            """
        let mbox = dir.appendingPathComponent("bounces.mbox")
        try Scratch.write("From MAILER-DAEMON Fri Dec  4 20:00:00 2026\n" + report, to: mbox)
        let list = dir.appendingPathComponent("suppressions.txt").path
        let r = try CLI.run([
            "bounces", "read", mbox.path, "--into", list, "--return-path", "bounces@sender.example",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == """
                anna@example.org: bounce 5.1.1 (550 5.1.1 user unknown)
                bo@example.org: bounce 5.2.1
                cy@example.org: soft-bounce 4.4.1
                1 messages read, 2 addresses added to \(list)

                """)
        let lines = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("#"))
        #expect(lines[1].hasPrefix("anna@example.org\tbounce 5.1.1 (550 5.1.1 user unknown)\t20"))
        #expect(lines[2].hasPrefix("bo@example.org\tbounce 5.2.1\t20"))
        // Read again: nothing new, the file as it was.
        let before = try String(contentsOfFile: list, encoding: .utf8)
        let again = try CLI.run([
            "bounces", "read", mbox.path, "--into", list, "--return-path", "bounces@sender.example",
        ])
        #expect(again.stdout.hasSuffix("1 messages read, 0 addresses added to \(list)\n"))
        #expect(try String(contentsOfFile: list, encoding: .utf8) == before)
        #expect(try CLI.run(["bounces", "read", dir.appendingPathComponent("none").path]).status == 1)
    }
}
