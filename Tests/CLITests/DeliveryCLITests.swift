import Foundation
import Synchronization
import TestSupport
import Testing

/// compose/outbox delivery from the command line: outbox folders, options, files written into --out.
@Suite struct DeliveryCLITests {
    struct Listing: Decodable {
        struct Section: Decodable {
            struct Item: Decodable {
                var id: String
                var name: String?
                var value: String
            }
            var items: [Item]
        }
        var sections: [Section]
    }

    func tempDir() throws -> URL { try Scratch.directory("delivery") }

    /// Ids of the first `count` contacts of the sample address book with a value for `mode`.
    func sampleIDs(_ count: Int, mode: String) throws -> [String] {
        let listing = try CLI.run(["list", "--mode", mode, "--json", "--locale", "en"])
        let items = try JSONDecoder().decode(Listing.self, from: listing.stdoutData).sections.flatMap(\.items)
        return Array(items.prefix(count).map(\.id))
    }

    /// A template library with one template `note` (subject, text body, text message).
    func templates(in dir: URL) throws -> URL {
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        for (file, text) in [
            ("subject.mustache", "Hello {{recipient.name}}"), ("body.txt.mustache", "See you.\n"),
            ("message.txt.mustache", "See you, {{recipient.name}}."),
        ] {
            try text.write(to: note.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return dir.appendingPathComponent("templates")
    }

    /// A sendmail stand-in that appends one line per call to `calls`.
    func fakeSendmail(in dir: URL) throws -> URL {
        let script = dir.appendingPathComponent("sendmail")
        try "#!/bin/sh\necho \"$*\" >> \"\(dir.path)/calls\"\ncat > /dev/null\n".write(
            to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    func calls(in dir: URL) -> [String] {
        ((try? String(contentsOf: dir.appendingPathComponent("calls"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    @Test("compose --send never resumes an outbox of the same second: it makes a new folder")
    func sendMakesANewOutboxEveryTime() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try templates(in: dir)
        let script = try fakeSendmail(in: dir)
        let ids = try sampleIDs(2, mode: "email")
        // Outboxes of another campaign occupy the names of this second and the next few.
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMdd-HHmmss"
        let now = Date()
        let journal =
            #"{"at":1,"e":"queued","from":"x@example.org","id":"000001","to":["y@example.org"]}"# + "\n"
            + #"{"at":2,"e":"sent","id":"000001"}"# + "\n"
        var foreign: [URL] = []
        for s in 0..<10 {
            let other = dir.appendingPathComponent("outbox-" + format.string(from: now.addingTimeInterval(Double(s))))
            try FileManager.default.createDirectory(
                at: other.appendingPathComponent("messages"), withIntermediateDirectories: true)
            try journal.write(to: other.appendingPathComponent("journal.jsonl"), atomically: true, encoding: .utf8)
            foreign.append(other)
        }
        let args = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
            ids.joined(separator: ","),
            "--from", "ada@example.org", "--sendmail-program", script.path, "--send",
        ]
        let r = try CLI.run(args, currentDirectory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2 message(s) queued"), "\(r.stdout)")
        #expect(r.stdout.contains("summary: sent 2, failed 0"))
        #expect(calls(in: dir).count == 2)
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("outbox-") && !foreign.map(\.lastPathComponent).contains($0)
        }
        #expect(made.count == 1 && made.first?.hasSuffix("-2") == true, "\(made)")
        for other in foreign {
            #expect(try String(contentsOf: other.appendingPathComponent("journal.jsonl"), encoding: .utf8) == journal)
        }

        // Two runs at once in one folder (a new batch each, on purpose): two outboxes, every message sent once.
        let statuses = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let status = (try? CLI.run(args + ["--new-batch"], currentDirectory: dir))?.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == [0, 0])
        #expect(calls(in: dir).count == 6)
        let all = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("outbox-") }
        #expect(all.count == foreign.count + 3)

        // Resuming is explicit, and only of a folder that exists.
        let missing = try CLI.run(args + ["--resume", dir.appendingPathComponent("nope").path], currentDirectory: dir)
        #expect(missing.status == 2 && missing.stderr.contains("no outbox here"))
    }

    @Test("--from takes one address; --rate takes N/min or N/hour, at least 1/hour")
    func fromAndRateAreChecked() throws {
        let ids = try sampleIDs(1, mode: "email")
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try templates(in: dir)
        let base = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids", ids[0],
            "--uri",
        ]
        for from in [
            "a@example.org, b@example.org", "Ann <a@example.org>, Bob <b@example.org>", "a@example.org;b@example.org",
        ] {
            let r = try CLI.run(base + ["--from", from])
            #expect(
                r.status == 2 && r.stderr.contains("--from: invalid address")
                    && r.stderr.contains("expected one address; column"), "\(from): \(r.stderr)")
        }
        #expect(try CLI.run(base + ["--from", "\"Doe, Ann\" <a@example.org>"]).status == 0)
        for rate in ["0.5/hour", "0.001/min", "0.001", "0/min", "inf", "nan/min", "-3/min", "fast"] {
            let r = try CLI.run(base + ["--from", "a@example.org", "--rate", rate])
            #expect(r.status == 2 && r.stderr.contains("--rate"), "\(rate): \(r.stderr)")
        }
        for rate in ["1/hour", "30/min", "2"] {
            #expect(try CLI.run(base + ["--from", "a@example.org", "--rate", rate]).status == 0, "\(rate)")
        }
        for bad in [["--reply-timeout", "0"], ["--attempts", "0"], ["--backoff", "-1"]] {
            #expect(try CLI.run(base + ["--from", "a@example.org"] + bad).status == 2, "\(bad)")
        }
    }

    @Test("messages.sms.txt that is a symbolic link out of --out is not followed: a new file takes the lines")
    func smsFileSymlinkIsNotFollowed() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try templates(in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let victim = dir.appendingPathComponent("victim.txt")
        try "precious\n".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent("messages.sms.txt"), withDestinationURL: victim)
        let ids = try sampleIDs(2, mode: "messages")
        let r = try CLI.run([
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", library.path, "--ids",
            ids.joined(separator: ","),
            "--mode", "messages", "--out", out.path, "--region", "US",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        let written = out.appendingPathComponent("messages-2.sms.txt")
        #expect(r.stdout.contains("saved \(written.path)"), "\(r.stdout)")
        let lines = try String(contentsOf: written, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("sms:") })
    }

    @Test("a name made of long combining-mark clusters still gives a draft file (name capped in bytes)")
    func longClusterNamesAreSaved() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try templates(in: dir)
        let cluster = { (base: String) in base + String(repeating: "\u{0301}\u{0323}", count: 60) }
        let name = cluster("a") + cluster("b") + " " + cluster("c")
        let vcf = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nUID:long-1\r\nFN:\(name)\r\nN:\(name);;;;\r\nEMAIL:long1@example.org\r\nEND:VCARD\r
            BEGIN:VCARD\r\nVERSION:3.0\r\nUID:long-2\r\nFN:\(name)\r\nN:\(name);;;;\r\nEMAIL:long2@example.org\r\nEND:VCARD\r

            """
        let source = dir.appendingPathComponent("long.vcf")
        try vcf.write(to: source, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run([
            "compose", "--template", "note", "--templates", library.path, "--source", source.path,
            "--ids", "long-1,long-2", "--from", "ada@example.org", "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(files.count == 2 && Set(files).count == 2)
        #expect(files.allSatisfy { $0.utf8.count <= 255 && $0.hasPrefix("000") }, "\(files)")
    }
    @Test("outbox settle: --sent or --resend for uncertain messages only; status says how")
    func settleFromTheCommandLine() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = dir.appendingPathComponent("outbox")
        try FileManager.default.createDirectory(
            at: outbox.appendingPathComponent("messages"), withIntermediateDirectories: true)
        var journal = ""
        for n in 1...3 {
            let eml = "From: a@example.org\r\nTo: c\(n)@example.org\r\nSubject: \(n)\r\n\r\nHi\r\n"
            try eml.write(
                to: outbox.appendingPathComponent("messages/00000\(n).eml"), atomically: true, encoding: .utf8)
            journal +=
                #"{"at":1,"e":"queued","from":"a@example.org","id":"00000\#(n)","to":["c\#(n)@example.org"]}"#
                + "\n"
        }
        for n in 1...2 {
            journal += #"{"at":2,"e":"attempt","id":"00000\#(n)"}"# + "\n" + #"{"at":2,"e":"commit","id":"00000\#(n)"}"#
            journal += "\n"
        }
        try journal.write(to: outbox.appendingPathComponent("journal.jsonl"), atomically: true, encoding: .utf8)
        let status = try CLI.run(["outbox", "status", outbox.path])
        #expect(status.stdout.hasPrefix("queued 1, deferred 0, uncertain 2, sent 0, failed 0"))
        #expect(status.stdout.contains("contacts outbox settle"))

        #expect(try CLI.run(["outbox", "settle", outbox.path, "000001"]).status == 2)
        #expect(try CLI.run(["outbox", "settle", outbox.path, "000001", "--sent", "--resend"]).status == 2)
        let settled = try CLI.run(["outbox", "settle", outbox.path, "000001", "--sent"])
        #expect(settled.status == 0 && settled.stdout == "000001: sent\n", "\(settled.stderr)")
        let resend = try CLI.run(["outbox", "settle", outbox.path, "000002", "000003", "--resend"])
        #expect(resend.status == 1 && resend.stdout == "000002: queued again\n")
        #expect(resend.stderr.contains("000003") && resend.stderr.contains("not uncertain"))
        let after = try CLI.run(["outbox", "status", outbox.path])
        #expect(after.stdout.hasPrefix("queued 2, deferred 0, uncertain 0, sent 1, failed 0"), "\(after.stdout)")
    }
}
