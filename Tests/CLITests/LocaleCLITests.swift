import Foundation
import TestSupport
import Testing

/// `--locale` as users type it: a list of locales, and a malformed one refused (issue 18, items 9 and 12).
@Suite struct LocaleCLITests {
    /// The commands of the tool, from `contacts --help`.
    static func commands() throws -> [String] {
        let help = try CLI.run(["--help"]).stdout
        return help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = words.first, first.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            // "index build", "vcard inspect": a group word and its command.
            let two = words.count > 1 && line.contains(words[0] + " " + words[1] + "  ")
            return two ? "\(words[0]) \(words[1])" : String(first)
        }
    }

    @Test("every command taking --locale refuses a malformed one with a usage error naming BCP 47")
    func malformedLocaleIsAUsageError() throws {
        let all = try Self.commands()
        #expect(all.contains("sort") && all.contains("vcard inspect") && all.contains("templates render"))
        // What each command needs besides --locale (the locale is checked before anything is read).
        let required: [String: [String]] = [
            "search": ["anna"], "query": ["anna"], "index build": ["/nonexistent/book.vcf"],
            "compose": ["--template", "invite", "--query", "a"], "vcard inspect": ["-"], "strings get": ["Select"],
            "render": ["--template", "/nonexistent/t.mustache", "--data", "/nonexistent/d.json"],
            "templates render": ["invite"],
        ]
        var checked: [String] = []
        for command in all {
            let words = command.split(separator: " ").map(String.init)
            let help = try CLI.run(words + ["--help"]).stdout
            guard help.contains("--locale") else { continue }
            checked.append(command)
            for bad in ["xx-INVALID", "", "en,,de", "en-"] {
                let r = try CLI.run(words + (required[command] ?? []) + ["--locale", bad], stdin: Data())
                #expect(r.status == 2, "\(command) --locale '\(bad)': \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("--locale") && r.stderr.contains("BCP 47"), "\(command): \(r.stderr)")
            }
        }
        #expect(
            Set(checked).isSuperset(of: [
                "sort", "sections", "list", "search", "index build", "compose", "vcard inspect", "strings get",
                "render", "templates render", "demo",
            ]), "\(checked)")
    }

    @Test("well-formed locales in BCP 47 and POSIX forms stay accepted")
    func acceptedForms() throws {
        for locale in ["de-u-co-phonebk", "zh-Hans", "sr-Latn", "en_US", "de_DE.UTF-8", "en,zh-Hans", "en:zh_CN"] {
            let r = try CLI.run(["sort", "--locale", locale], stdin: Data("b\na\n".utf8))
            #expect(r.status == 0, "\(locale): \(r.stderr)")
            #expect(r.stdout == "a\nb\n")
        }
    }

    struct JSONSection: Decodable {
        var title: String
        var items: [String]
    }

    @Test("a list of locales sorts by the first and files Chinese names under their Pinyin letter")
    func englishAndChineseList() throws {
        let names = Data("Walter\n王伟\nZorn\n张伟\nБорис\nأحمد\n42\n".utf8)
        func sections(_ args: [String], environment: [String: String] = [:]) throws -> [String: [String]] {
            let r = try CLI.run(["sections", "--json"] + args, stdin: names, environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
            let list = try JSONDecoder().decode([JSONSection].self, from: r.stdoutData)
            return Dictionary(list.map { ($0.title, $0.items) }, uniquingKeysWith: { a, _ in a })
        }
        let list = try sections(["--locale", "en,zh-Hans"])
        #expect(list["W"] == ["Walter", "王伟"])
        #expect(list["Z"] == ["张伟", "Zorn"])
        #expect(list["Б"] == ["Борис"])
        #expect(list["ا"] == ["أحمد"])
        #expect(list["#"] == ["42"])
        // The environment's list (LANGUAGE, as gettext reads it) does the same.
        let env = try sections([], environment: ["LANGUAGE": "en:zh_CN", "LC_ALL": "", "LANG": "en_US.UTF-8"])
        #expect(env == list)
        // English alone: the Han names have no letter.
        #expect(try sections(["--locale", "en"])["#"] == ["42", "张伟", "王伟"])
    }

    @Test("list and search take the list too, and a saved index is kept per list")
    func listWithLocaleList() throws {
        let folder = try Scratch.directory("locale-list-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.vcf")
        let cards = [("Walter", "Smith", "+1 206 555 0100"), ("伟", "王", "+86 10 5555 0100")].map {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\($1)\($0)\r\nN:\($1);\($0);;;\r\nTEL:\($2)\r\nEND:VCARD\r\n"
        }
        try Data(cards.joined().utf8).write(to: book)
        let env = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        struct Listing: Decodable {
            struct Section: Decodable {
                struct Item: Decodable { var name: String }
                var title: String
                var items: [Item]
            }
            var sections: [Section]
        }
        func titles(_ locale: String) throws -> [String: [String]] {
            let r = try CLI.run(["list", "--source", book.path, "--locale", locale, "--json"], environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            let listing = try JSONDecoder().decode(Listing.self, from: r.stdoutData)
            return Dictionary(
                listing.sections.map { ($0.title, $0.items.map(\.name)) }, uniquingKeysWith: { a, _ in a })
        }
        let built = try CLI.run(["index", "build", book.path, "--locale", "en"], environment: env)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try titles("en")["#"] == ["王伟"])
        // The saved index of "en" does not answer for "en,zh-Hans".
        #expect(try titles("en,zh-Hans")["W"] == ["Walter Smith", "王伟"])
        #expect(try titles("en")["#"] == ["王伟"])
    }
}
