import Foundation
import TestSupport
import Testing

@Suite struct VCardCLITests {
    static let card = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:ada\r
        FN:Ada Lovelace\r
        EMAIL;TYPE=work:ada@example.com\r
        TEL;TYPE=cell:(415) 555-0100\r
        TEL:not a number\r
        CATEGORIES:Friends\r
        END:VCARD\r
        garbage\r

        """

    func temp(_ text: String) throws -> URL {
        let url = Scratch.path("vcard-cli", suffix: ".vcf")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func inspectJSON() throws {
        let url = try temp(Self.card)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["vcard", "inspect", "--json", "--region", "US", url.path])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let contacts = try #require(json["contacts"] as? [[String: Any]])
        #expect(contacts.count == 1)
        #expect(contacts[0]["id"] as? String == "ada")
        #expect(contacts[0]["name"] as? String == "Ada Lovelace")
        #expect(contacts[0]["emails"] as? [String] == ["ada@example.com"])
        #expect(contacts[0]["phones"] as? [String] == ["(415) 555-0100", "not a number"])
        let e164 = try #require(contacts[0]["phonesE164"] as? [Any])
        #expect(e164.first as? String == "+14155550100")
        #expect(e164.last is NSNull)
        #expect(contacts[0]["groups"] as? [String] == ["Friends"])
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0]["line"] as? Int == 10)
        #expect(diagnostics[0]["message"] as? String == "expected BEGIN:VCARD, found 'garbage'")
    }

    @Test func inspectTextFromStdin() throws {
        let r = try CLI.run(["vcard", "inspect", "--region", "US", "-"], stdin: Data(Self.card.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains("ada  Ada Lovelace\n"))
        #expect(r.stdout.contains("  phone: (415) 555-0100 (+14155550100) [mobile]\n"))
        #expect(r.stdout.contains("  groups: Friends\n"))
        #expect(r.stderr.contains("<stdin>:10:1: expected BEGIN:VCARD, found 'garbage'"))
    }

    @Test func unreadableInputFails() throws {
        let r = try CLI.run(["vcard", "inspect", "-"], stdin: Data("just text\n".utf8))
        #expect(r.status == 1)
        #expect(r.stderr.contains("no vCard could be read from <stdin>"))
        let missing = try CLI.run(["vcard", "inspect", "/nonexistent/x.vcf"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func convertTo30AndBack() throws {
        let r = try CLI.run(["vcard", "convert", "--to", "3.0", "-"], stdin: Data(Self.card.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada Lovelace\r\n"))
        #expect(r.stdout.contains("TEL;TYPE=cell:(415) 555-0100\r\n"))
        let back = try CLI.run(["vcard", "convert", "-"], stdin: r.stdoutData)
        #expect(back.status == 0)
        #expect(back.stdout.contains("VERSION:4.0\r\n"))
        #expect(back.stderr.isEmpty)
        let bad = try CLI.run(["vcard", "convert", "--to", "2.1", "-"], stdin: Data(Self.card.utf8))
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--to must be 4.0 or 3.0"))
    }
}

/// `vcard inspect --json` is streamed; its bytes must be what JSONEncoder (pretty, sorted keys, slashes
/// unescaped) makes of the same report.
@Suite struct InspectJSONStreamTests {
    struct Contact: Codable {
        var emails: [String]
        var groups: [String]
        var id: String
        var name: String
        var phones: [String]
        var phonesE164: [String?]
    }
    struct Diagnostic: Codable {
        var column: Int?
        var line: Int
        var message: String
    }
    struct Report: Codable {
        var contacts: [Contact]
        var diagnostics: [Diagnostic]
    }

    static func encoded(_ data: Data) throws -> String {
        let report = try JSONDecoder().decode(Report.self, from: data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }

    @Test func streamedJSONIsWhatTheEncoderWrites() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:a/b "quoted" \\\\ back\r
            N:Doe;Jane \\n Line;;;\r
            FN:Jane\\tDoe / 名前 😀\r
            EMAIL:jane@example.com\r
            EMAIL:j/ane@example.org\r
            TEL:+1 (415) 555-0100\r
            TEL:030 1234567\r
            TEL:+44 (0) 20 7946 0958\r
            TEL:12\r
            CATEGORIES:Friends,Work "x"\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Nobody\r
            X-BROKEN\r
            END:VCARD\r
            stray line\r

            """
        let url = Scratch.path("inspect", suffix: ".vcf")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["vcard", "inspect", "--json", "--region", "DE", url.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try Self.encoded(r.stdoutData)))
        #expect(r.stdout.contains("\"+14155550100\""))
        #expect(r.stdout.contains("\"+49301234567\""))
        #expect(r.stdout.contains("\"+442079460958\""))
        #expect(r.stdout.contains("null"))
        #expect(r.stdout.contains("\"diagnostics\" : [\n    {"))

        let empty = try CLI.run(
            ["vcard", "inspect", "--json", "-"], stdin: Data("BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n".utf8))
        #expect(empty.status == 0)
        #expect(empty.stdout == (try Self.encoded(empty.stdoutData)))
        #expect(empty.stdout.contains("\"diagnostics\" : [\n\n  ]"))
    }
}

/// Progress lines appear on stderr only when it is a terminal (forced here with CONTACTS_PROGRESS=1 and no
/// delay) and are erased when the step ends; pipes see nothing.
@Suite struct ProgressTests {
    @Test func progressOnlyWhenAsked() throws {
        let forced = try CLI.run(
            ["list", "--locale", "en"], environment: ["CONTACTS_PROGRESS": "1", "CONTACTS_PROGRESS_AFTER": "0"])
        #expect(forced.status == 0)
        #expect(forced.stderr.contains("sorting and indexing"), "\(forced.stderr)")
        #expect(forced.stderr.hasSuffix("\r\u{1B}[K"))
        let piped = try CLI.run(["list", "--locale", "en"], environment: ["CONTACTS_PROGRESS_AFTER": "0"])
        #expect(piped.status == 0)
        #expect(piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(forced.stdout == piped.stdout)
    }
}
