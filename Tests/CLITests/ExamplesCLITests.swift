import Foundation
import Synchronization
import TestSupport
import Testing

/// Every example a user reads runs as written on the embedded sample: each command line of the ```sh
/// blocks of README.md and of the pages in Documentation/, and each example of every command's `--help` (read from the built tool, as a user
/// sees it) is run by bash (`set -o pipefail`) with the built `contacts` first on PATH, in a scratch folder
/// that holds the files the examples name (below, `writeFixtures`) and is also HOME. The lines of one
/// README block run one after the other in one folder, as a user follows them; each `--help` example
/// runs in a folder of its own.
///
/// Rules the documentation follows:
/// - A README block whose fence is directly preceded by `<!-- examples: not run (REASON) -->` is not run
///   (it builds the project, fuzzes for minutes, …). Lines continued with a trailing `\` are one command;
///   `# …` comments are the shell's.
/// - An example exits 0, unless its line ends in a comment with `[exit N]`.
/// - Every `smtp://HOST[:PORT]` of an example is pointed at the project's test SMTP server
///   (Tests/ComposerTests/Fixtures/smtp_server.py, started for the run), so `--send` really sends.
/// - Every `https://dav.example.org` is pointed at a Radicale started for the run (``DAVTestServer``:
///   user ada, `~/.config/dav-password` holds its password), so `contacts sync` really syncs.
/// - `contacts search` examples find at least one contact of the sample.
@Suite struct ExamplesCLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Example: CustomStringConvertible {
        /// Where it is written: `README.md:165` or `contacts compose --help`.
        var origin: String
        var text: String
        var description: String { "\(origin): \(text)" }
    }

    // MARK: - Finding the examples

    /// The pages a user reads: README.md and every `Documentation/*.md`, by their path in the package.
    static func documentationPages() throws -> [String] {
        let pages = try FileManager.default.contentsOfDirectory(
            atPath: packageRoot.appendingPathComponent("Documentation").path)
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }

    /// The command lines of the ```sh blocks of README.md and the Documentation pages, with their line numbers.
    static func readmeExamples() throws -> (run: [[Example]], skipped: [Example]) {
        var run: [[Example]] = []
        var skipped: [Example] = []
        for page in try documentationPages() {
            let found = try examples(inPage: page)
            run += found.run
            skipped += found.skipped
        }
        return (run, skipped)
    }

    /// The command lines of one page's ```sh blocks.
    static func examples(inPage page: String) throws -> (run: [[Example]], skipped: [Example]) {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var run: [[Example]] = []
        var skipped: [Example] = []
        var i = 0
        while i < lines.count {
            guard lines[i].trimmingCharacters(in: .whitespaces) == "```sh" else {
                i += 1
                continue
            }
            let marker = i > 0 ? lines[i - 1].trimmingCharacters(in: .whitespaces) : ""
            let skip = marker.hasPrefix("<!-- examples: not run") && marker.hasSuffix("-->")
            i += 1
            var block: [Example] = []
            var pending: (line: Int, text: String)?
            while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces) != "```" {
                let line = lines[i]
                i += 1
                if pending == nil
                    && (line.trimmingCharacters(in: .whitespaces).isEmpty
                        || line.trimmingCharacters(in: .whitespaces).hasPrefix("#"))
                {
                    continue
                }
                var current = pending ?? (i, "")
                if line.hasSuffix("\\") {
                    current.text += line.dropLast() + " "
                    pending = current
                    continue
                }
                current.text += line
                pending = nil
                let example = Example(origin: "\(page):\(current.line)", text: current.text)
                if skip { skipped.append(example) } else { block.append(example) }
            }
            if !block.isEmpty { run.append(block) }
            i += 1
        }
        return (run, skipped)
    }

    /// The examples of every command's `--help`, as the built tool prints them.
    static func helpExamples() throws -> [Example] {
        let tool = try CLI.run(["--help"])
        var names: [String] = []
        var inCommands = false
        for line in tool.stdout.components(separatedBy: "\n") {
            if line == "Commands:" {
                inCommands = true
            } else if inCommands {
                guard line.hasPrefix("  ") else { break }
                let words = line.dropFirst(2).components(separatedBy: "  ")
                names.append(words[0])
            }
        }
        #expect(names.count > 10, "commands read from 'contacts --help': \(names)\n\(tool.stdout)")
        var examples: [Example] = []
        for name in names {
            let help = try CLI.run(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(help.status == 0, "contacts \(name) --help: \(help.stderr)")
            let lines = help.stdout.components(separatedBy: "\n")
            guard let start = lines.firstIndex(where: { $0 == "Example:" || $0 == "Examples:" }) else {
                Issue.record("contacts \(name) --help shows no example")
                continue
            }
            for line in lines[(start + 1)...] {
                guard line.hasPrefix("  ") else { break }
                examples.append(
                    Example(origin: "contacts \(name) --help", text: line.trimmingCharacters(in: .whitespaces)))
            }
        }
        return examples
    }

    // MARK: - The files the examples name

    /// An outbox of a run that left two messages uncertain (000017 and 000042: handed over, no reply),
    /// written the way `Outbox` writes one.
    static func writeOutbox(_ dir: URL) throws {
        let messages = dir.appendingPathComponent("messages")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        var journal = ""
        for id in ["000017", "000042"] {
            let eml =
                "Date: Thu, 01 Jan 2026 12:00:00 +0000\r\nFrom: ada@example.org\r\nTo: felipe.baytelman@example.com\r\n"
                + "Message-ID: <\(id)@example.org>\r\nSubject: Atlas\r\n\r\nHello\r\n"
            try Data(eml.utf8).write(to: messages.appendingPathComponent("\(id).eml"))
            journal +=
                #"{"at":1,"e":"queued","from":"ada@example.org","id":"\#(id)","label":"Felipe Baytelman","to":["felipe.baytelman@example.com"]}"#
                + "\n"
        }
        for id in ["000017", "000042"] {
            journal += #"{"at":2,"e":"attempt","id":"\#(id)"}"# + "\n" + #"{"at":2,"e":"commit","id":"\#(id)"}"# + "\n"
        }
        try Data(journal.utf8).write(to: dir.appendingPathComponent("journal.jsonl"))
    }

    /// The files and folders the examples name, written into `dir` (the examples' working folder and HOME).
    static func writeFixtures(_ dir: URL) throws {
        let fm = FileManager.default
        func write(_ name: String, _ text: String) throws {
            let url = dir.appendingPathComponent(name)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        // The CardDAV password of the examples (DAVTestServer), readable by its owner only.
        try write(".config/dav-password", "secret\n")
        chmod(dir.appendingPathComponent(".config/dav-password").path, 0o600)
        // A vdir folder (one .vcf per contact) for `contacts add --source family`.
        try fm.createDirectory(at: dir.appendingPathComponent("family"), withIntermediateDirectories: true)
        try write("names.txt", "Örjan\nZoe\nÅsa\nAnna\n42 Club\n山田太郎\nさとう\n张伟\n")
        // ICU MessageFormat 1 messages, one a line, for `contacts messageformat convert --file`.
        try write(
            "messages.txt",
            "{count, plural, one {# guest} other {# guests}}\n{gender, select, female {her} male {his} other {their}} book\n")
        let sample = packageRoot.appendingPathComponent("Sources/ContactsCore/Resources/sample.vcf")
        for name in ["contacts.vcf", "friends.vcf", "old.vcf", "big.vcf", "work.vcf"] {
            try fm.copyItem(at: sample, to: dir.appendingPathComponent(name))
        }
        try write("mail.mustache", "Hello {{name}}!\n{{> signature}}\n")
        try write("partials/signature.mustache", "-- {{from}}\n")
        try write("ctx.json", #"{"name": "Ada & Bob", "from": "Ada"}"#)
        try write("ada.json", #"{"name": "Ada", "from": "Ada Lovelace"}"#)
        try write(
            "invite.json",
            #"{"inviter": {"givenName": "Ada", "familyName": "Lovelace"}, "project": "Atlas", "url": "https://example.com/join", "expires": "2026-12-31"}"#
        )
        try write("extra.csv", "id,table\nfelipe-baytelman,4\nbruno-finstein,7\n")
        // Sheets for `vcard import`, bounces for `bounces read` (an mbox and a Maildir).
        try write("people.csv", "email;name;lang\nada@example.org;Ada Lovelace;en-GB\nbo@example.org;Bo Bay;de\n")
        try write("google-contacts.csv", "Given Name,Family Name,E-mail 1 - Value\nAda,Lovelace,ada@example.org\n")
        let dsn =
            "To: bounces+bo=example.org@example.org\nContent-Type: multipart/report; report-type=delivery-status;"
            + " boundary=b\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.net\n\n"
            + "Final-Recipient: rfc822; ada@example.org\nAction: failed\nStatus: 5.1.1\n--b--\n"
        try write("bounces.mbox", "From MAILER-DAEMON Thu Jan  1 12:00:00 2026\n" + dsn)
        try write("Mail/bounces/new/1767268800.M1P1.example", dsn)
        try fm.copyItem(
            at: packageRoot.appendingPathComponent("Sources/StringsCatalog/Localizations"),
            to: dir.appendingPathComponent("Localizations"))
        try writeOutbox(dir.appendingPathComponent("outbox-20260101-120000"))
        try fm.createDirectory(
            at: dir.appendingPathComponent(".local/share/bash-completion/completions"),
            withIntermediateDirectories: true)
        let xliff = try CLI.run(
            ["strings", "export-xliff", "--dir", "Localizations", "--out", "xliff", "--language", "de"],
            currentDirectory: dir)
        #expect(
            xliff.status == 0 && fm.fileExists(atPath: dir.appendingPathComponent("xliff/de.xliff").path),
            "fixture xliff/de.xliff: \(xliff.stderr)")
        let po = try CLI.run(["strings", "export-po", "--dir", "Localizations", "--out", "po"], currentDirectory: dir)
        #expect(
            po.status == 0 && fm.fileExists(atPath: dir.appendingPathComponent("po/Localizable/de.po").path),
            "fixture po/Localizable/de.po: \(po.stderr)")
    }

    // MARK: - Running them

    /// The project's SMTP test server (aiosmtpd, `Tests/ComposerTests/Fixtures/smtp_server.py`) on a free port,
    /// storing into `mailbox`; stopped when the returned server goes.
    static func mailServer(mailbox: URL) throws -> (server: ScriptServer, url: String) {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".venv").path
        let server = try ScriptServer(
            python: URL(fileURLWithPath: venv + "/bin/python"),
            script: packageRoot.appendingPathComponent("Tests/ComposerTests/Fixtures/smtp_server.py"),
            arguments: ["--mailbox", mailbox.path, "--mode", "plain"])
        return (server, "smtp://127.0.0.1:\(server.port)")
    }

    /// The exit status an example documents with `[exit N]` in its trailing comment, else 0.
    static func expectedStatus(_ text: String) -> Int32 {
        guard let hash = text.range(of: " #", options: .backwards) else { return 0 }
        let comment = text[hash.upperBound...]
        guard let open = comment.range(of: "[exit "), let close = comment[open.upperBound...].firstIndex(of: "]"),
            let n = Int32(comment[open.upperBound..<close])
        else { return 0 }
        return n
    }

    /// `text` with every `smtp://HOST[:PORT]` replaced by `server`.
    static func pointingSMTP(_ text: String, at server: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "smtp://") {
            out += rest[..<r.lowerBound] + server
            rest = rest[r.upperBound...].drop { !$0.isWhitespace && $0 != "\"" && $0 != "'" }
        }
        return out + rest
    }

    struct Outcome {
        var example: Example
        var command: String
        var status: Int32
        var output: String
    }

    /// Runs `examples` one after the other in a fresh copy of `fixtures`; the copy is removed afterwards.
    static func run(_ examples: [Example], fixtures: URL, smtp: String, dav: String) throws -> [Outcome] {
        let dir = Scratch.path("example")
        try FileManager.default.copyItem(at: fixtures, to: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        var env: [String: String?] = [
            "PATH": CLI.executable.deletingLastPathComponent().path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": dir.path, "NO_COLOR": "1", "MANPAGER": "cat", "PAGER": "cat",
        ]
        // Saved indexes and caches go under that HOME, not the user's.
        for key in ["XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "CONTACTS_INDEX_DIR"] {
            env[key] = .some(nil)
        }
        var outcomes: [Outcome] = []
        for example in examples {
            let command = pointingSMTP(example.text, at: smtp).replacingOccurrences(
                of: "https://dav.example.org", with: dav)
            let r = try runToEnd(
                ["timeout", "300", "bash", "-o", "pipefail", "-c", command], in: dir, environment: env)
            outcomes.append(Outcome(example: example, command: command, status: r.status, output: r.output))
        }
        return outcomes
    }

    /// Runs each group of examples (in parallel with the others) and records every one that fails.
    static func check(_ groups: [[Example]]) throws {
        let base = try Scratch.directory("examples")
        defer { try? FileManager.default.removeItem(at: base) }
        let fixtures = base.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try writeFixtures(fixtures)
        let (server, smtp) = try mailServer(mailbox: base.appendingPathComponent("mailbox"))
        defer { server.stop() }
        let (davServer, dav) = try DAVTestServer.radicale()
        defer { davServer.stop() }
        let outcomes = Mutex<[Int: [Outcome]]>([:])
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: groups.count) { i in
            do {
                let outcome = try run(groups[i], fixtures: fixtures, smtp: smtp, dav: dav)
                outcomes.withLock { $0[i] = outcome }
            } catch {
                errors.withLock { $0.append("\(groups[i].first.map(\.origin) ?? ""): could not run: \(error)") }
            }
        }
        for e in errors.withLock({ $0 }) { Issue.record(Comment(rawValue: e)) }
        for o in outcomes.withLock({ $0 }).sorted(by: { $0.key < $1.key }).flatMap(\.value) {
            let expected = expectedStatus(o.example.text)
            let shown = o.output.count > 3000 ? String(o.output.prefix(3000)) + "\n…" : o.output
            let ran = o.command == o.example.text ? "" : "\n(ran as: \(o.command))"
            if o.status != expected {
                Issue.record(
                    Comment(
                        rawValue:
                            "\(o.example): exit \(o.status), expected \(expected)\(ran)\n--- output:\n\(shown)"))
            } else if o.example.text.hasPrefix("contacts search ") && !o.output.contains("@")
                && !o.output.contains("+")
            {
                Issue.record(Comment(rawValue: "\(o.example): found nothing in the sample\n--- output:\n\(shown)"))
            }
        }
    }

    @Test("every command line of the sh blocks of README.md and Documentation/*.md runs as written")
    func readmeExamplesRun() throws {
        let (run, skipped) = try Self.readmeExamples()
        #expect(run.joined().count >= 15, "README examples found: \(run)")
        #expect(
            skipped.allSatisfy { !$0.text.hasPrefix("contacts") }, "only non-contacts blocks are skipped: \(skipped)")
        for example in run.joined() {
            #expect(!example.text.contains("…"), "\(example): a placeholder '…' is not runnable")
        }
        try Self.check(run)
    }

    @Test("every example of every command's --help runs as written")
    func helpExamplesRun() throws {
        let examples = try Self.helpExamples()
        #expect(examples.count >= 20, "help examples found: \(examples)")
        try Self.check(examples.map { [$0] })
    }

    @Test("the README's keyword search is true of the sample: 'f b' finds Felipe Baytelman and Bruno Finstein")
    func keywordSearchOfTheReadme() throws {
        let r = try CLI.run(["search", "f b", "--keywords", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Felipe Baytelman") && r.stdout.contains("Bruno Finstein"), "\(r.stdout)")
    }
}
