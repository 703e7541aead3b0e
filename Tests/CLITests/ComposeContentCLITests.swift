import Foundation
import TestSupport
import Testing

/// What a composed message holds, end to end: attachments only from the folders the user allowed (and
/// listed in the dry run), the language the template's words are in, a render that cannot run for hours,
/// and a library that keeps its good templates when one folder is broken.
@Suite("compose: what the recipient gets", .serialized)
struct ComposeContentCLITests {
    /// A folder with an address book of two people with LANG (fr, ar), a template library with `note`, and
    /// campaign data.
    func setup(_ label: String) throws -> URL {
        let dir = Scratch.path(label)
        let note = dir.appendingPathComponent("templates/note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Hello {{recipient.name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "Dear {{recipient.name}}, see {{url}}.\n".write(
            to: note.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        let book = """
            BEGIN:VCARD\r\nVERSION:4.0\r\nUID:amelie\r\nFN:Amélie Dupont\r\nN:Dupont;Amélie;;;\r
            EMAIL:amelie@example.fr\r\nLANG:fr\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nUID:mohammed\r
            FN:محمد علي\r\nN:علي;محمد;;;\r\nEMAIL:mohammed@example.org\r\nLANG:ar\r\nEND:VCARD\r\n
            """
        try book.write(to: dir.appendingPathComponent("book.vcf"), atomically: true, encoding: .utf8)
        try #"{"url": "https://example.com/x"}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        return dir
    }

    func compose(_ dir: URL, _ extra: [String], template: String = "note") -> [String] {
        [
            "compose", "--template", template, "--templates", dir.appendingPathComponent("templates").path,
            "--source", dir.appendingPathComponent("book.vcf").path, "--ids", "amelie,mohammed",
            "--data", dir.appendingPathComponent("data.json").path, "--from", "ada@example.org",
        ] + extra
    }

    /// The saved messages of `out`, by recipient id (the file names start with the list position).
    func messages(_ out: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) where file.hasSuffix(".eml") {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            result[text.contains("amelie@example.fr") ? "amelie" : "mohammed"] = text
        }
        return result
    }

    func header(_ name: String, in message: String?) -> String? {
        message?.components(separatedBy: "\r\n").first { $0.hasPrefix(name + ": ") }.map {
            String($0.dropFirst(name.count + 2))
        }
    }

    /// The decoded text body of a saved message (Python's email package).
    func textBody(_ message: String) throws -> String {
        let file = Scratch.path("body", suffix: ".eml")
        defer { try? FileManager.default.removeItem(at: file) }
        try message.write(to: file, atomically: true, encoding: .utf8)
        let script = """
            import email, email.policy, sys
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.default)
            sys.stdout.write(m.get_body(('plain',)).get_content().replace('\\r\\n', '\\n'))
            """
        return try runToEnd([DemoCLITests.python, "-c", script, file.path], environment: [:]).output
    }

