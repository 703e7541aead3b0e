import Foundation
import TestSupport
import Testing

/// `--source` takes a vCard file, stdin or a vdir folder, and several at once (issue 20, item 1).
@Suite struct SourcesCLITests {
    static func card(_ uid: String, _ given: String, _ family: String, _ email: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\n"
            + "EMAIL:\(email)\r\nEND:VCARD\r\n"
    }

    /// A vdir with two contacts (file names that are not the UID), a temporary file and a file without
    /// extension (not contacts), and a displayname.
    static func vdir() throws -> URL {
        let dir = try Scratch.directory("sources-vdir")
        try Scratch.write(card("u-anna", "Anna", "Berg", "anna@example.org"), to: dir.appendingPathComponent("1.vcf"))
        try Scratch.write(
            card("u-boris", "Boris", "Ivanov", "boris@example.com"), to: dir.appendingPathComponent("2.vcf"))
        try Scratch.write(
            card("u-tmp", "Tom", "Temp", "tom@example.com"), to: dir.appendingPathComponent(".2.vcf-1.tmp"))
        try Scratch.write(card("u-no", "Nora", "Noext", "nora@example.com"), to: dir.appendingPathComponent("README"))
        try Scratch.write("Work", to: dir.appendingPathComponent("displayname"))
        return dir
    }

