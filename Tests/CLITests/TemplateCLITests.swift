import Foundation
import TestSupport
import Testing

@Suite("contacts render / templates")
struct TemplateCLITests {
    /// A scratch folder with a template, a partial and data.
    func scratch() throws -> URL {
        let dir = Scratch.path("tmplcli")
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("partials"), withIntermediateDirectories: true)
        try "Hi {{name}},\n{{#items}}\n- {{.}}\n{{/items}}\n{{> sig}}\n".write(
            to: dir.appendingPathComponent("mail.mustache"), atomically: true, encoding: .utf8)
        try "-- \n{{company}}".write(
            to: dir.appendingPathComponent("partials/sig.mustache"), atomically: true, encoding: .utf8)
        try #"{"name": "Ada <3", "items": ["a & b", "c"], "company": "Example & Co."}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func renderWithPartialsAndEscaping() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = [
            "render", "--template", dir.appendingPathComponent("mail.mustache").path,
            "--data", dir.appendingPathComponent("data.json").path, "--partials",
            dir.appendingPathComponent("partials").path,
        ]
        let html = try CLI.run(args)
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout == "Hi Ada &lt;3,\n- a &amp; b\n- c\n-- \nExample &amp; Co.")
        let text = try CLI.run(args + ["--escape", "text"])
        #expect(text.stdout == "Hi Ada <3,\n- a & b\n- c\n-- \nExample & Co.")
        // uri: each value URL-encoded, the template's own text (here its line breaks) kept.
        let uri = try CLI.run(args + ["--escape", "uri"])
        #expect(uri.stdout == "Hi Ada%20%3C3,\n- a%20%26%20b\n- c\n-- \nExample%20%26%20Co.", "\(uri.stdout)")
    }

    @Test func strictMissingValueNamesFileLineColumn() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"name": "Ada", "items": []}"#.write(
            to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let sig = dir.appendingPathComponent("partials/sig.mustache").path
        let r = try CLI.run([
            "render", "--template", dir.appendingPathComponent("mail.mustache").path,
            "--data", dir.appendingPathComponent("data.json").path,
            "--partials", dir.appendingPathComponent("partials").path, "--strict",
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(sig):2:1: no value for 'company'"), "\(r.stderr)")
    }

    @Test func badTemplateAndDataAreReportedWithPositions() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.mustache")
        try "ok\n{{#a}}\n{{/b}}".write(to: bad, atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", "--template", bad.path, "--data", dir.appendingPathComponent("data.json").path])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("\(bad.path):3:1: closing tag 'b' does not match 'a' opened at line 2, column 1"),
            "\(r.stderr)")
        let json = try CLI.run(
            ["render", "--template", bad.path, "--data", "-"], stdin: Data("{\"a\": [1,\n 2,,]}".utf8))
        #expect(json.status == 1)
        #expect(json.stderr.contains("<stdin>:2:4: expected a JSON value"), "\(json.stderr)")
        let usage = try CLI.run(["render", "--data", "x.json"])
        #expect(usage.status == 2)
        let escape = try CLI.run(["render", "--template", bad.path, "--data", "x.json", "--escape", "rtf"])
        #expect(escape.status == 2)
    }

    @Test func templatesList() throws {
        let r = try CLI.run(["templates", "list"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("invite") == true && lines.first?.contains("locale overrides: ar") == true)
        #expect(lines.last?.hasPrefix("share-contact") == true)
    }

    @Test func templatesRenderInGermanAsJSON() throws {
        let r = try CLI.run(["templates", "render", "invite", "--locale", "de", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        struct Message: Decodable {
            var subject: String
            var textBody: String
            var htmlBody: String?
            var messageBody: String?
            var locale: String
        }
        let m = try JSONDecoder().decode(Message.self, from: r.stdoutData)
        #expect(m.subject == "Ada Lovelace hat Sie zu Atlas eingeladen")
        #expect(m.locale == "de")
        #expect(m.textBody.contains("2 weitere Personen sind ebenfalls eingeladen: Alan Turing und Katherine Johnson."))
        #expect(m.htmlBody?.contains("<html lang=\"de\" dir=\"ltr\">") == true)
    }

    @Test func templatesRenderWithDataAndErrors() throws {
        let data =
            #"{"recipient": {"givenName": "Li"}, "sender": {"givenName": "Ada"}, "contact": {"givenName": "Bo"}, "phones": [], "emails": []}"#
        let r = try CLI.run(
            ["templates", "render", "share-contact", "--locale", "ja", "--data", "-"], stdin: Data(data.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Subject: Adaさんが連絡先を共有しました：Bo\nLocale: ja\n"))
        let missing = try CLI.run(
            ["templates", "render", "share-contact", "--data", "-", "--recipient", "li@example.com"],
            stdin: Data(#"{"phones": []}"#.utf8))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("for recipient li@example.com"), "\(missing.stderr)")
        let own = try CLI.run(
            ["templates", "render", "share-contact", "--locale", "de", "--data", "-"],
            stdin: Data(data.replacingOccurrences(of: "{\"recipient\"", with: "{\"lang\": \"fr\", \"recipient\"").utf8))
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout.contains("Locale: fr\n"), "\(own.stdout)")
        let unknown = try CLI.run(["templates", "render", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no template 'nope' (have: invite, share-contact)"))
    }
}
