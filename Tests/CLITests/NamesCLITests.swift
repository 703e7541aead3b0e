import Foundation
import TestSupport
import Testing

/// One name per contact (issue 18 items 3–5) through the command line: sorted and sectioned under the
/// name shown, the same name in `list`, `vcard inspect`, the To: header, greetings and draft file names
/// whoever reads it, and Japanese names searched by their reading.
@Suite struct NamesCLITests {
    /// (section title, [(id, name)]) of `list`/`search --json`.
    func sections(_ r: CLIResult) throws -> [(String, [(String, String)])] {
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], "\(r.stderr)")
        return (json["sections"] as? [[String: Any]] ?? []).map { s in
            (
                s["title"] as? String ?? "",
                (s["items"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0["name"] as? String ?? "") }
            )
        }
    }

    func section(of name: String, in sections: [(String, [(String, String)])]) -> String? {
        sections.first { $0.1.contains { $0.1 == name } }?.0
    }

    @Test func theSampleIsSortedUnderTheNameShown() throws {
        let plain = try sections(try CLI.run(["list", "--mode", "both", "--locale", "en", "--json"]))
        #expect(section(of: "Noah White", in: plain) == "N")
        #expect(plain.first { $0.0 == "A" }?.1.first?.1 != "Noah White")
        #expect(section(of: "Abby", in: plain) == nil)
        let zh = try sections(try CLI.run(["list", "--mode", "both", "--locale", "zh-Hans", "--json"]))
        #expect(section(of: "王伟", in: zh) == "W")
        // Nicknames stay searchable.
        let abby = try sections(try CLI.run(["search", "abby", "--mode", "both", "--json"]))
        #expect(abby.flatMap(\.1).map(\.1) == ["Noah White"])

        let nick = try sections(
            try CLI.run(["list", "--mode", "both", "--locale", "en", "--prefer-nicknames", "--json"]))
        #expect(nick.first { $0.0 == "A" }?.1.first?.1 == "Abby")
        #expect(section(of: "Noah White", in: nick) == nil)
        let nickZh = try sections(
            try CLI.run(["list", "--mode", "both", "--locale", "zh-Hans", "--prefer-nicknames", "--json"]))
        #expect(section(of: "小王", in: nickZh) == "X")
    }

    @Test func aSavedIndexIsKeptPerNicknameSetting() throws {
        let dir = try Scratch.directory("names-cli")
        let book = dir.appendingPathComponent("book.vcf")
        try Scratch.write(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:noah\r\nN:White;Noah;;;\r\nNICKNAME:Abby\r\nTEL:+1 206 555 0101\r\n"
                + "END:VCARD\r\n", to: book)
        let env = ["CONTACTS_INDEX_DIR": dir.appendingPathComponent("index").path]
        let built = try CLI.run(["index", "build", book.path, "--prefer-nicknames"], environment: env)
        #expect(built.status == 0, "\(built.stderr)")
        let nick = try CLI.run(["list", "--source", book.path, "--prefer-nicknames", "--json"], environment: env)
        #expect(try sections(nick).flatMap(\.1).map(\.1) == ["Abby"])
        let plain = try CLI.run(["list", "--source", book.path, "--json"], environment: env)
        #expect(try sections(plain).flatMap(\.1).map(\.1) == ["Noah White"])
    }

    @Test func japaneseNamesAreNotReadAsPinyinAndKoreanMatchesSyllables() throws {
        for keywords in [false, true] {
            let k = keywords ? ["--keywords"] : []
            let dubian = try sections(try CLI.run(["search", "dubian", "--mode", "both", "--json"] + k))
            #expect(dubian.isEmpty, "\(dubian)")
            let watanabe = try sections(try CLI.run(["search", "watanabe", "--mode", "both", "--json"] + k))
            #expect(watanabe.flatMap(\.1).map(\.1) == ["渡辺大輔"])
            let kanji = try sections(try CLI.run(["search", "渡辺", "--mode", "both", "--json"] + k))
            #expect(kanji.flatMap(\.1).map(\.1) == ["渡辺大輔"])
            let compact = try sections(try CLI.run(["search", "minjun", "--mode", "both", "--json"] + k))
            let spaced = try sections(try CLI.run(["search", "min jun", "--mode", "both", "--json"] + k))
            #expect(compact.flatMap(\.1).count >= 3)
            #expect(spaced.flatMap(\.1).map(\.0) == compact.flatMap(\.1).map(\.0))
        }
    }

    static let book =
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:john\r\nFN:John Smith\r\nN:Smith;John;;;\r\nEMAIL:john@example.com\r\n"
        + "END:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nUID:peter\r\nFN:Péter Nagy\r\nN:Nagy;Péter;;;\r\n"
        + "EMAIL:peter@example.hu\r\nLANG:hu\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nUID:an\r\n"
        + "N:Nguyễn;An;Văn;;\r\nEMAIL:an@example.vn\r\nLANG:vi\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\n"
        + "UID:taro\r\nFN:太郎 山田\r\nN:山田;太郎;;;\r\nEMAIL:taro@example.jp\r\nLANG:ja\r\nEND:VCARD\r\n"

    static let names = ["john": "John Smith", "peter": "Nagy Péter", "an": "Nguyễn Văn An", "taro": "山田太郎"]

    @Test func everyCommandShowsTheSameName() throws {
        let dir = try Scratch.directory("names-cli")
        let book = dir.appendingPathComponent("book.vcf")
        try Scratch.write(Self.book, to: book)
        for locale in ["en", "hu", "ja"] {
            let listed = try sections(
                try CLI.run(["list", "--source", book.path, "--mode", "email", "--locale", locale, "--json"]))
            let byID = Dictionary(uniqueKeysWithValues: listed.flatMap(\.1))
            #expect(byID == Self.names, "list --locale \(locale)")
        }
        let inspect = try CLI.run(["vcard", "inspect", book.path])
        for (id, name) in Self.names { #expect(inspect.stdout.contains("\(id)  \(name)\n"), "\(inspect.stdout)") }

        // Compose in Hungarian: John Smith stays given-first in the To: header, greeting and file name.
        try Scratch.write(
            "{{#fullName}}recipient{{/fullName}}", to: dir.appendingPathComponent("templates/names/subject.mustache"))
        try Scratch.write(
            "Hi {{recipient.name}}\n", to: dir.appendingPathComponent("templates/names/body.txt.mustache"))
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run([
            "compose", "--template", "names", "--templates", dir.appendingPathComponent("templates").path,
            "--source", book.path, "--ids", "john,peter,an,taro", "--mode", "email", "--locale", "hu",
            "--from", "ada@example.org", "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        for name in Self.names.values {
            let slug = name.lowercased().replacingOccurrences(of: " ", with: "-")
            #expect(files.contains { $0.hasSuffix("-\(slug).eml") }, "\(name): \(files)")
        }
        let john = try String(
            contentsOf: out.appendingPathComponent(try #require(files.first { $0.contains("john-smith") })),
            encoding: .utf8)
        #expect(john.contains("To: John Smith <john@example.com>\r\n"))
        #expect(john.contains("Subject: John Smith\r\n"))
        #expect(john.contains("Hi John Smith"))
        #expect(john.contains("Content-Language: hu\r\n"))
    }
}