    @Test func listSearchAndInspectReadAVDir() throws {
        let dir = try Self.vdir()
        let list = try CLI.run(["list", "--source", dir.path, "--mode", "email", "--locale", "en"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Anna Berg  <anna@example.org>"))
        #expect(list.stdout.contains("Boris Ivanov  <boris@example.com>"))
        #expect(!list.stdout.contains("Temp") && !list.stdout.contains("Noext"))
        #expect(list.stdout.hasSuffix("2 contacts\n"))
        let search = try CLI.run(["search", "bor", "--source", dir.path, "--mode", "email", "--locale", "en"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("Boris Ivanov") && !search.stdout.contains("Anna"))
        let inspect = try CLI.run(["vcard", "inspect", dir.path])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("u-anna  Anna Berg"))
        #expect(inspect.stdout.hasSuffix("2 contacts, 0 groups, 0 problems\n"))
    }

    /// Several sources are one list; the list's duplicate rule drops the second copy of a person; JSON rows
    /// name their source (and a vdir's displayname); stdin is one of them.
    @Test func severalSourcesAreOneListAndJSONNamesTheSource() throws {
        let dir = try Self.vdir()
        let file = Scratch.path("sources", suffix: ".vcf")
        try Scratch.write(
            Self.card("u-anna", "Anna", "Berg", "anna@example.org")
                + Self.card("u-cleo", "Cleo", "Dahl", "cleo@example.net"),
            to: file)
        let stdin = Self.card("u-dana", "Dana", "Eck", "dana@example.net")
        let r = try CLI.run(
            [
                "list", "--source", dir.path, "--source", file.path, "--source", "-", "--mode", "email", "--json",
                "--locale", "en",
            ],
            stdin: Data(stdin.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        let items = sections.flatMap { ($0["items"] as? [[String: Any]]) ?? [] }
        let byName = Dictionary(items.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(items.count == 4, "\(items)")
        #expect(byName["Anna Berg"]?["source"] as? String == dir.path)
        #expect(byName["Cleo Dahl"]?["source"] as? String == file.path)
        #expect(byName["Dana Eck"]?["source"] as? String == "<stdin>")
        #expect(byName["Boris Ivanov"]?["id"] as? String == "u-boris")
        // The vdir's displayname (vdirsyncer's metadata file) names its rows' book; a file has none.
        #expect(byName["Anna Berg"]?["sourceName"] as? String == "Work")
        #expect(byName["Boris Ivanov"]?["sourceName"] as? String == "Work")
        #expect(byName["Cleo Dahl"]?["sourceName"] == nil)
        #expect(byName["Dana Eck"]?["sourceName"] == nil)
        // The same UID in two sources: the second copy is renamed, noted on stderr, and left out as a duplicate.
        #expect(r.stderr.contains("duplicate UID 'u-anna'"), "\(r.stderr)")
        // One source: rows as before, without "source".
        let one = try CLI.run(["list", "--source", file.path, "--mode", "email", "--json", "--locale", "en"])
        #expect(one.status == 0)
        #expect(!one.stdout.contains("\"source\""))
    }

    /// `groups` and `compose` read several sources as one book too: a category from each, drafts to both.
    @Test func groupsAndComposeReadSeveralSources() throws {
        let dir = try Self.vdir()
        let file = Scratch.path("sources-groups", suffix: ".vcf")
        let cleo = Self.card("u-cleo", "Cleo", "Dahl", "cleo@example.net")
        try Scratch.write(cleo.replacingOccurrences(of: "END:VCARD", with: "CATEGORIES:Team\r\nEND:VCARD"), to: file)
        try Scratch.write(
            Self.card("u-boris", "Boris", "Ivanov", "boris@example.com")
                .replacingOccurrences(of: "END:VCARD", with: "CATEGORIES:Team\r\nEND:VCARD"),
            to: dir.appendingPathComponent("2.vcf"))
        let groups = try CLI.run(["groups", "--source", dir.path, "--source", file.path, "--json"])
        #expect(groups.status == 0, "\(groups.stderr)")
        #expect(
            groups.stdout.contains("\"members\" : 2") || groups.stdout.contains("\"members\":2"), "\(groups.stdout)")
        let out = Scratch.path("sources-drafts", suffix: "")
        let data = Scratch.path("sources-data", suffix: ".json")
        try Scratch.write(
            #"{"inviter": {"givenName": "Ada", "familyName": "Lovelace"}, "project": "Atlas", "url": "https://example.com/j", "expires": "2026-12-31"}"#,
            to: data)
        let compose = try CLI.run([
            "compose", "--source", dir.path, "--source", file.path, "--group", "Team", "--template", "invite",
            "--data", data.path, "--out", out.path, "--locale", "en", "--from", "Ada <ada@example.org>",
        ])
        #expect(compose.status == 0, "\(compose.stderr)")
        let drafts = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(drafts.filter { $0.hasSuffix(".eml") }.count == 2, "\(drafts)")
    }

    @Test func aMissingSourceAmongSeveralIsAClearError() throws {
        let dir = try Self.vdir()
        let missing = Scratch.path("missing", suffix: ".vcf")
        let r = try CLI.run(["list", "--source", dir.path, "--source", missing.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no such file: \(missing.path)"), "\(r.stderr)")
    }

    /// khard (from PyPI, in the project's venv) lists a vdir written by `contacts add` and `contacts edit`
    /// (issue 20, item 10).
    @Test func khardListsTheVDir() throws {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".venv").path
        let dir = try Scratch.directory("khard-vdir")
        let added = try CLI.run([
            "add", "--source", dir.path, "--given", "Ada", "--family", "Lovelace", "--email", "ada@example.org",
            "--phone", "+44 20 7946 0000", "--add-to-group", "Friends",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let edited = try CLI.run([
            "edit", id, "--source", dir.path, "--set", "N=Byron;Ada;;;", "--add", "X-TWITTER=@ada",
        ])
        #expect(edited.status == 0, "\(edited.stderr)")
        let config = Scratch.path("khard", suffix: ".conf")
        try Scratch.write(
            "[addressbooks]\n[[family]]\npath = \(dir.path)\n\n[general]\neditor = /bin/true\nmerge_editor = /bin/true\n",
            to: config)
        let list = try runToEnd([venv + "/bin/khard", "-c", config.path, "list", "--parsable"])
        #expect(list.status == 0, "\(list.output)")
        #expect(list.output == "\(id)\tAda Byron\tfamily\n", "\(list.output)")
        let emails = try runToEnd([venv + "/bin/khard", "-c", config.path, "email", "--parsable"])
        #expect(emails.output.contains("ada@example.org\tAda Byron"), "\(emails.output)")
    }

    /// `add`, `edit` and `delete` on a vCard file: the new id is printed, other cards keep their bytes, bad
    /// values are usage errors that change nothing, an unknown id is a failure.
    @Test func addEditAndDeleteInAFile() throws {
        let file = Scratch.path("edit-cli", suffix: ".vcf")
        let other = Self.card("u-boris", "Boris", "Ivanov", "boris@example.com")
        try Scratch.write(other, to: file)
        let added = try CLI.run([
            "add", "--source", file.path, "--given", "Cleo", "--family", "Dahl", "--set", "X-ROOM=4",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 36)
        var text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix(other) && text.contains("X-ROOM:4"))
        let bad = try CLI.run(["edit", id, "--source", file.path, "--set", "EMAIL=nope"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("EMAIL: 'nope' is not an email address"), "\(bad.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
        let unknown = try CLI.run(["delete", "nobody", "--source", file.path])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no contact with id 'nobody'"))
        let edit = try CLI.run([
            "edit", id, "--source", file.path, "--remove", "X-ROOM", "--add", "EMAIL=cleo@example.net",
        ])
        #expect(edit.status == 0, "\(edit.stderr)")
        text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("X-ROOM") && text.contains("EMAIL:cleo@example.net"))
        let deleted = try CLI.run(["delete", id, "--source", file.path])
        #expect(deleted.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == other)
    }
}
