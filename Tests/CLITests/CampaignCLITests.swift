import Foundation
import TestSupport
import Testing

@Suite struct CampaignCLITests {
    struct Listing: Decodable {
        struct Section: Decodable {
            struct Item: Decodable {
                var id: String
                var name: String
                var value: String
            }
            var items: [Item]
        }
        var sections: [Section]
    }

    func tempDir() throws -> URL {
        let url = Scratch.path("compose")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func composeJoinsRecipientDataAndWritesOneDraftEach() throws {
        let listing = try CLI.run(["list", "--mode", "email", "--json", "--locale", "en"])
        let items = try JSONDecoder().decode(Listing.self, from: listing.stdoutData).sections.flatMap(\.items)
        let picked = Array(items.prefix(2))
        #expect(picked.count == 2)
        let dir = try tempDir()
        let templates = dir.appendingPathComponent("templates/seat")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "Table {{table}}, {{recipient.name}}".write(
            to: templates.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "See you at {{venue}}.\n".write(
            to: templates.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        // A spreadsheet export: BOM, semicolons, CRLF; the second row joins by email.
        let csv = "\u{FEFF}id;email;table\r\n\(picked[0].id);;4\r\n;\(picked[1].value.uppercased());9\r\n"
        try csv.write(to: dir.appendingPathComponent("guests.csv"), atomically: true, encoding: .utf8)
        try #"{"venue": "Café Ümlaut"}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run([
            "compose", "--template", "seat", "--templates", dir.appendingPathComponent("templates").path,
            "--ids", picked.map(\.id).joined(separator: ","), "--mode", "email",
            "--data", dir.appendingPathComponent("data.json").path,
            "--recipients", dir.appendingPathComponent("guests.csv").path,
            "--from", "Ada Lovelace <ada@example.org>", "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(files.count == 2)
        let texts = try files.map { try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8) }
        #expect(
            texts.contains { $0.contains("Subject: Table 4, \(picked[0].name)") || $0.contains("Subject: =?UTF-8?") })
        #expect(texts.allSatisfy { $0.contains("From: Ada Lovelace <ada@example.org>") })
        #expect(r.stdout.contains("summary: sent 0, saved 2, failed 0"))
    }

    @Test func usageAndMissingData() throws {
        let noTemplate = try CLI.run(["compose", "--query", "a"])
        #expect(noTemplate.status == 2)
        let both = try CLI.run(["compose", "--template", "invite", "--query", "a", "--ids", "x"])
        #expect(both.status == 2)
        let noFrom = try CLI.run([
            "compose", "--template", "invite", "--query", "anna", "--mode", "email", "--uri",
            "--data", "/nonexistent.json",
        ])
        #expect(noFrom.status == 2)
        // Strict rendering: without --data the invite template misses its variables for every recipient.
        let dir = try tempDir()
        let r = try CLI.run([
            "compose", "--template", "invite", "--query", "f b", "--keywords", "--mode", "email",
            "--from", "ada@example.org", "--out", dir.path,
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("compose:"))
        #expect(r.stdout.contains("not rendered:"))
    }

    /// A custom template whose subject lists `others`, and two email recipients of the sample.
    func othersSetup() throws -> (dir: URL, templates: URL, picked: [Listing.Section.Item]) {
        let listing = try CLI.run(["list", "--mode", "email", "--json", "--locale", "en"])
        let items = try JSONDecoder().decode(Listing.self, from: listing.stdoutData).sections.flatMap(\.items)
        let picked = Array(items.prefix(2))
        let dir = try tempDir()
        let templates = dir.appendingPathComponent("templates")
        let t = templates.appendingPathComponent("roll")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        try "Others [{{#others}}{{email}} {{/others}}]".write(
            to: t.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Hi\n".write(to: t.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        return (dir, templates, picked)
    }

    func subjects(_ out: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }.sorted().map {
            let text = try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8)
            return text.split(separator: "\r\n").first { $0.hasPrefix("Subject: ") }.map(String.init) ?? ""
        }
    }

    @Test("compose names no co-recipient unless --share-recipient-names")
    func othersOnlyWhenShared() throws {
        let (dir, templates, picked) = try othersSetup()
        let base = [
            "compose", "--template", "roll", "--templates", templates.path, "--mode", "email",
            "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
        ]
        let quiet = dir.appendingPathComponent("quiet")
        let r = try CLI.run(base + ["--out", quiet.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try subjects(quiet) == ["Subject: Others []", "Subject: Others []"])
        let shared = dir.appendingPathComponent("shared")
        let s = try CLI.run(base + ["--out", shared.path, "--share-recipient-names"])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(Set(try subjects(shared)) == Set(picked.map { "Subject: Others [\($0.value) ]" }))
        let help = try CLI.run(["compose", "--help"])
        #expect(help.stdout.contains("--share-recipient-names"))
        #expect(help.stdout.contains("No recipient is named to another"))
    }

    @Test("compose reports --recipients rows that match nobody, and refuses an empty file by name")
    func recipientRowsAreChecked() throws {
        let (dir, templates, picked) = try othersSetup()
        let csv = "id,id,table\n\(picked[0].id),\(picked[0].id),1\nnobody,nobody,2\n\(picked[1].id),\(picked[1].id),3\n"
        let guests = dir.appendingPathComponent("guests.csv")
        try csv.write(to: guests, atomically: true, encoding: .utf8)
        let base = [
            "compose", "--template", "roll", "--templates", templates.path, "--mode", "email",
            "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
            "--out", dir.appendingPathComponent("out").path,
        ]
        let r = try CLI.run(base + ["--recipients", guests.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("compose: \(guests.path):1: column 'id' appears twice (fields 1 and 2)"))
        #expect(r.stderr.contains("compose: --recipients: 1 of 3 row(s) match no selected contact:"))
        #expect(r.stderr.contains("compose: \(guests.path):3: row for 'nobody' matches no selected contact"))
        let empty = dir.appendingPathComponent("empty.csv")
        try Data().write(to: empty)
        let e = try CLI.run(base + ["--recipients", empty.path])
        #expect(e.status == 1)
        #expect(e.stderr.contains("\(empty.path): the file is empty"))
    }

    @Test("--out that cannot be a folder fails once, before anything is rendered")
    func outProblemsFailUpFront() throws {
        let (dir, templates, picked) = try othersSetup()
        let file = dir.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let dangling = dir.appendingPathComponent("dangling")
        try? FileManager.default.removeItem(at: dangling)
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/drafts")
        let base = [
            "compose", "--template", "roll", "--templates", templates.path, "--mode", "email",
            "--ids", picked.map(\.id).joined(separator: ","), "--from", "ada@example.org",
        ]
        let f = try CLI.run(base + ["--out", file.path])
        #expect(f.status == 1)
        #expect(
            f.stderr
                == "contacts: compose: --out: \(file.path): is a file, not a folder (drafts need a folder: give a new or existing one)\n"
        )
        #expect(!f.stdout.contains("summary"))
        let d = try CLI.run(base + ["--out", dangling.path])
        #expect(d.status == 1)
        #expect(
            d.stderr.contains("\(dangling.path): is a symbolic link to '/nonexistent/drafts', which does not exist"))
        #expect(d.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
        let under = try CLI.run(base + ["--out", file.appendingPathComponent("sub").path])
        #expect(under.status == 1)
        #expect(under.stderr.contains("--out: \(file.path): is a file, not a folder"), "\(under.stderr)")
    }

    @Test("outbox send --help lists only the options it takes")
    func outboxSendHelp() throws {
        let help = try CLI.run(["outbox", "send", "--help"])
        #expect(help.status == 0)
        for option in ["--smtp", "--sendmail", "--rate", "--attempts", "--resend-uncertain"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        for option in ["--out", "--uri", "--send ", "--resume", "--from"] {
            #expect(!help.stdout.contains(option), "\(option)")
        }
        let dir = try tempDir()
        let r = try CLI.run(["outbox", "send", dir.path, "--out", "x"])
        #expect(r.status == 2 && r.stderr.contains("unknown option '--out'"), "\(r.stderr)")
    }
}
