import Foundation
import Testing

@testable import Composer

/// Maildir and mbox stores, read back by Python's `mailbox` (the venv's python) and checked as .eml.
@Suite("Mail stores: Maildir and mbox", .serialized)
struct MailStoreTests {
    /// Bodies that an mbox must quote: "From " at a line start, already quoted ">From ", and no final LF.
    static let bodies = [
        "Hallo Zoë,\nFrom here on we meet on Mondays.\n>From the minutes: agreed.\n",
        "From the start\n\n>>From deep quoting\nend without newline",
        "Plain.\n",
    ]

    func drafts() throws -> [MailDraft] {
        try Self.bodies.enumerated().map { n, body in
            MailDraft(
                from: try MailAddress(name: "Anna", address: "anna@example.com"),
                to: [try MailAddress(address: "c\(n)@example.org")],
                bcc: [try MailAddress(address: "archive@example.com")], subject: "Nr. \(n) – Grüße",
                textBody: body)
        }
    }

    /// Runs a Python snippet with the venv's python; its stdout as JSON.
    func python(_ script: String, _ args: [String]) throws -> Any {
        let r = try Env.run(Env.python, ["-c", script] + args)
        #expect(r.status == 0, "\(r.err)")
        return try JSONSerialization.jsonObject(with: Data(r.out.utf8))
    }

    static let reader = """
        import json, mailbox, sys, email.policy
        kind, path = sys.argv[1], sys.argv[2]
        box = mailbox.Maildir(path, create=False) if kind == 'maildir' else mailbox.mbox(path, create=False)
        out = []
        for key in sorted(box.keys(), key=lambda k: str(k)):
            raw = box.get_bytes(key)
            m = box.get_message(key)
            body = m.get_payload(decode=True).decode('utf-8')
            if kind == 'mbox':  # mboxrd: one '>' comes off each quoted From line
                import re
                body = re.sub(r'(?m)^>(>*From )', r'\\1', body)
            out.append({'to': m['To'], 'bcc': m['Bcc'], 'from_line': m.get_from() if kind == 'mbox' else None,
                        'body': body.replace('\\r\\n', '\\n'), 'subdir': m.get_subdir() if kind == 'maildir' else None})
        print(json.dumps(out))
        """

    @Test("Maildir: each message in new/ under a unique name, nothing left in tmp/, readable by Python")
    func maildir() throws {
        guard requireVenv() else { return }
        let dir = try Env.tempDirectory("maildir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = MaildirTransport(directory: dir.appendingPathComponent("Campaign"))
        #expect(store.canSendMail)
        var files: [URL] = []
        for draft in try drafts() { files.append(try store.save(draft)) }
        #expect(Set(files.map(\.lastPathComponent)).count == 3)
        #expect(files.allSatisfy { $0.deletingLastPathComponent().lastPathComponent == "new" })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Campaign/tmp").path).isEmpty
        )
        let names = (0..<1000).map { _ in MaildirTransport.uniqueName() }
        #expect(Set(names).count == 1000 && names.allSatisfy { !$0.contains("/") && !$0.contains(":") })
        let read =
            try python(Self.reader, ["maildir", dir.appendingPathComponent("Campaign").path]) as? [[String: Any]]
        #expect(read?.count == 3)
        #expect(Set(read?.compactMap { $0["body"] as? String } ?? []) == Set(Self.bodies))
        #expect(
            read?.allSatisfy { $0["subdir"] as? String == "new" && $0["bcc"] as? String == "archive@example.com" }
                == true)
        // Stored in the local form (LF), as mutt and Dovecot write; with CRLF again each is a valid message.
        let stored = try files.map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(stored.allSatisfy { !$0.contains("\r") && $0.contains("\nSubject: ") })
        try checkEML(
            zip(files, stored).map {
                ($0.lastPathComponent, Array($1.replacingOccurrences(of: "\n", with: "\r\n").utf8))
            })
    }

    @Test("mbox: From lines, >From quoting (mboxrd), appended to what is there, readable by Python")
    func mbox() throws {
        guard requireVenv() else { return }
        let dir = try Env.tempDirectory("mbox")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("campaign.mbox")
        // An existing mbox whose last message lacks the final empty line.
        try Data("From someone@example.net Thu Jan  1 00:00:00 2026\nSubject: old\n\nkept".utf8).write(to: file)
        let mbox = MboxTransport(file: file)
        let date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        for draft in try drafts() { try mbox.save(draft, date: date) }
        let raw = try String(contentsOf: file, encoding: .utf8)
        #expect(
            raw.hasPrefix(
                "From someone@example.net Thu Jan  1 00:00:00 2026\nSubject: old\n\nkept\n\nFrom anna@example.com Thu Jan  1 00:00:00 2026\n"
            ))
        #expect(!raw.contains("\r"))
        #expect(
            raw.contains("\n>From here on") && raw.contains("\n>>From the minutes") && raw.contains("\n>>>From deep"))
        let read = try python(Self.reader, ["mbox", file.path]) as? [[String: Any]]
        #expect(read?.count == 4)
        let bodies = read?.dropFirst().compactMap { $0["body"] as? String } ?? []
        #expect(bodies == Self.bodies.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" })
        #expect(read?.dropFirst().first?["from_line"] as? String == "anna@example.com Thu Jan  1 00:00:00 2026")
        // Each entry, From line taken off, is a valid message.
        let entries = raw.components(separatedBy: "\n\nFrom ").dropFirst().map { entry in
            let message = entry[entry.index(after: entry.firstIndex(of: "\n")!)...]
            return Array(message.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        }
        #expect(entries.count == 3)
        try checkEML(entries.enumerated().map { ("mbox \($0.offset)", $0.element) })
    }

    @Test("mbox: a writer holding the fcntl lock keeps the append waiting until it lets go")
    func mboxLock() throws {
        guard requireVenv() else { return }
        let dir = try Env.tempDirectory("mbox-lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("locked.mbox")
        try Data().write(to: file)
        let holder = Process()
        holder.executableURL = Env.python
        let release = dir.appendingPathComponent("release")
        holder.arguments = [
            "-c",
            """
            import fcntl, os, sys, time
            f = open(sys.argv[1], 'a'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True)
            while not os.path.exists(sys.argv[2]): time.sleep(0.01)
            f.write('From held@example.net Thu Jan  1 00:00:00 2026\\nSubject: held\\n\\nfirst\\n\\n'); f.flush()
            """, file.path, release.path,
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        #expect(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))
        let appended = DispatchSemaphore(value: 0)
        let draft = try drafts()[2]
        DispatchQueue.global().async {
            try? MboxTransport(file: file).save(draft)
            appended.signal()
        }
        #expect(appended.wait(timeout: .now() + 0.3) == .timedOut)
        try Data().write(to: release)
        holder.waitUntilExit()
        appended.wait()
        let raw = try String(contentsOf: file, encoding: .utf8)
        #expect(raw.hasPrefix("From held@example.net") && raw.contains("\n\nFrom anna@example.com "))
    }
}
