import Foundation
import TestSupport
import Testing

/// `contacts query`: address completion for mail clients in their own formats — mutt's `query_command`
/// (a first free-text line, then address<TAB>name<TAB>other), aerc's `address-book-cmd` (no header),
/// TSV and JSON; exit 1 when nothing matches.
@Suite struct QueryCLITests {
    /// Ann with two addresses (work preferred) at an organization, Bo with one labelled home, Cy without email,
    /// and a name with a tab and an escape in it.
    static let book = Data(
        ("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:ann\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nORG:Acme\r\n"
            + "EMAIL;TYPE=home:ann@home.example\r\nEMAIL;TYPE=work;PREF=1:ann@acme.example\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:bo\r\nFN:Bo Berg\r\nN:Berg;Bo;;;\r\nEMAIL;TYPE=home:bo@example.org\r\n"
            + "END:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:cy\r\nFN:Cy Annan\r\nN:Annan;Cy;;;\r\nTEL:+1 415 555 0100\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:eve\r\nFN:Eve\tX\u{1B}[2J\r\nEMAIL:eve@example.net\r\nEND:VCARD\r\n")
            .utf8)

    static let environment = ["LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": "", "CONTACTS_REGION": ""]

    func query(_ args: [String]) throws -> CLIResult {
        let dir = try Scratch.directory("query-cli")
        try Self.book.write(to: dir.appendingPathComponent("book.vcf"))
        return try CLI.run(
            ["query", "--source", "book.vcf"] + args, environment: Self.environment, currentDirectory: dir)
    }

    @Test func muttFormat() throws {
        let r = try query(["ann"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout
                == "searching for 'ann' ... 2 matches\nann@acme.example\tAnn Lee\tAcme\nann@home.example\tAnn Lee\tAcme\n"
        )
        let bo = try query(["berg"])
        #expect(bo.stdout == "searching for 'berg' ... 1 match\nbo@example.org\tBo Berg\thome\n")
        // An email finds its contact too; the fields never break the line.
        let eve = try query(["example.net"])
        #expect(eve.stdout.split(separator: "\n").count == 2)
        #expect(eve.stdout.contains("eve@example.net\tEve X\\u{1B}[2J\t\n"), "\(eve.stdout)")
    }

    @Test func aercTsvAndJSON() throws {
        let aerc = try query(["--format", "aerc", "ann"])
        #expect(aerc.status == 0)
        #expect(aerc.stdout == "ann@acme.example\tAnn Lee\nann@home.example\tAnn Lee\n")
        let tsv = try query(["--format", "tsv", "bo"])
        #expect(tsv.stdout == "email\tname\tlabel\torganization\tid\nbo@example.org\tBo Berg\thome\t\tbo\n")
        let json = try query(["--format", "json", "ann"])
        struct Match: Decodable, Equatable {
            var email: String
            var name: String
            var label: String
            var organization: String
            var id: String
        }
        #expect(
            try JSONDecoder().decode([Match].self, from: json.stdoutData) == [
                Match(email: "ann@acme.example", name: "Ann Lee", label: "work", organization: "Acme", id: "ann"),
                Match(email: "ann@home.example", name: "Ann Lee", label: "home", organization: "Acme", id: "ann"),
            ])
        let keywords = try query(["--format", "aerc", "--keywords", "b b"])
        #expect(keywords.stdout == "bo@example.org\tBo Berg\n")
    }

    @Test func nothingMatchedExitsOne() throws {
        // Cy has no email: found by name, but nothing to complete.
        for (format, expected) in [
            ("mutt", "searching for 'annan' ... 0 matches\n"), ("aerc", ""), ("json", "[\n\n]\n"),
            ("tsv", "email\tname\tlabel\torganization\tid\n"),
        ] {
            let r = try query(["--format", format, "annan"])
            #expect(r.status == 1, "\(format)")
            #expect(r.stdout == expected, "\(format): \(r.stdout)")
        }
        let usage = try query(["--format", "pine", "ann"])
        #expect(usage.status == 2)
    }

