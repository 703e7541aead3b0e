import Foundation
import TestSupport
import Testing

/// What `contacts pick` prints and offers, in a real terminal (tmux): RFC 5322 lines in the order the user
/// selected, JSON for a pinned row, no fax or pager number for text messages, one marked value in the
/// chooser, `--enable group:` checked against the book's groups, and the note for a book the mode lists no
/// one of (with `list`, `search` and `index build`).
@Suite(.serialized) struct PickOutputCLITests {
    /// John Smith's card named "Smith, John" (a comma), Zoë with two addresses whose digits are alike,
    /// Anna with a work fax first and a pager, a fax-only card, and a group card "Work" naming Anna.
    static let book = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:john\r
        FN:Smith\\, John\r
        EMAIL:john@example.org\r
        TEL;TYPE=cell:+1 415 555 0110\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:zoe\r
        FN:Zoë Ünal\r
        N:Ünal;Zoë;;;\r
        EMAIL:zoe1@example.org\r
        EMAIL:mary1@example.org\r
        TEL;TYPE=cell:+1 415 555 0111\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:urn:uuid:anna\r
        FN:Anna Berg\r
        N:Berg;Anna;;;\r
        TEL;TYPE=work,fax:+1 415 555 0190\r
        TEL;TYPE=cell:+1 415 555 0100\r
        TEL;TYPE=pager:+1 415 555 0191\r
        TEL;TYPE=home:+1 415 555 0102\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:fax\r
        FN:Faxon Only\r
        N:Only;Faxon;;;\r
        TEL;TYPE=fax:+1 415 555 0199\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        KIND:group\r
        UID:work\r
        FN:Work\r
        MEMBER:urn:uuid:anna\r
        END:VCARD\r

