import Foundation
import TestSupport
import Testing

/// The phone region from the command line: `--region`, `CONTACTS_REGION`, the locale's own region subtag,
/// the environment's territory — never the display language; numbers no region reads are shown as written,
/// and `compose --mode messages` reports them instead of texting a guessed country.
@Suite struct PhoneRegionCLITests {
    /// An environment that names no region (the locale alone decides), plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "LC_MESSAGES": "", "LANGUAGE": "", "CONTACTS_REGION": "",
        ]
        for (k, v) in extra { env[k] = v }
        return env
    }

    struct Listing: Decodable {
        struct Section: Decodable { var items: [Item] }
        struct Item: Decodable {
            var id: String
            var name: String
            var value: String
        }
        var sections: [Section]
        var items: [Item] { sections.flatMap(\.items) }
    }

    /// The values `contacts list --json ARGS` shows, by name.
    func values(_ args: [String], stdin: Data? = nil, environment: [String: String] = environment()) throws -> [String:
        String]
    {
        let r = try CLI.run(["list", "--json"] + args, stdin: stdin, environment: environment)
        #expect(r.status == 0, "\(r.stderr)")
        let items = try JSONDecoder().decode(Listing.self, from: r.stdoutData).items
        return Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    static func card(_ uid: String, _ given: String, _ family: String, _ phone: String, country: String? = nil)
        -> String
    {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(uid)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\nTEL:\(phone)\r\n"
            + (country.map { "ADR:;;1 Main St;Town;;;\($0)\r\n" } ?? "") + "END:VCARD\r\n"
    }

    /// Noah without an address; Hans with a Berlin number and an address in Germany; Ærin international.
    static let book = Data(
        (card("noah", "Noah", "White", "(206) 555-0101")
            + card("hans", "Hans", "Berg", "030 1234567", country: "Deutschland")
            + card("aerin", "Ærin", "Nyström", "+44 20 7946 0140")).utf8)

    @Test func theDisplayLanguageNeverSetsTheRegion() throws {
        // The sample's Noah White has an address in the USA: a number not read in the region is read there.
        for locale in ["ja", "de", "de-u-co-phonebk"] {
            let sample = try values(["--locale", locale])
            #expect(sample["Noah White"] != "+812065550101" && sample["Noah White"] != "+572065550101", "\(locale)")
            #expect(sample["Noah White"] == "+12065550101", "\(locale)")
            // Without an address, a number no region reads is shown as written.
            let own = try values(["--locale", locale, "--source", "-"], stdin: Self.book)
            #expect(own["Noah White"] == "(206) 555-0101", "\(locale)")
            #expect(own["Ærin Nyström"] == "+442079460140")
        }
        #expect(
            try values(["--locale", "ja", "--region", "US", "--source", "-"], stdin: Self.book)["Noah White"]
                == "+12065550101")
        #expect(try values(["--locale", "ja", "--region", "us"])["Noah White"] == "+12065550101")
        #expect(try values(["--locale", "en-US", "--source", "-"], stdin: Self.book)["Noah White"] == "+12065550101")
    }

    @Test func theEnvironmentsTerritoryAndContactsRegion() throws {
        let german = Self.environment(["LANG": "de_DE.UTF-8"])
        #expect(
            try values(["--locale", "en", "--source", "-"], stdin: Self.book, environment: german)["Noah White"]
                == "+492065550101")
        let region = Self.environment(["CONTACTS_REGION": "US", "LANG": "de_DE.UTF-8"])
        #expect(
            try values(["--locale", "en", "--source", "-"], stdin: Self.book, environment: region)["Noah White"]
                == "+12065550101")
        // --region wins over both.
        #expect(
            try values(["--region", "GB", "--source", "-"], stdin: Self.book, environment: region)["Noah White"]
                == "+442065550101")
        for (args, env) in [
            (["--region", "XY"], Self.environment()), (["--region", "USA"], Self.environment()),
            ([], Self.environment(["CONTACTS_REGION": "nowhere"])),
        ] {
            let r = try CLI.run(["list"] + args, environment: env)
            #expect(r.status == 2, "\(args) \(env)")
            #expect(r.stderr.contains("expected a two-letter region code"), "\(r.stderr)")
        }
    }

    @Test func theAddressCountryReadsANumberInvalidInTheRegion() throws {
        for args in [["--region", "US"], ["--locale", "ja"], ["--region", "GB"]] {
            #expect(try values(args + ["--source", "-"], stdin: Self.book)["Hans Berg"] == "+49301234567", "\(args)")
        }
        let inspect = try CLI.run(
            ["vcard", "inspect", "--json", "--region", "US", "-"], stdin: Self.book, environment: Self.environment())
        #expect(inspect.stdout.contains("\"+49301234567\""), "\(inspect.stdout)")
    }

    @Test func messagesAreNotSentToANumberNoRegionReads() throws {
        let dir = try Scratch.directory("phones-compose")
        defer { try? FileManager.default.removeItem(at: dir) }
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        for (file, text) in [
            ("subject.mustache", "Hello"), ("body.txt.mustache", "See you.\n"),
            ("message.txt.mustache", "See you, {{recipient.name}}."),
        ] {
            try text.write(to: note.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let args = [
            "compose", "--template", "note", "--templates", dir.appendingPathComponent("templates").path, "--ids",
            "noah,aerin,hans", "--mode", "messages", "--source", "-", "--uri", "--locale", "de",
        ]
        let r = try CLI.run(args, stdin: Self.book, environment: Self.environment())
        #expect(r.status == 1)
        #expect(r.stderr.contains("no region for '(206) 555-0101': give --region"), "\(r.stderr)")
        #expect(!r.stdout.contains("2065550101"))
        // The others still go.
        #expect(r.stdout.contains("sms:+442079460140") && r.stdout.contains("sms:+49301234567"), "\(r.stdout)")
        let withRegion = try CLI.run(args + ["--region", "US"], stdin: Self.book, environment: Self.environment())
        #expect(withRegion.status == 0, "\(withRegion.stderr)")
        #expect(withRegion.stdout.contains("sms:+12065550101"))
    }

    @Test func searchFindsNumbersAsPeopleTypeThem() throws {
        for (query, region, name) in [
            ("020 7946 0140", "GB", "Ærin Nyström"), ("01 99 00 03 88", "FR", "Anaïs Fournier"),
            ("0033 1 99 00 03 88", "US", "Anaïs Fournier"), ("0033 1 99 00 03 88", "FR", "Anaïs Fournier"),
        ] {
            let r = try CLI.run(["search", query, "--region", region, "--json"], environment: Self.environment())
            #expect(r.status == 0, "\(r.stderr)")
            let names = try JSONDecoder().decode(Listing.self, from: r.stdoutData).items.map(\.name)
            #expect(names == [name], "\(query) \(region)")
        }
        let us = try CLI.run(["search", "020 7946 0140", "--region", "US"], environment: Self.environment())
        #expect(us.stdout.contains("0 contacts"))
    }

    @Test func aSavedIndexIsKeptPerRegion() throws {
        let folder = try Scratch.directory("phones-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.vcf")
        try Self.book.write(to: book)
        let env = Self.environment(["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path])
        let build = try CLI.run(["index", "build", book.path, "--region", "GB"], environment: env)
        #expect(build.status == 0, "\(build.stderr)")
        let gb = try values(["--source", book.path, "--region", "GB"], environment: env)
        let us = try values(["--source", book.path, "--region", "US"], environment: env)
        #expect(gb["Noah White"] == "+442065550101")
        #expect(us["Noah White"] == "+12065550101")
        let search = try CLI.run(
            ["search", "020 7946 0140", "--source", book.path, "--region", "GB"], environment: env)
        #expect(search.stdout.contains("Ærin Nyström") && search.stdout.contains("1 contact"), "\(search.stdout)")
    }
}
