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
}