        """

    /// Runs `contacts pick --source BOOK ARGS > out 2> err; echo $? > status` in a tmux window.
    static func start(_ args: String, book: String = Self.book, columns: Int = 70, lines: Int = 14) throws -> (
        window: TmuxWindow, out: URL, err: URL, status: URL
    ) {
        let folder = try Scratch.directory("pick-output")
        let file = folder.appendingPathComponent("book.vcf")
        try Scratch.write(book, to: file)
        let (out, err, status) = (
            folder.appendingPathComponent("out"), folder.appendingPathComponent("err"),
            folder.appendingPathComponent("status")
        )
        let command =
            "'\(CLI.executable.path)' pick --source '\(file.path)' --region US \(args) > '\(out.path)' "
            + "2> '\(err.path)'; echo $? > '\(status.path)'"
        let window = try TmuxWindow(
            columns: columns, lines: lines, command: command,
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "CONTACTS_INDEX_DIR": folder.path + "/index"])
        return (window, out, err, status)
    }

    @Test func linesAreRFC5322AddressesInTheOrderSelected() throws {
        let (window, out, _, status) = try Self.start("--mode email")
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("zo", literal: true)
        #expect(window.waitFor("1/2"))
        try window.send("Tab")
        try window.send("C-u")
        try window.send("smith", literal: true)
        #expect(window.waitFor("1/2"))
        try window.send("Tab")
        #expect(window.waitFor("Select (2)"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        // Zoë first (selected first; the list has John first), John's comma quoted.
        #expect(
            try String(contentsOf: out, encoding: .utf8)
                == "Zoë Ünal <zoe1@example.org>\n\"Smith, John\" <john@example.org>\n")
    }

    @Test func aPinnedRowWithOutputJSONPrintsJSON() throws {
        let (window, out, _, status) = try Self.start("--pin me=Myself --output json")
        defer { window.close() }
        #expect(window.waitFor("Myself"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text == "[\n  {\n    \"pin\" : \"me\"\n  }\n]\n")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]] == [["pin": "me"]])
    }

    @Test func faxAndPagerNumbersAreNotOfferedForTextMessages() throws {
        let (window, out, _, status) = try Self.start("")
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        // The fax-only card is not listed; Anna is reached at her mobile, though her fax comes first.
        let list = window.screen
        #expect(list.contains("3/3") && !list.contains("Faxon"), "\(list)")
        #expect(list.contains("+14155550100") && !list.contains("0190"), "\(list)")
        try window.send("anna", literal: true)
        #expect(window.waitFor("1/3"))
        try window.send("Right")
        #expect(window.waitFor("(•)"))
        let chooser = window.screen
        #expect(chooser.contains("+1 415 555 0100") && chooser.contains("+1 415 555 0102"), "\(chooser)")
        #expect(!chooser.contains("0190") && !chooser.contains("0191"), "\(chooser)")
        #expect(chooser.components(separatedBy: "(•)").count == 2, "\(chooser)")
        try window.send("Down")
        try window.send("Enter")
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        #expect(try String(contentsOf: out, encoding: .utf8) == "Anna Berg <+14155550102>\n")
    }

    @Test func theChooserMarksExactlyOneAddress() throws {
        let (window, _, _, status) = try Self.start("--mode email")
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        try window.send("zo", literal: true)
        #expect(window.waitFor("1/2"))
        try window.send("Right")
        #expect(window.waitFor("mary1@example.org"))
        let screen = window.screen
        let marked = screen.split(separator: "\n").filter { $0.contains("(•)") }
        #expect(marked.count == 1 && marked[0].contains("zoe1@example.org"), "\(screen)")
        try window.send("Escape")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
    }

    /// The book in a file of its own.
    static func bookFile() throws -> URL {
        let file = try Scratch.directory("pick-output-book").appendingPathComponent("book.vcf")
        try Scratch.write(Self.book, to: file)
        return file
    }

    @Test func enableGroupKnowsTheBooksGroupsAndRefusesAnUnknownOne() throws {
        let file = try Self.bookFile()
        let unknown = try CLI.run(["pick", "--source", file.path, "--enable", "group:Golf"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("pick: --enable: no group 'Golf' (have: Work)"), "\(unknown.stderr)")
        // --group says the same of the same name.
        let group = try CLI.run(["list", "--source", file.path, "--group", "Golf"])
        #expect(group.status == 2 && group.stderr.contains("no group 'Golf' (have: Work)"), "\(group.stderr)")
        // A group card's member is enabled by group:Work (it has no such category).
        let (window, _, _, status) = try Self.start("--enable group:Work")
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        let rows = window.screen.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("[ ] Anna Berg") }, "\(rows)")
        #expect(rows.contains { $0.contains("Smith, John") && !$0.hasPrefix("[ ]") }, "\(rows)")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
    }

    @Test func jsonAndAnotherOutputAreAnError() throws {
        let file = try Self.bookFile()
        let r = try CLI.run(["pick", "--source", file.path, "--json", "--output", "ids"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--json is --output json"), "\(r.stderr)")
        let help = try CLI.run(["pick", "--help"])
        #expect(help.stdout.contains("--json is --output json"))
        #expect(help.stdout.contains(#""Smith, John" <john@example.org>"#))
    }

    /// An email-only book (a Thunderbird or Gmail export) in the default messages mode: every command that
    /// lists it says why it lists no one and which --mode to use; the picker shows it too.
    @Test func anEmailOnlyBookSaysWhichModeToUse() throws {
        let export = (1...3).map {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \($0)\r\nEMAIL:p\($0)@example.org\r\nEND:VCARD\r\n"
        }.joined()
        let folder = try Scratch.directory("email-only")
        let file = folder.appendingPathComponent("export.vcf")
        try Scratch.write(export, to: file)
        let note =
            "contacts: note: no contact has a phone for text messages (--mode messages, the default); "
            + "3 contacts have email addresses: use --mode email or --mode both"
        let environment = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        let source = ["--source", file.path]
        for args in [["list"] + source, ["search", "person"] + source, ["index", "build", file.path]] {
            let r = try CLI.run(args, environment: environment)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(note), "\(args): \(r.stderr)")
        }
        // Answered by the saved index now: the same note.
        let saved = try CLI.run(["list", "--source", file.path], environment: environment)
        #expect(saved.stderr.contains(note), "\(saved.stderr)")
        // In email mode all three are listed, and nothing is said.
        let email = try CLI.run(["list", "--source", file.path, "--mode", "email"], environment: environment)
        #expect(email.stdout.contains("3 contacts") && !email.stderr.contains("note:"), "\(email.stderr)")
        let (window, _, err, status) = try Self.start("", book: export, columns: 200)
        defer { window.close() }
        #expect(window.waitFor("use --mode email or --mode both"), "\(window.screen)")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
        #expect(try String(contentsOf: err, encoding: .utf8).contains(note))
    }
}
