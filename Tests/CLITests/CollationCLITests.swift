import Foundation
import TestSupport
import Testing

@Suite struct CollationCLITests {
    @Test func sortSwedish() throws {
        let r = try CLI.run(["sort", "--locale", "sv", "-"], stdin: Data("Örjan\nZoe\r\nÅsa\n\nAnna\n".utf8))
        #expect(r.status == 0)
        #expect(r.stdout == "Anna\nZoe\nÅsa\nÖrjan\n")
    }

    @Test func sortJSON() throws {
        let r = try CLI.run(["sort", "--locale", "de", "--json"], stdin: Data("Zorn\nÄrger\nAdam\n".utf8))
        #expect(r.status == 0)
        #expect(try JSONDecoder().decode([String].self, from: r.stdoutData) == ["Adam", "Ärger", "Zorn"])
    }

    @Test func sectionsJSON() throws {
        let input = "Örjan\nAnna\n42 Club\n😀 Fan\nZoe\n"
        let r = try CLI.run(["sections", "--locale", "sv", "--json"], stdin: Data(input.utf8))
        #expect(r.status == 0)
        struct S: Decodable, Equatable {
            var title: String
            var items: [String]
        }
        let sections = try JSONDecoder().decode([S].self, from: r.stdoutData)
        #expect(sections.map(\.title) == ["A", "Z", "Ö", "#"])
        #expect(sections.last?.items.count == 2)
    }

    @Test func sectionsListingHasIndexBar() throws {
        let r = try CLI.run(["sections", "--locale", "ja", "-"], stdin: Data("さとう\nSmith\n".utf8))
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Index: A B C"))
        #expect(r.stdout.contains("さ (1)\n  さとう"))
    }

    @Test func invalidUTF8IsReportedWithLineAndOtherNamesKept() throws {
        var bytes = Data("Anna\n".utf8)
        bytes.append(contentsOf: [0x42, 0xFF, 0x0A])
        bytes.append(Data("Zoe\n".utf8))
        let r = try CLI.run(["sort", "--locale", "en"], stdin: bytes)
        #expect(r.status == 0)
        #expect(r.stdout == "Anna\nZoe\n")
        #expect(r.stderr.contains("<stdin>:2: invalid UTF-8"))
    }

    @Test func usageErrors() throws {
        let unknown = try CLI.run(["sort", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let missing = try CLI.run(["sections", "/nonexistent/names.txt"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file: /nonexistent/names.txt"))
        let command = try CLI.run(["frobnicate"])
        #expect(command.status == 2)
        let noValue = try CLI.run(["sort", "--locale"])
        #expect(noValue.status == 2)
    }

    @Test("the environment's locale, LANGUAGE included, drives sorting as it drives text")
    func languageVariableSorts() throws {
        let input = Data("Örjan\nZoe\nAnna\n".utf8)
        let sv = try CLI.run(
            ["sort", "-"], stdin: input,
            environment: ["LANGUAGE": "sv", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_US.UTF-8"])
        #expect(sv.status == 0, "\(sv.stderr)")
        #expect(sv.stdout == "Anna\nZoe\nÖrjan\n")
        let en = try CLI.run(
            ["sort", "-"], stdin: input,
            environment: ["LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_US.UTF-8"])
        #expect(en.stdout == "Anna\nÖrjan\nZoe\n")
    }

    @Test func ioErrorExitsOne() throws {
        let dir = try Scratch.directory("sort-dir").path
        let r = try CLI.run(["sort", dir])
        #expect(r.status == 1)
    }

    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("sections"))
        let sortHelp = try CLI.run(["sort", "--help"])
        #expect(sortHelp.status == 0)
        #expect(sortHelp.stdout.contains("Usage: contacts sort"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("contacts "))
    }

    @Test func localeFromEnvironment() throws {
        let r = try CLI.run(["sort", "-"], stdin: Data("Örjan\nZoe\n".utf8), environment: ["LC_ALL": "sv_SE.UTF-8"])
        #expect(r.stdout == "Zoe\nÖrjan\n")
        let de = try CLI.run(["sort", "-"], stdin: Data("Örjan\nZoe\n".utf8), environment: ["LC_ALL": "de_DE.UTF-8"])
        #expect(de.stdout == "Örjan\nZoe\n")
    }
}
