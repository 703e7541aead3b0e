import Foundation
import TestSupport
import Testing

@Suite("contacts vcard: 4.0 output, JSON on failure, group help")
struct VCardConversionCLITests {
    func temp(_ text: String) throws -> URL {
        let url = Scratch.path("vcard-conv", suffix: ".vcf")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func convertWritesTextUIDsAndDropsProfile() throws {
        let url = try temp(
            "home.BEGIN:VCARD\r\nVERSION:3.0\r\nPROFILE:VCARD\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1\r\nFN:Grace\r\n"
                + "END:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nUID:1234;5\r\nFN:Alan\r\nEND:VCARD\r\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["vcard", "convert", "--to", "4.0", url.path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\r\n")
        let uids = lines.filter { $0.hasPrefix("UID") }
        #expect(uids.count == 3)
        #expect(uids[0].hasPrefix("UID;VALUE=text:hash-"), "\(uids)")
        #expect(uids[1] == "UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
        #expect(uids[2] == "UID;VALUE=text:1234;5")
        #expect(!r.stdout.uppercased().contains("PROFILE"))
        // 3.0 output keeps PROFILE and plain UIDs.
        let v3 = try CLI.run(["vcard", "convert", "--to", "3.0", url.path])
        #expect(v3.stdout.contains("PROFILE:VCARD\r\n") && v3.stdout.contains("\r\nUID:hash-"))
        // The 4.0 output reads back with the same ids.
        let out = try temp(r.stdout)
        defer { try? FileManager.default.removeItem(at: out) }
        let a = try CLI.run(["vcard", "inspect", "--json", url.path])
        let b = try CLI.run(["vcard", "inspect", "--json", out.path])
        func ids(_ r: CLIResult) throws -> [String] {
            let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
            return (json["contacts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids(a).count == 3)
        #expect(try ids(a) == ids(b))
    }

    /// Issue 18 item 6: converting the sample keeps every X-PHONETIC-* line (the 20 Japanese cards lost
    /// theirs because N;SORT-AS said the same), in 4.0 and in 3.0, which has no SORT-AS.
    @Test(arguments: ["4.0", "3.0"]) func convertKeepsEveryPhoneticName(_ version: String) throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ContactsCore/Resources/sample.vcf")
        let input = try String(contentsOf: sample, encoding: .utf8)
        func phonetic(_ text: String) -> [String] {
            text.components(separatedBy: .newlines)
                .filter { $0.hasPrefix("X-PHONETIC-") }.sorted()
        }
        let expected = phonetic(input)
        #expect(expected.count >= 40)
        let r = try CLI.run(["vcard", "convert", "--to", version, sample.path])
        #expect(r.status == 0, "\(r.stderr)")
        var written = phonetic(r.stdout)
        for line in expected {
            if let k = written.firstIndex(of: line) { written.remove(at: k) } else { Issue.record("lost: \(line)") }
        }
        #expect(r.stdout.contains("X-PHONETIC-FIRST-NAME:だいすけ\r\n"))
    }

    @Test func inspectJSONAlsoWhenNothingCouldBeRead() throws {
        let url = try temp("no card here\r\nat all\r\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["vcard", "inspect", "--json", url.path])
        #expect(r.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        #expect((json["contacts"] as? [Any])?.isEmpty == true)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["line"] as? Int == 1)
        #expect((diagnostics.first?["message"] as? String)?.contains("BEGIN:VCARD") == true)
        #expect((json["error"] as? String)?.contains("no vCard could be read") == true)
        #expect(r.stderr.contains("no vCard could be read"))
    }

    /// The groups are the first words of the tool's two-word commands, as its help lists them: a new group
    /// is checked without being named here.
    @Test func everyCommandGroupAnswersHelp() throws {
        let help = try CLI.run(["--help"])
        var groups: [String] = []
        for line in help.stdout.split(separator: "\n") where line.hasPrefix("  ") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count > 2, words[1].first?.isLowercase == true, words[2].first?.isUppercase == true else {
                continue
            }
            if !groups.contains(String(words[0])) { groups.append(String(words[0])) }
        }
        #expect(groups == ["index", "outbox", "vcard", "bounces", "strings", "messageformat", "templates"])
        for group in groups { try answersHelp(group: group) }
    }

    func answersHelp(group: String) throws {
        let r = try CLI.run([group, "--help"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Usage: contacts \(group) <"), "\(r.stdout)")
        // The group's summary line follows its usage line.
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 2 && lines[1].isEmpty && !lines[2].hasPrefix("  "), "\(group): \(r.stdout)")
        let bad = try CLI.run([group, "frobnicate"])
        #expect(bad.status == 2 && bad.stderr.contains("frobnicate"))
    }
}
