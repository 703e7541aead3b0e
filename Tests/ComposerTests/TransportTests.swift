import Foundation
import TestSupport
import Testing

@testable import Composer

private let draft = MailDraft(
    from: try! MailAddress(name: "Anna", address: "anna@example.com"),
    to: [try! MailAddress(name: "Jürgen Müller, Esq.", address: "jm@example.org")],
    bcc: [try! MailAddress(address: "hidden@example.net")],
    subject: "Grüße", textBody: "Hallo Jürgen!\n")

@Suite("File, sendmail and URI transports")
struct TransportTests {
    @Test func fileTransportWritesUniqueCompleteFiles() throws {
        let dir = try Env.tempDirectory("files")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = FileTransport(directory: dir)
        #expect(files.canSendMail)
        let a = try files.save(draft, name: "0001 Jürgen")
        let b = try files.save(draft, name: "0001 Jürgen")
        #expect(a.lastPathComponent == "0001-jürgen.eml" && b.lastPathComponent == "0001-jürgen-2.eml")
        #expect(try files.send(draft) == .saved)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names.count == 3 && names.allSatisfy { $0.hasSuffix(".eml") })  // no temporary files left
        let bytes = try Array(Data(contentsOf: a))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Bcc: hidden@example.net\r\n"))
        try checkEML([("saved draft", bytes)])

        #expect(try files.send(MessageDraft(recipients: ["+15555550123"], body: "Hi 👋")) == .saved)
        #expect(try files.send(MessageDraft(recipients: ["+15555550124"], body: "Zweite")) == .saved)
        let sms = try String(contentsOf: dir.appendingPathComponent("messages.sms.txt"), encoding: .utf8)
        #expect(sms == "sms:+15555550123?body=Hi%20%F0%9F%91%8B\nsms:+15555550124?body=Zweite\n")
        #expect(throws: ComposerError.invalidPhoneNumber("0123")) {
            try files.send(MessageDraft(recipients: ["0123"], body: "x"))
        }
        #expect(!FileTransport(directory: URL(fileURLWithPath: "/proc/no-such-dir")).canSendMail)
    }

    @Test func sendmailPipe() throws {
        let dir = try Env.tempDirectory("sendmail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("sendmail")
        try """
        #!/bin/sh
        printf '%s\\n' "$@" > "\(dir.path)/args"
        cat > "\(dir.path)/stdin"
        exit ${FAKE_STATUS:-0}
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let mta = SendmailTransport(path: script.path)
        #expect(mta.canSendMail)
        #expect(try mta.send(draft) == .sent)
        #expect(try String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8) == "-t\n-i\n")
        let piped = try Data(contentsOf: dir.appendingPathComponent("stdin"))
        #expect(!piped.contains(13) && String(decoding: piped, as: UTF8.self).contains("Bcc: hidden@example.net\n"))

        try mta.deliver(try MIMEWriter().write(draft), from: "anna@example.com", to: ["jm@example.org"], onCommit: {})
        #expect(
            try String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8)
                == "-i\n-f\nanna@example.com\n--\njm@example.org\n")

        let failing = dir.appendingPathComponent("failing")
        try "#!/bin/sh\ncat >/dev/null\necho 'queue full' >&2\nexit 75\n".write(
            to: failing, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
        #expect(
            try SendmailTransport(path: failing.path).send(draft)
                == .failed(.sendmail(status: 75, message: "queue full")))
        #expect(throws: ComposerError.self) {
            try SendmailTransport(path: dir.appendingPathComponent("none").path).send(draft)
        }
    }

    @Test func uriTransportPrints() throws {
        final class Box: @unchecked Sendable { var lines: [String] = [] }
        let box = Box()
        let t = URITransport(mode: .print { box.lines.append($0) })
        #expect(try t.send(draft) == .saved)
        #expect(try t.send(MessageDraft(recipients: ["+15555550123"], body: "Hi")) == .saved)
        #expect(
            box.lines == [
                "mailto:jm@example.org?bcc=hidden@example.net&subject=Gr%C3%BC%C3%9Fe&body=Hallo%20J%C3%BCrgen%21%0D%0A",
                "sms:+15555550123?body=Hi",
            ])
        let missing = URITransport(mode: .open(opener: "/nonexistent/xdg-open"))
        #expect(!missing.canSendMail)
        #expect(throws: ComposerError.self) { try missing.send(draft) }
    }

    /// The opener gets the URI as its one argument; its exit status decides.
    @Test func uriTransportOpens() throws {
        let dir = Scratch.path("opener")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let seen = dir.appendingPathComponent("seen")
        let opener = dir.appendingPathComponent("open")
        try Scratch.write("#!/bin/sh\nprintf '%s' \"$1\" > '\(seen.path)'\n", to: opener)
        chmod(opener.path, 0o755)
        #expect(try URITransport(mode: .open(opener: opener.path)).send(draft) == .saved)
        #expect(try String(contentsOf: seen, encoding: .utf8).hasPrefix("mailto:jm@example.org?"))
        let failing = dir.appendingPathComponent("fail")
        try Scratch.write("#!/bin/sh\nexit 4\n", to: failing)
        chmod(failing.path, 0o755)
        #expect(
            try URITransport(mode: .open(opener: failing.path)).send(draft)
                == .failed(.mailUnavailable(reason: "\(failing.path) exited with 4")))
    }

    @Test func addressValidation() throws {
        for good in [
            "a@example.com", "first.last+tag@sub.example.org", "\"john smith\"@example.com", "user@[192.0.2.1]",
            "user@[IPv6:2001:db8::1]", "o'neil@example.com", "x@xn--bcher-kva.example",
        ] {
            #expect((try? MailAddress(address: good)) != nil, "\(good)")
        }
        for bad in [
            "", "plain", "@example.com", "a@", "a..b@example.com", ".a@example.com", "a.@example.com",
            "a b@example.com", "a@exa mple.com", "a@-example.com", "a@example..com", "ü@example.com",
            "a@[300.1.1.1]", String(repeating: "a", count: 65) + "@example.com", "a@example.com\n",
        ] {
            #expect(throws: ComposerError.self, "\(bad)") { try MailAddress(address: bad) }
        }
        #expect(try MailAddress(address: "info@Bücher.example").asciiAddress == "info@xn--bcher-kva.example")
        #expect(try MailAddress(address: "x@例え.テスト").asciiAddress == "x@xn--r8jz45g.xn--zckzah")
        #expect(try MailAddress(address: "x@münchen.de").asciiAddress == "x@xn--mnchen-3ya.de")
        let parsed = try MailAddress(parsing: "\"Doe, Jane\" <jane@example.com>")
        #expect(parsed.name == "Doe, Jane" && parsed.address == "jane@example.com")
        // One mailbox only: a second one is an error naming where it starts, never a display name.
        for (two, column) in [
            ("a@example.org, B <b@example.org>", 14), ("Ann <a@example.org>, Bob <b@example.org>", 20),
            ("a@example.org;b@example.org", 14), ("Ann <a@example.org> <b@example.org>", 21),
        ] {
            let error = #expect(throws: ComposerError.self, "\(two)") { try MailAddress(parsing: two) }
            guard case .invalidAddress(_, let reason)? = error else {
                Issue.record("\(two): \(String(describing: error))")
                continue
            }
            #expect(reason.hasPrefix("expected one address; column \(column) starts another"), "\(two): \(reason)")
        }
        #expect(try MailAddress(parsing: "\"Doe; \\\"J\\\", Jane\" <jane@example.com>").name == "Doe; \"J\", Jane")
    }
}

/// Which deliveries can carry mail and text messages (the capability behind the documented alerts).
@Suite struct DeliveryCapabilityTests {
    @Test func mailAndTextsCarriedByTarget() throws {
        let dir = URL(fileURLWithPath: "/tmp")
        #expect(Delivery(target: .files(dir)).carriesMail && Delivery(target: .files(dir)).carriesTexts)
        #expect(Delivery(target: .uris).carriesMail && Delivery(target: .uris).carriesTexts)
        for target in [
            DeliveryTarget.maildir(dir), .mbox(dir), .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:1")),
        ] {
            #expect(Delivery(target: target).carriesMail)
            #expect(!Delivery(target: target).carriesTexts)
        }
        #expect(Delivery(target: .sendmail(SendmailTransport(path: "/bin/true"))).carriesMail)
        #expect(!Delivery(target: .sendmail(SendmailTransport(path: "/nonexistent/sendmail"))).carriesMail)
        // An SMS program carries the texts when it can be run, whatever carries the mail.
        let smtp = try SMTPConfiguration(url: "smtp://127.0.0.1:1")
        #expect(Delivery(target: .smtp(smtp), textTransport: SMSProgramTransport(path: "/bin/true")).carriesTexts)
        #expect(
            !Delivery(target: .uris, textTransport: SMSProgramTransport(path: "/nonexistent/sms")).carriesTexts)
    }
}