    @Test func severalSourcesAndAVdirAreOneBook() throws {
        let dir = try Scratch.directory("query-sources")
        try Self.book.write(to: dir.appendingPathComponent("book.vcf"))
        let vdir = dir.appendingPathComponent("family")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Data(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:anja\r\nFN:Anja Holm\r\nN:Holm;Anja;;;\r\nEMAIL:anja@family.example\r\nEND:VCARD\r\n"
                .utf8
        )
        .write(to: vdir.appendingPathComponent("anja.vcf"))
        let both = try CLI.run(
            ["query", "--format", "aerc", "--source", "book.vcf", "--source", "family", "an"],
            environment: Self.environment, currentDirectory: dir)
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains("anja@family.example\tAnja Holm\n"), "\(both.stdout)")
        #expect(both.stdout.contains("ann@acme.example\tAnn Lee\n"), "\(both.stdout)")
        let folder = try CLI.run(
            ["query", "--format", "aerc", "--source", "family", "ann"], environment: Self.environment,
            currentDirectory: dir)
        #expect(folder.status == 1 && folder.stdout.isEmpty, "\(folder.stdout)")
    }

    /// Hélène Dubois and Seán O'Brien, each with an address.
    static let namesWithSpacesAndApostrophes =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Hélène Dubois\r\nN:Dubois;Hélène;;;\r\nEMAIL:hd@example.fr\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Seán O'Brien\r\nN:O'Brien;Seán;;;\r\nEMAIL:sob@example.ie\r\nEND:VCARD\r\n"

    /// Several words are one query (mutt passes "hélène dubois" as one argument, a shell user may type two),
    /// an apostrophe is just a letter, and a card without a name completes with an empty name.
    @Test func severalWordsAreOneQueryAndAnUnnamedCardHasNoName() throws {
        let dir = try Scratch.directory("query-words")
        try Data(
            (Self.namesWithSpacesAndApostrophes
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:nobody@example.org\r\nEND:VCARD\r\n").utf8
        ).write(to: dir.appendingPathComponent("book.vcf"))
        func run(_ args: [String]) throws -> CLIResult {
            try CLI.run(
                ["query", "--source", "book.vcf"] + args, environment: Self.environment, currentDirectory: dir)
        }
        let expected = "searching for 'helene dubois' ... 1 match\nhd@example.fr\tHélène Dubois\t\n"
        let one = try run(["helene dubois"])
        #expect(one.status == 0 && one.stdout == expected, "\(one.stdout)\(one.stderr)")
        let two = try run(["helene", "dubois"])
        #expect(two.status == 0 && two.stdout == expected, "\(two.stdout)\(two.stderr)")
        let apostrophe = try run(["--format", "aerc", "O'Brien"])
        #expect(apostrophe.stdout == "sob@example.ie\tSeán O'Brien\n", "\(apostrophe.stderr)")
        let unnamed = try run(["--format", "aerc", "nobody"])
        #expect(unnamed.stdout == "nobody@example.org\t\n")
        let json = try run(["--format", "json", "nobody"])
        #expect(json.stdout.contains("\"name\" : \"\""), "\(json.stdout)")
    }

    /// The documented muttrc line in a real mutt (tmux): mutt quotes %s itself, so "helene dubois" and
    /// "O'Brien" reach the query whole and their addresses fill the To: prompt.
    @Test func theDocumentedMuttLineCompletesInARealMutt() throws {
        let mutt = MuttCLITests.mutt
        guard FileManager.default.isExecutableFile(atPath: mutt) else {
            Issue.record("mutt is not installed (make deps)")
            return
        }
        let dir = try Scratch.directory("query-mutt")
        try Data(Self.namesWithSpacesAndApostrophes.utf8).write(to: dir.appendingPathComponent("book.vcf"))
        let home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // The README's line, with the book named (the binary by its path).
        let muttrc = home.appendingPathComponent("muttrc")
        try Data(
            ("set query_command = \"'\(CLI.executable.path)' query --source '\(dir.path)/book.vcf' --format mutt %s\"\n"
                + "set folder = \(home.path)\nset charset = utf-8\nset spoolfile = /dev/null\n").utf8
        ).write(to: muttrc)
        let readme = try String(
            contentsOf: DemoCLITests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("set query_command = \"contacts query --format mutt %s\""))
        let window = try TmuxWindow(
            columns: 100, lines: 20, command: "\(mutt) -n -F '\(muttrc.path)'",
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "MAIL": "", "TERM": "xterm"])
        defer { window.close() }
        #expect(window.waitFor { $0.contains("q:Quit") || $0.contains("No mailbox") || $0.contains("Mutt") })
        for (text, found) in [("helene dubois", "hd@example.fr"), ("O'Brien", "sob@example.ie")] {
            // Q: mutt's query; the result menu lists what the command printed.
            try window.send("Q")
            #expect(window.waitFor("Query:"), "\(window.screen)")
            try window.send(text, literal: true)
            try window.send("Enter")
            let listed = window.waitFor { $0.contains(found) }
            #expect(listed, "\(text): \(window.screen)")
            let screen = window.screen
            #expect(!screen.contains("unexpected argument") && !screen.contains("Unterminated"), "\(screen)")
            try window.send("q")
            #expect(window.waitFor { !$0.contains(found) }, "\(window.screen)")
        }
        try window.send("q")
    }
}
