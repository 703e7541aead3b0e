import Foundation
import TestSupport
import Testing

@testable import Composer

@Suite struct BounceTests {
    /// A delivery status notification as an MTA writes one: a human part, the report, the returned headers.
    static func report(
        to: String = "bounces@sender.example", groups: [String], lineEnd: String = "\r\n"
    ) -> [UInt8] {
        let text = """
            Return-Path: <>
            Delivered-To: \(to)
            From: Mail Delivery System <MAILER-DAEMON@mx.example.net>
            To: \(to)
            Subject: Undelivered Mail Returned to Sender
            MIME-Version: 1.0
            Content-Type: multipart/report; report-type=delivery-status;
            \tboundary="B0UND"

            This is a MIME-encapsulated message.

            --B0UND
            Content-Type: text/plain; charset=us-ascii

            I'm sorry to have to inform you that your message could not be delivered.

            --B0UND
            Content-Type: message/delivery-status

            Reporting-MTA: dns; mx.example.net
            Arrival-Date: Fri,  4 Dec 2026 20:00:00 +0000

            \(groups.joined(separator: "\n\n"))

            --B0UND
            Content-Type: text/rfc822-headers

            From: Sales <sales@sender.example>
            Subject: Hello

            --B0UND--

            """
        return Array(text.replacingOccurrences(of: "\n", with: lineEnd).utf8)
    }

    @Test func hardAndSoftBouncesFromADeliveryReport() throws {
        let message = Self.report(groups: [
            """
            Final-Recipient: rfc822; anna@example.org
            Original-Recipient: rfc822;anna@example.org
            Action: failed
            Status: 5.1.1
            Diagnostic-Code: smtp; 550 5.1.1 <anna@example.org>: Recipient address
             rejected: User unknown
            """,
            """
            Final-Recipient: rfc822; <bo@example.org>
            Action: delayed
            Status: 4.4.1
            """,
            """
            Final-Recipient: rfc822; cy@example.org
            Action: failed
            Status: 4.2.2 (mailbox full)
            """,
            """
            Final-Recipient: rfc822; dee@example.org
            Action: delivered
            Status: 2.0.0
            """,
        ])
        for lineEnd in ["\r\n", "\n"] {
            let bytes = lineEnd == "\n" ? message.filter { $0 != 13 } : message
            let notices = BounceReader().notices(in: bytes)
            #expect(notices.map(\.address) == ["anna@example.org", "bo@example.org", "cy@example.org"])
            #expect(notices.map(\.kind) == [.hardBounce, .softBounce, .softBounce])
            #expect(notices.map(\.status) == ["5.1.1", "4.4.1", "4.2.2"])
            try #require(notices.count == 3)
            #expect(notices[0].detail == "550 5.1.1 <anna@example.org>: Recipient address rejected: User unknown")
            #expect(notices.map(\.suppresses) == [true, false, false])
        }
    }

    @Test func aReportWithoutFinalRecipientNamesItThroughVERP() throws {
        let envelope = try VERP.envelopeSender(for: "anna@example.org", returnPath: "bounces@sender.example")
        #expect(envelope == "bounces+anna=example.org@sender.example")
        let message = Self.report(to: envelope, groups: ["Action: failed\nStatus: 5.7.1"])
        let notices = BounceReader(returnPath: "bounces@sender.example").notices(in: message)
        #expect(notices == [BounceNotice(address: "anna@example.org", kind: .hardBounce, status: "5.7.1")])
        // Without the return path the report names nobody.
        #expect(BounceReader().notices(in: message).isEmpty)
    }

    @Test func verpRoundTripsAndRefusesWhatItCannotEncode() throws {
        for recipient in ["anna@example.org", "a.b+tag@mail.example.com", "x=y@example.org"] {
            let sender = try VERP.envelopeSender(for: recipient, returnPath: "Bounces@Sender.example")
            #expect(VERP.recipient(in: sender, returnPath: "bounces@sender.example") == recipient)
        }
        #expect(VERP.recipient(in: "bounces@sender.example", returnPath: "bounces@sender.example") == nil)
        #expect(VERP.recipient(in: "bounces+a=b@other.example", returnPath: "bounces@sender.example") == nil)
        #expect(VERP.recipient(in: "other+a=b@sender.example", returnPath: "bounces@sender.example") == nil)
        #expect(throws: ComposerError.self) { try VERP.envelopeSender(for: "nobody", returnPath: "b@s.example") }
        let long = String(repeating: "a", count: 60) + "@example.org"
        #expect(throws: ComposerError.self) { try VERP.envelopeSender(for: long, returnPath: "b@s.example") }
    }

