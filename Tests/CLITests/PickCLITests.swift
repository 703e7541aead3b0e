import Foundation
import TestSupport
import Testing

/// A small address book for the picker's end-to-end runs.
let pickBook = """
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:anna\r
    FN:Anna Berg\r
    N:Berg;Anna;;;\r
    TEL;TYPE=CELL:+1 415 555 0100\r
    EMAIL:anna@example.org\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:bruno\r
    FN:Bruno Finstein\r
    N:Finstein;Bruno;;;\r
    TEL;TYPE=CELL:+1 415 555 0101\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:chen\r
    FN:陈伟\r
    N:陈;伟;;;\r
    TEL;TYPE=CELL:+1 415 555 0102\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:eve\r
    FN:Eve Evil\r
    N:Evil;Eve\\u001B[2J;;;\r
    TEL;TYPE=CELL:+1 415 555 0103\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:zoe\r
    FN:Zoë Ünal\r
    N:Ünal;Zoë;;;\r
    TEL;TYPE=CELL:+1 415 555 0104\r
    EMAIL:zoe@example.org\r
    END:VCARD\r

    """

/// `contacts pick` on a pseudo-terminal read by pyte (scripts/pty_screen.py): exact screens at several
/// sizes and languages, and what is printed.
@Suite struct PickScreenCLITests {
    struct Run: Decodable {
        var snaps: [[String]]
        var status: Int32?
        var colors: [[String]]
    }

    static func book() throws -> URL {
        let url = Scratch.path("pick", suffix: ".vcf")
        // The escape character itself in Eve's name (vCard text cannot spell it).
        try Scratch.write(pickBook.replacingOccurrences(of: "\\u001B", with: "\u{1B}"), to: url)
        return url
    }

