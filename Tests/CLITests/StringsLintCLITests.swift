import Foundation
import TestSupport
import Testing

/// `contacts strings lint`: text lines with the check's id, --format json|sarif (and --json), --error,
/// --ignore and --max-length, on the hand-made project of one key per check.
@Suite("strings lint")
struct StringsLintCLITests {
    @Test func textLinesNameTheCheck() throws {
        let dir = try LintChecksProject.make()
        let r = try CLI.run(["strings", "lint", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("de.lproj/Localizable.strings:1:11: error [placeholders] \"greet\": lacks {{name}}"))
        #expect(r.stdout.contains("en.lproj/Plurals.stringsdict:5:1: warning [source-format-type]"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix(" notes\n"))
    }

    @Test func jsonAndSARIF() throws {
        let dir = try LintChecksProject.make()
        let json = try CLI.run(["strings", "lint", dir.path, "--json"])
        let same = try CLI.run(["strings", "lint", dir.path, "--format", "json"])
        #expect(json.stdout == same.stdout && json.status == 1)
        let items = try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]]
        #expect(
            items?.contains { $0["code"] as? String == "mf2-syntax" && $0["key"] as? String == "hello_mf2" } == true)
        let sarif = try CLI.run(["strings", "lint", dir.path, "--format", "sarif"])
        let log = try JSONSerialization.jsonObject(with: sarif.stdoutData) as? [String: Any]
        #expect(log?["version"] as? String == "2.1.0")
        let results = (log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.count == items?.count)
    }

    @Test func errorIgnoreAndMaxLength() throws {
        let dir = try LintChecksProject.make()
        let ignored = try CLI.run(
            [
                "strings", "lint", dir.path, "--ignore", "placeholders", "--ignore", "mf2-syntax", "--ignore",
                "max-length", "--error", "double-space",
            ])
        #expect(!ignored.stdout.contains("[placeholders]") && !ignored.stdout.contains("[max-length]"))
        #expect(ignored.stdout.contains("error [double-space]"), "\(ignored.stdout)")
        #expect(ignored.status == 1)
        let clean = try CLI.run(
            [
                "strings", "lint", dir.path, "--ignore", "placeholders", "--ignore", "mf2-syntax", "--ignore",
                "max-length",
            ])
        #expect(clean.status == 0, "\(clean.stdout)")
        let short = try CLI.run(["strings", "lint", dir.path, "--max-length", "3", "--format", "json"])
        #expect(short.stdout.contains("more than the 3 allowed"))
        let unknown = try CLI.run(["strings", "lint", dir.path, "--ignore", "speling"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no lint check \"speling\""), "\(unknown.stderr)")
        let bad = try CLI.run(["strings", "lint", dir.path, "--max-length", "ten"])
        #expect(bad.status == 2)
    }
}
