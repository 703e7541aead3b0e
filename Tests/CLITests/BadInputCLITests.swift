import Foundation
import TestSupport
import Testing

/// Bad input through the command line: a clear error naming the file and place, exit 1, and every good
/// item of the batch still done.
@Suite struct BadInputCLITests {
    /// A temporary folder, removed by `body`'s end.
    func withTempDir<T>(_ body: (URL) throws -> T) throws -> T {
        let url = Scratch.path("bad-input")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static let deep = String(repeating: "{a, select, other {", count: 3600) + "x" + String(repeating: "}}", count: 3600)

    static func card(_ id: String, _ given: String, _ email: String, lang: String) -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(id)\r\nFN:\(given) Test\r\nN:Test;\(given);;;\r\nEMAIL:\(email)\r\n"
            + "LANG:\(lang)\r\nEND:VCARD\r\n"
    }

    /// A "greet" template whose words come from `strings/`, and three contacts (en, de, en).
    func greetSetup(_ dir: URL, deValue: String) throws {
        try write("{{#t}}subject{{/t}}", dir.appendingPathComponent("templates/greet/subject.mustache"))
        try write("{{#t}}hi{{/t}} {{pad}}\n", dir.appendingPathComponent("templates/greet/body.txt.mustache"))
        try write(
            "\"subject\" = \"Hello\";\n\"hi\" = \"Hi {a}\";\n",
            dir.appendingPathComponent("strings/en.lproj/greet.strings"))
        try write(
            "\"subject\" = \"Hallo\";\n\"hi\" = \"\(deValue)\";\n",
            dir.appendingPathComponent("strings/de.lproj/greet.strings"))
        try write(
            Self.card("u1", "Anna", "anna@example.com", lang: "en")
                + Self.card("u2", "Bernd", "bernd@example.de", lang: "de")
                + Self.card("u3", "Cleo", "cleo@example.com", lang: "en"),
            dir.appendingPathComponent("book.vcf"))
        try write(#"{"a": "q", "pad": "-"}"#, dir.appendingPathComponent("data.json"))
    }

    func compose(_ dir: URL, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(
            [
                "compose", "--template", "greet", "--templates", dir.appendingPathComponent("templates").path,
                "--strings", dir.appendingPathComponent("strings").path,
                "--source", dir.appendingPathComponent("book.vcf").path, "--ids", "u1,u2,u3", "--mode", "email",
                "--data", dir.appendingPathComponent("data.json").path, "--from", "ada@example.org",
                "--out", dir.appendingPathComponent("out").path,
            ] + extra)
    }

    func drafts(_ dir: URL) throws -> [String] {
        let out = dir.appendingPathComponent("out")
        return try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }.map {
            try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8)
        }
    }

    @Test func composeSkipsOnlyTheRecipientsOfATooDeeplyNestedTranslation() throws {
        try withTempDir { dir in
            try greetSetup(dir, deValue: Self.deep)
            let r = try compose(dir)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("Bernd Test"))
            #expect(r.stderr.contains("message 'hi' in table 'greet' (de)"))
            #expect(r.stderr.contains("more than 64 levels deep at line 1, column \(65 * 19)"))
            let texts = try drafts(dir)
            #expect(texts.count == 2)
            #expect(texts.filter { $0.contains("Hi q -") }.count == 2)
            #expect(r.stdout.contains("not rendered: 1 recipient(s)"))
        }
    }

    @Test func stringsLintReportsTheNestedTranslation() throws {
        try withTempDir { dir in
            try greetSetup(dir, deValue: Self.deep)
            let strings = dir.appendingPathComponent("strings").path
            let r = try CLI.run(["strings", "lint", strings])
            #expect(r.status == 1)
            // The value's opening quote is at column 8 of line 2; level 65 opens 65 × 19 scalars further.
            #expect(
                r.stdout.contains(
                    "\(strings)/de.lproj/greet.strings:2:\(8 + 65 * 19): error [message-nesting] \"hi\" (de): sub-messages nest more than 64 levels"
                ), "\(r.stdout)")
        }
    }

    @Test func composeSkipsOnlyTheRecipientWhoseRenderIsTooLarge() throws {
        try withTempDir { dir in
            try greetSetup(dir, deValue: "Hallo {a}")
            let big = String(repeating: "x", count: 5000)
            try write(
                #"[{"id": "u3", "pad": "\#(big)"}]"#, dir.appendingPathComponent("rows.json"))
            let r = try compose(
                dir, ["--max-output", "4K", "--recipients", dir.appendingPathComponent("rows.json").path])
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("Cleo Test"))
            #expect(r.stderr.contains("greet/body.txt.mustache:1:"))
            #expect(r.stderr.contains("output exceeds the limit of 4 KiB"))
            #expect(try drafts(dir).count == 2)
            let usage = try compose(dir, ["--max-output", "lots"])
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("--max-output: expected a size"))
        }
    }

    /// A strings folder with a damaged file stops every command that renders from it, before anything is
    /// written: the error names file, line and column (a partly read value would otherwise be rendered).
    @Test func renderingCommandsRefuseADamagedStringsFolder() throws {
        try withTempDir { dir in
            try greetSetup(dir, deValue: "Hallo {a}")
            let de = dir.appendingPathComponent("strings/de.lproj/greet.strings")
            try write("\"subject\" = \"Hallo\";\n\"hi\" = \"Hallo {a}\"\n\"x\" = 1;\n", de)
            try write("{{#t}}hi{{/t}}", dir.appendingPathComponent("t.mustache"))
            let strings = dir.appendingPathComponent("strings").path
            let runs: [[String]] = [
                [
                    "render", "--template", dir.appendingPathComponent("t.mustache").path, "--data",
                    dir.appendingPathComponent("data.json").path, "--strings", strings, "--table", "greet",
                    "--locale", "de",
                ],
                [
                    "templates", "render", "greet", "--templates", dir.appendingPathComponent("templates").path,
                    "--strings", strings, "--data", dir.appendingPathComponent("data.json").path,
                ],
            ]
            for args in runs {
                let r = try CLI.run(args)
                #expect(r.status == 1, "\(args): \(r)")
                #expect(r.stderr.contains("de.lproj/greet.strings:2:19:"), "\(args): \(r.stderr)")
                #expect(r.stderr.contains("nothing done"), "\(args): \(r.stderr)")
                #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
            }
            let r = try compose(dir)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("de.lproj/greet.strings:2:19:"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
            // A folder with no localization files at all is said to be one.
            let empty = dir.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let none = try CLI.run(Array(runs[0].prefix(5)) + ["--strings", empty.path])
            #expect(none.status == 1 && none.stderr.contains("no localization files in"), "\(none.stderr)")
            // Mended, the same commands render.
            try write("\"subject\" = \"Hallo\";\n\"hi\" = \"Hallo {a}\";\n", de)
            let fixed = try CLI.run(runs[0])
            #expect(fixed.status == 0 && fixed.stdout == "Hallo q", "\(fixed)")
        }
    }

    @Test func renderStopsAFannedOutTemplateAtTheLimit() throws {
        try withTempDir { dir in
            let partials = dir.appendingPathComponent("partials")
            try write("0123456789", partials.appendingPathComponent("p0.mustache"))
            for k in 1...8 {
                try write(
                    String(repeating: "{{>p\(k - 1)}}", count: 10), partials.appendingPathComponent("p\(k).mustache"))
            }
            try write("{{>p8}}", dir.appendingPathComponent("bomb.mustache"))
            try write("{}", dir.appendingPathComponent("data.json"))
            let r = try CLI.run([
                "render", "--template", dir.appendingPathComponent("bomb.mustache").path,
                "--data", dir.appendingPathComponent("data.json").path, "--partials", partials.path,
                "--max-output", "1M",
            ])
            #expect(r.status == 1)
            #expect(r.stderr.contains("output exceeds the limit of 1 MiB"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    // MARK: terminal escapes

    /// ESC [ 2 J clears the screen, BEL rings, U+202E reverses the line, U+009B is the C1 CSI, U+2066 an
    /// isolate.
    static let evilName = "Eve\u{1B}[2J\u{07}\u{202E}moc.evil\u{9B}1m\u{2066}"

    static let escapedName = #"Eve\u{1B}[2J\u{7}\u{202E}moc.evil\u{9B}1m\u{2066}"#

    func expectNoControls(_ text: String, _ what: String) {
        let bad = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
        #expect(bad.isEmpty, "\(what): \(bad.map { String($0.value, radix: 16) })")
    }

    @Test func contactNamesCannotDriveTheTerminal() throws {
        try withTempDir { dir in
            let vcf = dir.appendingPathComponent("evil.vcf")
            try write(
                "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:evil\u{1B}[31m\r\nFN:\(Self.evilName)\r\nN:;\(Self.evilName);;;\r\n"
                    + "EMAIL;TYPE=home:eve@example.com\r\nTEL:+1 415 555 0100\r\nEND:VCARD\r\n", vcf)
            for args in [
                ["vcard", "inspect", vcf.path], ["list", "--source", vcf.path, "--mode", "both"],
                ["search", "eve", "--source", vcf.path, "--mode", "email"],
            ] {
                let r = try CLI.run(args)
                #expect(r.status == 0, "\(args): \(r.stderr)")
                expectNoControls(r.stdout, "\(args)")
                #expect(r.stdout.contains(Self.escapedName), "\(args): \(r.stdout)")
                // JSON stays exact.
                let json = try CLI.run(args + ["--json"])
                #expect(json.stdout.contains(#"Eve\u001b[2J\u0007"# + "\u{202E}moc.evil\u{9B}1m\u{2066}"), "\(args)")
            }
            let inspect = try CLI.run(["vcard", "inspect", vcf.path])
            #expect(inspect.stdout.hasPrefix(#"evil\u{1B}[31m  "#))
        }
    }

    @Test func outboxStatusShowsLabelsAndErrorsVisibly() throws {
        try withTempDir { dir in
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("messages"), withIntermediateDirectories: true)
            try Data("From: a@example.com\r\nTo: b@example.com\r\nSubject: x\r\n\r\nx\r\n".utf8).write(
                to: dir.appendingPathComponent("messages/000001.eml"))
            let journal =
                #"{"at":1,"e":"queued","from":"a@example.com","id":"000001","label":"Eve\u001b[2J\u202e","to":["b@example.com"]}"#
                + "\n" + #"{"at":2,"e":"attempt","id":"000001"}"# + "\n"
                + #"{"at":3,"code":550,"e":"failed","error":"SMTP 550: no\u001b]8;;http://x\u0007","id":"000001"}"#
                + "\n"
            try Data(journal.utf8).write(to: dir.appendingPathComponent("journal.jsonl"))
            let r = try CLI.run(["outbox", "status", dir.path])
            #expect(r.status == 0, "\(r.stderr)")
            expectNoControls(r.stdout, "outbox status")
            #expect(r.stdout.contains(#"(Eve\u{1B}[2J\u{202E})"#), "\(r.stdout)")
            #expect(r.stdout.contains(#"SMTP 550: no\u{1B}]8;;http://x\u{7}"#))
            let json = try CLI.run(["outbox", "status", dir.path, "--json"])
            #expect(json.stdout.contains(#"Eve\u001b[2J\#u{202E}"#), "\(json.stdout)")
        }
    }
}