    /// Runs `contacts ARGS` in a COLUMNS×LINES pseudo-terminal through the steps; returns the screens, the
    /// exit status and standard output.
    static func run(
        _ args: [String], columns: Int = 60, lines: Int = 12, steps: [[Any]], environment: [String: String] = [:]
    ) throws -> (Run, String) {
        let out = Scratch.path("pick-out")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: DemoCLITests.python)
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        p.arguments =
            [
                DemoCLITests.packageRoot.appendingPathComponent("scripts/pty_screen.py").path, "\(columns)", "\(lines)",
                out.path, stepsJSON, "--", CLI.executable.path,
            ] + args
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "screen"
        env["LANG"] = "C.UTF-8"
        env["LANGUAGE"] = nil
        env["LC_ALL"] = nil
        env["NO_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(String(decoding: data, as: UTF8.self))")
        let run = try JSONDecoder().decode(Run.self, from: data)
        let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return (run, stdout)
    }

    @Test func firstScreenAt60x12() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--source", Self.book().path, "--region", "US"],
            steps: [["wait", "Search contacts"], ["snap"], ["send", "\u{1B}"]])
        #expect(run.status == 130)
        #expect(stdout.isEmpty)
        #expect(
            run.snaps[0] == [
                "Cancel                Search contacts                 Select",
                "> Search contacts                                        5/5",
                "A                                                          A",
                "[ ] Anna Berg                                +14155550100  B",
                "B                                                          E",
                "[ ] Bruno Finstein                           +14155550101  Z",
                "E                                                          #",
                "[ ] Eve\\u{1B}[2J Evil                        +14155550103   ",
                "Z                                                           ",
                "[ ] Zoë Ünal                                 +14155550104   ",
                "0 contacts selected                                         ",
                "? Help  Tab Mark  Enter Select  Esc Cancel  → Values        ",
            ])
    }

    @Test func tabTabEnterPrintsTheSelectionAsLines() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--source", Self.book().path, "--region", "US"],
            steps: [["wait", "Search contacts"], ["send", "\t\t"], ["wait", "Select (2)"], ["send", "\r"]])
        #expect(run.status == 0)
        #expect(stdout == "Anna Berg <+14155550100>\nBruno Finstein <+14155550101>\n")
    }

    /// Keys the terminal description does not name (a TERM that is not the terminal's) are left out, not
    /// typed into the search: ESC [ 99 ~, ESC [ 1 ; 5 P, ESC O Z.
    @Test func unknownKeySequencesAreIgnored() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--source", Self.book().path, "--region", "US"],
            steps: [
                ["wait", "Search contacts"], ["send", "\u{1B}[99~\u{1B}[1;5P\u{1B}OZ"], ["send", "b"], ["wait", "2/5"],
                ["snap"], ["send", "\r"],
            ])
        #expect(run.status == 0)
        #expect(run.snaps.first?[1].hasPrefix("> b ") == true)
        #expect(stdout == "Anna Berg <+14155550100>\n")
    }

    @Test func searchThenEnterPrintsJSON() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--source", Self.book().path, "--mode", "email", "--output", "json"],
            steps: [["wait", "Search contacts"], ["send", "zo"], ["wait", "1/2"], ["send", "\r"]])
        #expect(run.status == 0)
        #expect(
            stdout == """
                [
                  {
                    "channel" : "email",
                    "id" : "zoe",
                    "name" : "Zoë Ünal",
                    "value" : "zoe@example.org"
                  }
                ]

                """)
    }

    @Test func singlePickPrintsTheRowUnderTheCursor() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--single", "--source", Self.book().path, "--region", "US", "--output", "ids"],
            // The down arrow as a terminal in keypad mode sends it (TERM=screen: ESC O B).
            steps: [["wait", "Search contacts"], ["send", "\u{1B}OB"], ["send", "\r"]])
        #expect(run.status == 0)
        #expect(stdout == "bruno\n")
    }

    @Test func groupPicksFromThatGroupOnly() throws {
        let url = Scratch.path("pick-group", suffix: ".vcf")
        try Scratch.write(
            pickBook.replacingOccurrences(of: "UID:bruno\r\n", with: "UID:bruno\r\nCATEGORIES:Work\r\n"), to: url)
        let (run, stdout) = try Self.run(
            ["pick", "--source", url.path, "--region", "US", "--group", "work"],
            steps: [["wait", "1/1"], ["send", "\r"]])
        #expect(run.status == 0)
        #expect(stdout == "Bruno Finstein <+14155550101>\n")
    }

    @Test func germanJapaneseAndArabicScreens() throws {
        for (language, columns, lines) in [("de", 40, 10), ("ja", 80, 24), ("ar", 60, 12)] {
            let (run, _) = try Self.run(
                ["pick", "--source", Self.book().path, "--region", "US", "--locale", language], columns: columns,
                lines: lines, steps: [["wait", "5/5"], ["snap"], ["send", "\u{1B}"]],
                environment: ["LANG": "\(language).UTF-8"])
            let screen = run.snaps[0]
            #expect(screen.count == lines)
            let literals = try CLI.run(["strings", "get", "Cancel", "--locale", language]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!literals.isEmpty && literals != "Cancel")
            if language == "ar" {
                #expect(screen[0].trimmingCharacters(in: .whitespaces).hasSuffix(literals), "\(screen)")
                #expect(screen[1].hasPrefix("5/5"))
            } else {
                #expect(screen[0].hasPrefix(literals), "\(screen)")
            }
        }
    }

    @Test func resizeRedrawsAtTheNewSize() throws {
        let (run, _) = try Self.run(
            ["pick", "--source", Self.book().path], columns: 40, lines: 10,
            steps: [
                ["wait", "Search contacts"], ["resize", 70, 14], ["wait", "0 contacts selected"], ["snap"],
                ["send", "\u{1B}"],
            ])
        let screen = run.snaps[0]
        #expect(screen.count == 14)
        #expect(screen[12].hasPrefix("0 contacts selected"))
        #expect(screen[13].hasPrefix("? Help  Tab Mark"))
        #expect(screen[0].hasSuffix("Select"))
        #expect(screen[0].count == 70)
    }

    @Test func sigtermAndSighupRestoreTheTerminalAndExit() throws {
        for (name, code) in [("TERM", Int32(143)), ("HUP", 129)] {
            let (run, stdout) = try Self.run(
                ["pick", "--source", Self.book().path], steps: [["wait", "Search contacts"], ["signal", name]])
            #expect(run.status == code)
            #expect(stdout.isEmpty)
        }
    }

    @Test func tintIsDrawnUnlessNoColor() throws {
        let (tinted, _) = try Self.run(
            ["pick", "--source", Self.book().path, "--tint", "red"],
            steps: [["wait", "Search contacts"], ["snap"], ["send", "\u{1B}"]])
        #expect(tinted.colors[0].contains("red"))
        let (plain, _) = try Self.run(
            ["pick", "--source", Self.book().path, "--tint", "red"],
            steps: [["wait", "Search contacts"], ["snap"], ["send", "\u{1B}"]], environment: ["NO_COLOR": "1"])
        #expect(plain.colors[0] == ["default"])
        // An empty NO_COLOR asks for nothing (no-color.org: "present and not an empty string").
        let (empty, _) = try Self.run(
            ["pick", "--source", Self.book().path, "--tint", "red"],
            steps: [["wait", "Search contacts"], ["snap"], ["send", "\u{1B}"]], environment: ["NO_COLOR": ""])
        #expect(empty.colors[0].contains("red"))
    }

    @Test func withoutATerminalItSaysSoAndExits2() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        p.arguments = ["-w", CLI.executable.path, "pick"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        p.standardInput = Pipe()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(text.contains("no terminal to draw on"), "\(text)")
    }

    /// Two Escs that arrive at once are two keys: the first closes the value chooser, the second cancels.
    @Test func escEscClosesTheChooserThenCancels() throws {
        let (run, stdout) = try Self.run(
            ["pick", "--source", Self.book().path, "--mode", "both"],
            steps: [
                ["wait", "Search contacts"], ["send", "anna"], ["wait", "1/"], ["send", "\u{1B}OC"], ["wait", "(•)"],
                ["send", "\u{1B}\u{1B}"],
            ])
        #expect(run.status == 130)
        #expect(stdout.isEmpty)
    }

    /// TERM=dumb and an unset TERM say what is wrong with the terminal's type (exit 2).
    @Test func dumbOrUnsetTermSaysWhy() throws {
        for (term, message) in [("dumb", "'dumb' cannot move its cursor"), ("", "TERM is not set")] {
            let (run, stdout) = try Self.run(
                ["pick", "--source", Self.book().path], columns: 120, steps: [["wait", message]],
                environment: ["TERM": term])
            #expect(run.status == 2)
            #expect(stdout.isEmpty)
        }
    }

    @Test func badEnableRuleIsAUsageErrorNamingTheColumn() throws {
        let r = try CLI.run(["pick", "--enable", "has:photo,has:fax"])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "--enable: column 11: has: expected photo, email, phone, birthday, nickname, org, got 'fax'"))
        let pin = try CLI.run(["pick", "--pin", "oops"])
        #expect(pin.status == 2)
        #expect(pin.stderr.contains("--pin: expected ID=TITLE, got 'oops'"))
    }
}