    @Test func unsubscribeRequestsByMail() {
        func request(to: String, from: String = "Anna <anna@example.org>", subject: String = "unsubscribe")
            -> [UInt8]
        {
            Array("From: \(from)\r\nTo: \(to)\r\nSubject: \(subject)\r\n\r\nPlease remove me.\r\n".utf8)
        }
        let reader = BounceReader(
            unsubscribeAddress: "unsubscribe@sender.example", tokens: ["tok-3f9a": "bo@example.org"])
        #expect(
            reader.notices(in: request(to: "unsubscribe@sender.example")).map(\.address) == ["anna@example.org"])
        #expect(
            reader.notices(in: request(to: "<unsubscribe+cy=example.org@Sender.example>")).map(\.address) == [
                "cy@example.org"
            ])
        let byToken = reader.notices(in: request(to: "unsubscribe@sender.example", subject: "unsubscribe tok-3f9a"))
        #expect(
            byToken == [BounceNotice(address: "bo@example.org", kind: .unsubscribe, detail: "token in the request")])
        #expect(reader.notices(in: request(to: "sales@sender.example")).isEmpty)
        #expect(BounceReader().notices(in: request(to: "unsubscribe@sender.example")).isEmpty)
    }

    @Test func suppressionListKeepsWhatWasWrittenAndAppends() throws {
        let text = """
            # our list
            Carol@Example.org
            dee@example.org\tunsubscribe\t2026-12-01T10:00:00Z
            not-an-address
            eve@example.org\tbounce 5.1.1\tyesterday
            """
        var list = SuppressionList(text: text, file: "s.txt")
        #expect(
            list.contains("carol@example.org") && list.contains("DEE@example.org") && list.contains("eve@example.org"))
        #expect(list.entry(for: "carol@example.org")?.reason == "manual")
        #expect(list.entry(for: "dee@example.org")?.date == Date(timeIntervalSince1970: 1_796_119_200))
        #expect(list.diagnostics.count == 2)
        #expect(list.diagnostics[0].hasPrefix("s.txt:4: 'not-an-address'"))
        let date = Date(timeIntervalSince1970: 1_796_414_400)
        let added = [
            list.add(
                BounceNotice(
                    address: "anna@example.org", kind: .hardBounce, status: "5.1.1", detail: "550\tuser\nunknown"),
                date: date),
            list.add(BounceNotice(address: "carol@example.org", kind: .unsubscribe), date: date),
            list.add(BounceNotice(address: "bo@example.org", kind: .softBounce, status: "4.4.1"), date: date),
        ]
        #expect(added == [true, false, false])
        #expect(list.text == text + "\nanna@example.org\tbounce 5.1.1 (550 user unknown)\t2026-12-04T20:00:00Z\n")
        let dir = try Scratch.directory("suppressions")
        let path = dir.appendingPathComponent("suppressions.txt").path
        try list.write(to: path)
        let again = try SuppressionList(contentsOf: path)
        #expect(
            again.entries.map(\.address) == [
                "Carol@Example.org", "dee@example.org", "eve@example.org", "anna@example.org",
            ])
        #expect(again.entry(for: "anna@example.org")?.date == date)
        // A new file starts with the header line; a missing one is an empty list.
        let empty = try SuppressionList(contentsOf: dir.appendingPathComponent("none.txt").path)
        #expect(empty.entries.isEmpty && empty.text == SuppressionList.header)
    }

    @Test func foldersOfBouncesFillTheList() throws {
        let dir = try Scratch.directory("bounce-folders")
        let hard = Self.report(groups: ["Final-Recipient: rfc822; anna@example.org\nAction: failed\nStatus: 5.1.1"])
        let soft = Self.report(groups: ["Final-Recipient: rfc822; bo@example.org\nAction: delayed\nStatus: 4.4.1"])
        let unsubscribe = Array(
            "From: cy@example.org\nTo: unsubscribe@sender.example\nSubject: unsubscribe\n\n>From here on, no more\n"
                .utf8)
        let maildir = dir.appendingPathComponent("Maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Data(hard).write(to: maildir.appendingPathComponent("new/1.host"))
        try Data(soft).write(to: maildir.appendingPathComponent("cur/2.host:2,S"))
        try Data(unsubscribe).write(to: maildir.appendingPathComponent("cur/3.host:2,S"))
        try Data("partial".utf8).write(to: maildir.appendingPathComponent("tmp/4.host"))
        let mbox = dir.appendingPathComponent("bounces.mbox")
        var mboxBytes: [UInt8] = []
        for message in [hard, soft, unsubscribe] {
            mboxBytes += Array("From MAILER-DAEMON Fri Dec  4 20:00:00 2026\n".utf8)
            let quoted = String(decoding: message.filter { $0 != 13 }, as: UTF8.self)
                .replacingOccurrences(of: "\n>From ", with: "\n>>From ")
            mboxBytes += Array(quoted.utf8) + [10]
        }
        try Data(mboxBytes).write(to: mbox)
        #expect(MailFolder.unquoted(Array(">>From a\n>x\n".utf8)[...]) == Array(">From a\n>x\n".utf8))
        let reader = BounceReader(unsubscribeAddress: "unsubscribe@sender.example")
        for path in [maildir.path, mbox.path] {
            var list = SuppressionList()
            let folder = try MailFolder(path: path)
            let summary = try list.read(folder, with: reader)
            #expect(summary.messages == 3, "\(path)")
            #expect(summary.notices.map(\.address) == ["anna@example.org", "bo@example.org", "cy@example.org"])
            #expect(summary.added.map(\.address) == ["anna@example.org", "cy@example.org"])
            #expect(list.contains("anna@example.org") && !list.contains("bo@example.org"))
        }
        #expect(throws: ComposerError.self) { try MailFolder(path: dir.path) }
    }
}