    @Test("the attachments column reaches nothing outside the CSV's folder (links followed) without --attach-from")
    func attachmentsStayInsideTheFolder() throws {
        let dir = try setup("attach-inside")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let files = dir.appendingPathComponent("mail/files")
        try fm.createDirectory(at: files, withIntermediateDirectories: true)
        let pdf = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 1000)
        try Data(pdf).write(to: files.appendingPathComponent("plan.pdf"))
        // A link inside to a file inside is fine; links that point out are not.
        try fm.createSymbolicLink(
            atPath: files.appendingPathComponent("same.pdf").path, withDestinationPath: "plan.pdf")
        try fm.createSymbolicLink(
            atPath: files.appendingPathComponent("host").path, withDestinationPath: "/etc/hostname")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("mail/up").path, withDestinationPath: "..")
        let hostname = try Data(contentsOf: URL(fileURLWithPath: "/etc/hostname"))
        let csv = dir.appendingPathComponent("mail/guests.csv")
        let out = dir.appendingPathComponent("out")
        let up = String(repeating: "../", count: 40) + "etc/passwd"
        let cases: [(cell: String, shown: String)] = [
            (up, "\(up) (/etc/passwd)"),
            ("/etc/hostname", "/etc/hostname"), ("files/host", "files/host (/etc/hostname)"),
            ("up/book.vcf", "up/book.vcf (\(dir.path)/book.vcf)"),
        ]
        for (cell, shown) in cases {
            try "id,attachments\namelie,files/plan.pdf;files/same.pdf\nmohammed,\(cell)\n".write(
                to: csv, atomically: true, encoding: .utf8)
            try? fm.removeItem(at: out)
            let r = try CLI.run(compose(dir, ["--recipients", csv.path, "--out", out.path]))
            #expect(r.status == 1, "\(cell): \(r.stderr)")
            #expect(
                r.stderr.contains("guests.csv:3: column 'attachments': \(shown): outside the folder"), "\(r.stderr)")
            #expect(r.stderr.contains("--attach-from DIR"))
            let saved = try messages(out)
            #expect(saved.keys.sorted() == ["amelie"], "\(cell)")
            #expect(saved["amelie"]?.contains("filename=\"plan.pdf\"") == true)
            #expect(saved["amelie"]?.contains("filename=\"same.pdf\"") == true)
        }
        // --attach-from allows a folder (repeatable); the dry run lists each message's attachments and sizes.
        try "id,attachments\namelie,files/plan.pdf\nmohammed,/etc/hostname;files/host\n".write(
            to: csv, atomically: true, encoding: .utf8)
        let dry = try CLI.run(
            compose(
                dir,
                [
                    "--recipients", csv.path, "--attach-from", "/etc", "--attach-from", files.path,
                    "--smtp", "smtp://127.0.0.1:9",
                ]))
        #expect(dry.status == 0, "\(dry.stderr)")
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        let amelie = try #require(lines.firstIndex { $0.contains("amelie@example.fr") })
        #expect(lines[amelie + 1] == "  attachment \"plan.pdf\" (\(pdf.count) bytes)", "\(dry.stdout)")
        let mohammed = try #require(lines.firstIndex { $0.contains("mohammed@example.org") })
        #expect(lines[mohammed + 1] == "  attachment \"hostname\" (\(hostname.count) bytes)", "\(dry.stdout)")
        #expect(lines[mohammed + 2] == "  attachment \"host\" (\(hostname.count) bytes)", "\(dry.stdout)")
        let missing = try CLI.run(compose(dir, ["--attach-from", dir.appendingPathComponent("nope").path]))
        #expect(missing.status == 2 && missing.stderr.contains("--attach-from: \(dir.path)/nope: not a folder"))
    }

    @Test(
        "Content-Language is the template's language, never a recipient's LANG; isolates only where direction differs")
    func contentLanguageIsTheTemplates() throws {
        let dir = try setup("template-language")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        func run(_ extra: [String]) throws -> [String: String] {
            try? FileManager.default.removeItem(at: out)
            let r = try CLI.run(compose(dir, extra + ["--out", out.path]))
            #expect(r.status == 0, "\(r.stderr)")
            return try messages(out)
        }
        // No language declared: the campaign's locale.
        var saved = try run(["--locale", "en-GB"])
        #expect(header("Content-Language", in: saved["amelie"]) == "en-GB")
        #expect(header("Content-Language", in: saved["mohammed"]) == "en-GB")
        // English text: the Arabic name is isolated, the URL is not.
        #expect(try textBody(saved["mohammed"] ?? "") == "Dear \u{2068}محمد علي\u{2069}, see https://example.com/x.\n")
        #expect(try textBody(saved["amelie"] ?? "") == "Dear Amélie Dupont, see https://example.com/x.\n")
        // A `language` file in the template folder; --template-language over it.
        try "de\n".write(
            to: dir.appendingPathComponent("templates/note/language"), atomically: true, encoding: .utf8)
        saved = try run(["--locale", "en"])
        #expect(header("Content-Language", in: saved["amelie"]) == "de")
        #expect(header("Content-Language", in: saved["mohammed"]) == "de")
        saved = try run(["--locale", "en", "--template-language", "ar"])
        #expect(header("Content-Language", in: saved["mohammed"]) == "ar")
        // Arabic text: the Latin values are isolated, the Arabic name is not.
        #expect(try textBody(saved["mohammed"] ?? "") == "Dear محمد علي, see \u{2068}https://example.com/x\u{2069}.\n")
        #expect(
            try textBody(saved["amelie"] ?? "")
                == "Dear \u{2068}Amélie Dupont\u{2069}, see \u{2068}https://example.com/x\u{2069}.\n")
        // A body override for the recipient's language: that message is in it.
        try "Chère {{recipient.name}}\n".write(
            to: dir.appendingPathComponent("templates/note/body.txt.fr.mustache"), atomically: true, encoding: .utf8)
        saved = try run(["--locale", "en"])
        #expect(header("Content-Language", in: saved["amelie"]) == "fr")
        #expect(header("Content-Language", in: saved["mohammed"]) == "de")
        let bad = try CLI.run(compose(dir, ["--template-language", "not a tag", "--out", out.path]))
        #expect(bad.status == 2 && bad.stderr.contains("--template-language"), "\(bad.stderr)")
    }

    @Test("loops that print nothing stop at the work budget with an error naming template and line")
    func renderingHasAWorkBudget() throws {
        let dir = try setup("render-budget")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "Dear {{recipient.name}},\n{{#n}}{{#n}}\n{{#n}}{{/n}}\n{{/n}}{{/n}}done\n".write(
            to: dir.appendingPathComponent("templates/note/body.txt.mustache"), atomically: true, encoding: .utf8)
        let numbers = (1...1000).map(String.init).joined(separator: ",")
        try #"{"url": "x", "n": [\#(numbers)]}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        // The default budget (20,000,000 steps) takes a few seconds a recipient in a debug build under load:
        // a tenth of it shows the same stop (RenderOptions.maxSteps is the library's, tested there).
        let run = try BackgroundProcess(
            CLI.executable,
            compose(dir, ["--max-steps", "2000000", "--out", dir.appendingPathComponent("out").path]), scratch: dir)
        #expect(run.wait(timeout: 120), "the render did not end (1,000³ steps)")
        #expect(run.exitedWith == 1)
        #expect(
            run.stderr.contains("note/body.txt.mustache:3:1: rendering stopped after 2000000 steps for recipient"),
            "\(run.stderr)")
        #expect(run.stdout.contains("not rendered: 2 recipient(s)"), "\(run.stdout)")
        let bad = try CLI.run(compose(dir, ["--max-steps", "lots"]))
        #expect(bad.status == 2 && bad.stderr.contains("--max-steps"))
    }

    @Test("a broken template folder is refused alone, with its path; the others are used")
    func brokenTemplateIsRefusedAlone() throws {
        let dir = try setup("broken-template")
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = dir.appendingPathComponent("templates/broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try "Hi {{#open}}".write(
            to: broken.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "x".write(to: broken.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let good = try CLI.run(compose(dir, ["--out", out.path]))
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try messages(out).count == 2)
        #expect(good.stderr.contains("warning: template 'broken' (\(broken.path)): broken/subject.mustache:1:4"))
        let refused = try CLI.run(compose(dir, ["--out", out.path], template: "broken"))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("compose: template 'broken' (\(broken.path)): broken/subject.mustache:1:4"))
        let list = try CLI.run(["templates", "list", "--templates", dir.appendingPathComponent("templates").path])
        #expect(list.status == 0 && list.stdout.hasPrefix("note"), "\(list.stdout)\(list.stderr)")
        #expect(list.stderr.contains("template 'broken' (\(broken.path))"))
    }
}
