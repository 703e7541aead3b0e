import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// `strings lint`'s checks on the hand-made project of Fixtures/LintChecks: each check finds its case at
/// its place, and the look-alikes it must accept (Greek `;`, Japanese `？`, a brand name marked
/// `lint-ignore`) give nothing.
@Suite("Lint checks")
struct LintChecksTests {
    static let findings: [Diagnostic] = {
        guard let dir = try? LintChecksProject.make(),
            let folder = try? LocalizationFolder(directory: dir, displayRoot: "P")
        else { return [] }
        return folder.lint()
    }()

    static func has(_ check: String, _ file: String, _ line: Int, _ text: String) -> Bool {
        findings.contains {
            $0.code == check && $0.file == "P/\(file)" && $0.line == line && $0.message.contains(text)
        }
    }

    static func none(_ file: String, key: String) -> [Diagnostic] {
        findings.filter { $0.file == "P/\(file)" && $0.key == key && $0.code != "missing-key" }
    }

    /// (check, file, line, what the message says), one case per check.
    static let cases: [(String, String, Int, String)] = [
        ("placeholders", "de.lproj/Localizable.strings", 1, "lacks {{name}}"),
        ("placeholders", "de.lproj/Localizable.strings", 1, "has {{nam}}"),
        ("plural-category", "de.lproj/Localizable.strings", 2, "{count, plural} lacks the de categories one"),
        ("placeholders", "de.lproj/Localizable.strings", 3, "{day} is time here but date in the source"),
        ("markup", "de.lproj/Localizable.strings", 4, "here [<i> </i>], source [<b> </b>]"),
        ("urls", "de.lproj/Localizable.strings", 4, "lacks the URL https://example.org/guide"),
        ("whitespace", "de.lproj/Localizable.strings", 5, "starts with nothing but the source with \" \""),
        ("whitespace", "de.lproj/Localizable.strings", 6, "ends with nothing but the source with \"\\n\""),
        ("punctuation", "de.lproj/Localizable.strings", 7, "a full stop but the source with a question mark"),
        ("double-space", "de.lproj/Localizable.strings", 8, "double space"),
        ("max-length", "de.lproj/Localizable.strings", 9, "has 15 characters, more than the 10 allowed"),
        ("same-as-source", "de.lproj/Localizable.strings", 10, "\"same\" is identical to en"),
        ("placeholders", "de.lproj/Localizable.strings", 12, "has $m"),
        ("mf2-syntax", "de.lproj/Localizable.strings", 13, "MessageFormat 2 syntax error"),
        ("needs-review", "de.lproj/Localizable.strings", 15, "marked for translation"),
        ("needs-review", "Catalog.xcstrings", 4, "\"Pending\" de is in state \"needs_review\""),
        ("markup", "Catalog.xcstrings", 25, "here [<b>]"),
        ("double-space", "Catalog.xcstrings", 25, "double space"),
        ("source-format-type", "en.lproj/Plurals.stringsdict", 5, "declares NSStringFormatValueTypeKey \"d\""),
    ]

    @Test(arguments: cases.indices)
    func eachCheckFindsItsCase(_ i: Int) {
        let (check, file, line, text) = Self.cases[i]
        #expect(Self.has(check, file, line, text), "\(Self.findings.filter { $0.file.hasSuffix(file) })")
        #expect(LintCheck.named(check) != nil)
    }

    @Test func theMF2ErrorPointsAtItsColumnInTheFile() {
        // "hello_mf2" = "Hallo {$name";  the value starts at column 15 and lacks its `}` after 13 characters.
        let d = Self.findings.first { $0.code == "mf2-syntax" }
        #expect(d?.line == 13 && d?.column == 28, "\(String(describing: d))")
        #expect(d?.severity == .error)
    }

