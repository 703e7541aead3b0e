import Foundation
import TestSupport
import Testing

/// `contacts pick`'s key hints, help screen, fzf-like search and search-field editing, on a pseudo-terminal
/// read by pyte (exact screens at several sizes, in en, de, ja, ar) and in tmux (keys as tmux sends them).
@Suite struct PickKeysCLITests {
    /// `pickBook` and two contacts for fuzzy search.
    static func book() throws -> URL { try book(adding: felipeAndFiona) }

    /// `pickBook` (without its escape character) and `cards`.
    static func book(adding cards: String) throws -> URL {
        let url = Scratch.path("pick-book", suffix: ".vcf")
        try Scratch.write(pickBook.replacingOccurrences(of: "\\u001B", with: "") + cards, to: url)
        return url
    }

    static let felipeAndFiona = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:felipe\r
        FN:Felipe Baytelman\r
        N:Baytelman;Felipe;;;\r
        TEL;TYPE=CELL:+1 415 555 0110\r
        EMAIL:felipe@example.com\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:fiona\r
        FN:Fiona Bradbury\r
        N:Bradbury;Fiona;;;\r
        TEL;TYPE=CELL:+1 415 555 0111\r
        END:VCARD\r

        """

    static func pick(_ args: [String] = []) throws -> [String] {
        ["pick", "--source", try book().path, "--region", "US"] + args
    }

    @Test func hintLineAndHelpScreenAt60x12() throws {
        let (run, _) = try PickScreenCLITests.run(
            try Self.pick(),
            steps: [
                ["wait", "? Help"], ["snap"], ["send", "?"], ["wait", "Keys"], ["snap"], ["send", "\u{1B}[6~"],
                ["wait", "Search field"], ["snap"], ["send", "\u{1B}"], ["gone", "Keys"], ["wait", "? Help"],
                ["snap"], ["send", "\u{1B}OP"], ["wait", "Keys"], ["snap"], ["send", "\u{1B}\u{1B}"],
            ])
        #expect(run.status == 130)
        #expect(run.snaps[0][11] == "? Help  Tab Mark  Enter Select  Esc Cancel  → Values        ")
        #expect(run.snaps[0][10].hasPrefix("0 contacts selected"))
        let help = run.snaps[1]
        #expect(help.count == 12)
        #expect(help[0] == String(repeating: " ", count: 28) + "Keys" + String(repeating: " ", count: 28))
        #expect(help[1].hasPrefix("List"))
        #expect(help[2].hasPrefix("a–z …               Search: words in any order"))
        #expect(help[11].hasPrefix("Esc Back  ↑ ↓ Scroll"))
        // PgDn scrolls the help; Esc closes it (not the picker); F1 (ESC O P here) opens it too.
        #expect(run.snaps[2][1] != help[1])
        #expect(run.snaps[3] == run.snaps[0])
        #expect(run.snaps[4] == help)
    }

    @Test func helpScrollsToTheComposeSheetsKeys() throws {
        let (run, _) = try PickScreenCLITests.run(
            try Self.pick(), columns: 80, lines: 14,
            steps: [
                ["wait", "? Help"], ["send", "\u{1B}OP"], ["wait", "Keys"], ["send", "\u{1B}[6~\u{1B}[6~\u{1B}[6~"],
                ["wait", "Compose sheet"], ["snap"], ["send", "\u{1B}\u{1B}"],
            ])
        #expect(run.status == 130)
        let text = run.snaps[0].joined(separator: "\n")
        #expect(text.contains("Edit the subject and body in $EDITOR"))
        #expect(text.contains("Back to the list"))
    }

    @Test func noHintsHidesTheLine() throws {
        let (run, _) = try PickScreenCLITests.run(
            try Self.pick(["--no-hints"]), steps: [["wait", "7/7"], ["snap"], ["send", "\u{1B}"]])
        #expect(run.snaps[0][11].hasPrefix("0 contacts selected"))
        #expect(!run.snaps[0].joined().contains("? Help"))
    }

    @Test(arguments: [
        ("de", 40, 10, "? Hilfe  Tab Markieren", "Tasten", "Liste"),
        ("ja", 80, 24, "? ヘルプ  Tab マーク  Enter 選択  Esc キャンセル", "キー", "リスト"),
        ("ar", 60, 12, "? مساعدة  Tab وضع علامة", "المفاتيح", "القائمة"),
    ])
    func hintsAndHelpInGermanJapaneseAndArabic(
        language: String, columns: Int, lines: Int, hints: String, title: String, list: String
    ) throws {
        let (run, _) = try PickScreenCLITests.run(
            try Self.pick(["--locale", language]), columns: columns, lines: lines,
            steps: [["wait", "7/7"], ["snap"], ["send", "?"], ["wait", title], ["snap"], ["send", "\u{1B}\u{1B}"]],
            environment: ["LANG": "\(language).UTF-8"])
        #expect(run.status == 130)
        let last = run.snaps[0][lines - 1]
        let help = run.snaps[1]
        #expect(help.count == lines)
        if language == "ar" {
            // Mirrored: each line runs from the right edge.
            #expect(last.trimmingCharacters(in: .whitespaces).hasPrefix(hints), "\(last)")
            #expect(help[1].trimmingCharacters(in: .whitespaces).hasSuffix(list), "\(help[1])")
        } else {
            #expect(last.hasPrefix(hints), "\(last)")
            #expect(help[1].hasPrefix(list), "\(help[1])")
        }
        #expect(help[0].contains(title))
    }

    @Test func wordsInAnyOrderAndFuzzyWithCtrlF() throws {
        let (run, stdout) = try PickScreenCLITests.run(
            try Self.pick(),
            steps: [
                ["wait", "7/7"], ["send", "baytelman felipe"], ["wait", "1/7"], ["snap"], ["send", "\u{15}fbay"],
                ["wait", "0/7"], ["send", "\u{06}"], ["wait", "~ fbay"], ["snap"], ["send", "\r"],
            ])
        #expect(run.status == 0)
        #expect(run.snaps[0][1].hasPrefix("> baytelman felipe"))
        #expect(run.snaps[0][3].hasPrefix("[ ] Felipe Baytelman"))
        let fuzzy = run.snaps[1]
        #expect(fuzzy[1].hasPrefix("~ fbay") && fuzzy[1].hasSuffix("2/7"))
        #expect(fuzzy[2].hasPrefix("Best matches"))
        #expect(fuzzy[3].hasPrefix("[ ] Felipe Baytelman"))
        #expect(fuzzy[4].hasPrefix("[ ] Fiona Bradbury"))
        #expect(stdout == "Felipe Baytelman <+14155550110>\n")
    }

    @Test func theSearchTextEditsInPlaceAsReadline() throws {
        // "ana", ← ←, "n": "anna"; Ctrl-A, "^": "^anna"; Ctrl-E, " !q": a negated word.
        let (run, stdout) = try PickScreenCLITests.run(
            try Self.pick(["--fuzzy", "--output", "ids"]),
            steps: [
                ["wait", "7/7"], ["send", "ana"], ["send", "\u{1B}[D\u{1B}[D"], ["send", "n"], ["wait", "~ anna"],
                ["send", "\u{01}^"], ["wait", "~ ^anna"], ["snap"], ["send", "\u{05} !q"], ["wait", "~ ^anna !q"],
                ["send", "\r"],
            ])
        #expect(run.status == 0)
        #expect(run.snaps[0][1].hasSuffix("1/7"))
        #expect(stdout == "anna\n")
    }

    @Test func queryWithSelect1PrintsAtOnceAndExit0ExitsOne() throws {
        // No terminal is needed: the search answers before the list would open.
        let one = try CLI.run(try Self.pick(["--query", "zoe", "--select-1"]))
        #expect(one.status == 0)
        #expect(one.stdout == "Zoë Ünal <+14155550104>\n")
        let none = try CLI.run(try Self.pick(["--query", "nobody", "--exit-0"]))
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        let felipe = try CLI.run(try Self.pick(["--query", "^fel", "--select-1", "--exit-0", "--output", "ids"]))
        #expect(felipe.stdout == "felipe\n")
    }

    @Test func queryOpensTheListWithTheSearchTyped() throws {
        let (run, _) = try PickScreenCLITests.run(
            try Self.pick(["--query", "fiona"]), steps: [["wait", "1/7"], ["snap"], ["send", "\u{1B}"]])
        #expect(run.snaps[0][1].hasPrefix("> fiona "))
        #expect(run.snaps[0][3].hasPrefix("[ ] Fiona Bradbury"))
    }

    /// The keys as tmux sends them (F1, C-f, M-b, Left): another terminal's sequences for the same keys.
    @Test func keysInTmux() throws {
        let (window, out, status) = try PickTmuxCLITests.start("--output ids", lines: 16, book: Self.book())
        defer { window.close() }
        #expect(window.waitFor("? Help"))
        try window.send("F1")
        #expect(window.waitFor("Keys"))
        try window.send("Escape")
        #expect(window.waitFor { !$0.contains("Keys") && $0.contains("7/7") })
        try window.send("fby", literal: true)
        #expect(window.waitFor("0/7"))
        try window.send("C-f")
        #expect(window.waitFor("~ fby"))
        #expect(window.waitFor("2/7"))
        // M-b back a word, then type at the start: 'fby is exact, and nobody holds it.
        try window.send("M-b")
        try window.send("'", literal: true)
        #expect(window.waitFor("~ 'fby"))
        #expect(window.waitFor("0/7"))
        try window.send("C-d")
        #expect(window.waitFor("~ 'by"))
        try window.send("C-e")
        try window.send("Left")
        try window.send("BSpace")
        #expect(window.waitFor("~ 'y"))
        try window.send("C-e")
        try window.send("C-u")
        try window.send("fbay", literal: true)
        #expect(window.waitFor("2/7"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        #expect(try String(contentsOf: out, encoding: .utf8) == "felipe\n")
    }
}

/// `pick --sort given|family`: the rows and the locale's sections follow the sort key.
@Suite struct PickSortCLITests {
    @Test func sortByFamilyNameSectionsByIt() throws {
        let (given, _) = try PickScreenCLITests.run(
            try PickKeysCLITests.pick(["--no-hints", "--no-title-bar"]), lines: 8,
            steps: [["wait", "7/7"], ["snap"], ["send", "\u{1B}"]])
        let (family, _) = try PickScreenCLITests.run(
            try PickKeysCLITests.pick(["--no-hints", "--no-title-bar", "--sort", "family"]), lines: 8,
            steps: [["wait", "7/7"], ["snap"], ["send", "\u{1B}"]])
        #expect(given.snaps[0][1].hasPrefix("A ") && given.snaps[0][2].hasPrefix("[ ] Anna Berg"))
        #expect(
            Array(family.snaps[0][1...5].map { String($0.prefix(24)) }) == [
                "B                       ", "[ ] Felipe Baytelman    ", "[ ] Anna Berg           ",
                "[ ] Fiona Bradbury      ", "E                       ",
            ], "\(family.snaps[0])")
    }

    @Test func familySortInGermanAndJapanese() throws {
        for (language, header) in [("de", "U"), ("ja", "U")] {
            let (run, _) = try PickScreenCLITests.run(
                try PickKeysCLITests.pick(["--no-hints", "--sort", "family", "--locale", language]), lines: 20,
                steps: [["wait", "7/7"], ["snap"], ["send", "\u{1B}"]], environment: ["LANG": "\(language).UTF-8"])
            let screen = run.snaps[0]
            let zoe = try #require(screen.firstIndex { $0.contains("Zoë Ünal") }, "\(screen)")
            // Ünal is filed by its family name, under the locale's letter for Ü.
            #expect(screen[zoe - 1].hasPrefix(header), "\(language): \(screen)")
        }
    }
}
