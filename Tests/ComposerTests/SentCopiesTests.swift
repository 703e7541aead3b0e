import Foundation
import TestSupport
import Testing

@testable import Composer

/// Copies of sent mail: a Maildir `Sent` folder and an IMAP mailbox on a real Dovecot started here, each
/// copy saved once by its key, also after a save cut short between the copy and the journal line.
@Suite("Sent copies", .serialized)
struct SentCopiesTests {
    func message(_ n: Int) throws -> [UInt8] {
        let draft = MailDraft(
            from: try MailAddress(name: "Anna Müller", address: "anna@example.com"),
            to: [try MailAddress(address: "c\(n)@example.org")], subject: "Grüße Nr. \(n)", textBody: "Hallo \(n)\n")
        return try MIMEWriter().write(draft, messageID: "<copy-\(n)@example.com>")
    }

    /// The messages in a Maildir's cur/ and new/.
    func stored(_ maildir: URL) throws -> [(name: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        for sub in ["cur", "new"] {
            let dir = maildir.appendingPathComponent(sub)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.sorted() ?? [] {
                found.append(("\(sub)/\(name)", [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))))
            }
        }
        return found
    }

    /// A stored copy with CRLF line ends again (Maildir keeps LF), as check_eml.py reads a message.
    func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            if b == 10 && (i == 0 || bytes[i - 1] != 13) { out.append(13) }
            out.append(b)
        }
        return out
    }

    @Test func maildirCopiesAreSavedOnceAndSeen() throws {
        let dir = try Env.tempDirectory("sent-maildir")
        let sent = MaildirSentFolder(directory: dir.appendingPathComponent("Sent"))
        let copies = SentCopies(journal: dir.appendingPathComponent("sent-copies").path)
        guard case .saved(let place) = try copies.save(try message(1), key: "item-1", to: sent) else {
            Issue.record("expected a first save")
            return
        }
        #expect(place.hasSuffix(":2,S") && place.contains("/Sent/cur/"))
        #expect(try copies.save(try message(1), key: "item-1", to: sent) == .alreadySaved)
        // Killed after the copy and before its journal line: found by Message-ID, not saved again.
        let journal = dir.appendingPathComponent("sent-copies").path
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("saving\titem-2\n".utf8))
        try handle.close()
        _ = try sent.save(try message(2))
        #expect(try copies.save(try message(2), key: "item-2", to: sent) == .alreadySaved)
        // Killed before the copy: saved now, once.
        try Data((try String(contentsOfFile: journal, encoding: .utf8) + "saving\titem-3\n").utf8)
            .write(to: URL(fileURLWithPath: journal))
        #expect(try copies.save(try message(3), key: "item-3", to: sent) != .alreadySaved)
        #expect(try copies.states() == ["item-1": true, "item-2": true, "item-3": true])
        let files = try stored(dir.appendingPathComponent("Sent"))
        #expect(files.count == 3 && files.allSatisfy { $0.name.hasPrefix("cur/") && $0.name.hasSuffix(":2,S") })
        try checkEML(files.map { ($0.name, crlf($0.bytes)) })
        #expect(throws: ComposerError.self) { try copies.save(try message(4), key: "bad\tkey", to: sent) }
    }

    @Test func imapAppendToARealDovecotOnceAcrossAnInterruptedSave() throws {
        let server = try DovecotServer()
        defer { server.stop() }
        let url = "imap://127.0.0.1:\(server.port)/Sent"
        let sent = try IMAPSentFolder(url: url, user: server.user, password: server.password)
        let dir = try Env.tempDirectory("sent-imap")
        let copies = SentCopies(journal: dir.appendingPathComponent("sent-copies").path)
        #expect(try copies.save(try message(1), key: "item-1", to: sent) == .saved(url), "\(server.logText)")
        #expect(try copies.save(try message(1), key: "item-1", to: sent) == .alreadySaved)
        #expect(try sent.contains(messageID: "<copy-1@example.com>"))
        #expect(try !sent.contains(messageID: "<copy-2@example.com>"))
        // Appended, then killed before the journal said so: the server's copy is found by its Message-ID.
        try Data("saving\titem-2\n".utf8).write(to: URL(fileURLWithPath: copies.journal), options: [])
        _ = try sent.save(try message(2))
        #expect(try copies.save(try message(2), key: "item-2", to: sent) == .alreadySaved)
        let files = try stored(server.maildir("Sent"))
        #expect(files.count == 2, "\(server.logText)")
        #expect(files.allSatisfy { $0.name.hasSuffix(",S") || $0.name.hasSuffix(":2,S") })
        try checkEML(files.map { ($0.name, crlf($0.bytes)) })
        let subjects = files.map { String(decoding: $0.bytes, as: UTF8.self) }.filter {
            $0.contains("Message-ID: <copy-")
        }
        #expect(subjects.count == 2)

        // A wrong password is a refused login, and it is nowhere in the error.
        let wrong = try IMAPSentFolder(url: url, user: server.user, password: "not-the-password")
        do {
            _ = try wrong.save(try message(3))
            Issue.record("expected a refused login")
        } catch let error as ComposerError {
            guard case .authenticationFailed = error else {
                Issue.record("expected authenticationFailed, got \(error)")
                return
            }
            #expect(!"\(error)".contains("not-the-password"))
        }
    }

    @Test func imapURLsHoldNoCredentials() throws {
        for url in [
            "imap://ada:secret@mail.example.org/Sent", "imap://ada@mail.example.org/Sent", "imap://mail.example.org/",
            "https://mail.example.org/Sent", "imap:///Sent",
        ] {
            #expect(throws: ComposerError.self, "\(url)") { try IMAPSentFolder(url: url, user: "ada", password: "x") }
        }
        _ = try IMAPSentFolder(url: "imaps://mail.example.org:993/Sent", user: "ada", password: "x")
    }
}