    @Test func lookAlikesAreAccepted() {
        // Greek `;`, Japanese `？`, Arabic `؟` ask as `?` does; Japanese `。` ends as `.` does.
        #expect(Self.none("el.lproj/Localizable.strings", key: "question").isEmpty)
        #expect(Self.none("ja.lproj/Localizable.strings", key: "question").isEmpty)
        #expect(Self.none("ar.lproj/Localizable.strings", key: "question").isEmpty)
        #expect(Self.none("ja.lproj/Localizable.strings", key: "clean").isEmpty)
        #expect(Self.none("de.lproj/Localizable.strings", key: "clean").isEmpty)
        // lint-ignore on the source (brand), on the translation (fr question), on a catalog key (Ready?).
        #expect(Self.none("de.lproj/Localizable.strings", key: "brand").isEmpty)
        #expect(Self.none("fr.lproj/Localizable.strings", key: "question").isEmpty)
        #expect(Self.none("Catalog.xcstrings", key: "Ready?").isEmpty)
    }

    /// Issue 31 item 7: the source declares `d` but its forms show `%@`; translations following the forms
    /// are right, and the source's inconsistency is one warning on the source, not an error per language.
    @Test func aStringsDictIsJudgedByWhatItsSourceFormsContain() {
        let plurals = Self.findings.filter { $0.file.hasSuffix("Plurals.stringsdict") }
        #expect(!plurals.contains { $0.code.hasPrefix("format-") }, "\(plurals)")
        let source = plurals.filter { $0.code == "source-format-type" }
        #expect(source.count == 1 && source.first?.file == "P/en.lproj/Plurals.stringsdict")
        #expect(source.first?.severity == .warning)
    }

    @Test func severitiesChangeAndChecksAreIgnored() throws {
        let folder = try LocalizationFolder(directory: LintChecksProject.make(), displayRoot: "P")
        var options = LintOptions(maxLength: 8)
        try options.set("same-as-source", to: .error)
        try options.ignore("markup")
        let findings = folder.lint(options: options)
        #expect(findings.contains { $0.code == "same-as-source" && $0.severity == .error })
        #expect(!findings.contains { $0.code == "markup" })
        // --max-length holds where no comment sets one: "Jetzt  speichern" is 16 characters.
        #expect(findings.contains { $0.code == "max-length" && $0.key == "double" })
        // The key's own `max-length: 10` wins over the option's 8: "Abbrechen" would pass 10, not 8.
        #expect(findings.contains { $0.code == "max-length" && $0.key == "short" && $0.message.contains("10") })
        #expect(throws: StringsCatalogError.self) { try options.ignore("no-such-check") }
    }

    @Test func directivesAreReadFromComments() {
        let d = LintDirectives(comment: "Button. lint-ignore: same-as-source, punctuation  max-length: 12")
        #expect(d.ignored == ["same-as-source", "punctuation"])
        #expect(d.maxLength == 12)
        #expect(LintDirectives(comment: "Just a note").ignored.isEmpty)
    }

    @Test func reportsAsTextJSONAndSARIF() throws {
        let findings = Self.findings
        let text = LintReport.text(findings)
        #expect(text.contains("P/de.lproj/Localizable.strings:7:14: warning [punctuation] \"question\": ends with"))
        let json = try JSONSerialization.jsonObject(with: Data(LintReport.json(findings).utf8)) as? [[String: Any]]
        #expect(json?.count == findings.count)
        #expect(json?.contains { $0["key"] as? String == "greet" && $0["code"] as? String == "placeholders" } == true)
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(LintReport.sarif(findings).utf8)) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        #expect((sarif["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "contacts strings lint")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == LintCheck.all.map(\.id))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == findings.count)
        for (result, finding) in zip(results, findings) {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            #expect(result["level"] as? String == finding.severity.rawValue)
            #expect((result["message"] as? [String: Any])?["text"] as? String == finding.message)
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == finding.file)
            let region = try #require(physical["region"] as? [String: Any])
            #expect(region["startLine"] as? Int == finding.line && region["startColumn"] as? Int == finding.column)
        }
    }
}
