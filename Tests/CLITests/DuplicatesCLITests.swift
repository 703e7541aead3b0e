import Foundation
import TestSupport
import Testing

/// `contacts duplicates` and `contacts merge` (with `--undo`) end to end (issue 34, item 5).
@Suite struct DuplicatesCLITests {
    static let book =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nEMAIL:ada@example.org\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bea\r\nFN:Bea Berg\r\nN:Berg;Bea;;;\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada2\r\nFN:ADA LOVELACE\r\nEMAIL:Ada@Example.org\r\n"
        + "TEL:+44 20 7946 0000\r\nEND:VCARD\r\n"

    static let environment = ["LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": "", "CONTACTS_REGION": ""]

    @Test func duplicatesThenMergeThenUndo() throws {
        let dir = try Scratch.directory("duplicates-cli")
        let file = dir.appendingPathComponent("book.vcf")
        try Scratch.write(Self.book, to: file)
        let found = try CLI.run(
            ["duplicates", "--source", "book.vcf"], environment: Self.environment, currentDirectory: dir)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(
            found.stdout
                == "0.99\tsame email ada@example.org; same name ada lovelace\n\tada\tAda Lovelace\n\tada2\tADA LOVELACE\n\n"
        )
        let json = try CLI.run(
            ["duplicates", "--source", "book.vcf", "--json"], environment: Self.environment, currentDirectory: dir)
        #expect(json.stdout.contains("\"score\" : 0.99"), "\(json.stdout)")

        let merged = try CLI.run(
            ["merge", "ada2", "ada", "--source", "book.vcf", "--into", "ada", "--undo-file", "undo.json"],
            environment: Self.environment, currentDirectory: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == "merged ada2 into ada; undo: contacts merge --undo undo.json\n")
        let after = try String(contentsOf: file, encoding: .utf8)
        #expect(
            after.contains(
                "TEL:+44 20 7946 0000\r\nNOTE:Merged from ADA LOVELACE (ada2): FN ADA LOVELACE\r\nEND:VCARD"),
            "\(after)")
        #expect(!after.contains("UID:ada2"))
        let none = try CLI.run(
            ["duplicates", "--source", "book.vcf"], environment: Self.environment, currentDirectory: dir)
        #expect(none.status == 1 && none.stdout.isEmpty)

        let undone = try CLI.run(
            ["merge", "--undo", "undo.json"], environment: Self.environment, currentDirectory: dir)
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.book)
        // A second undo finds the file changed (it is the original again) and writes nothing.
        let again = try CLI.run(["merge", "--undo", "undo.json"], environment: Self.environment, currentDirectory: dir)
        #expect(again.status == 1 && again.stderr.contains("changed since the merge"), "\(again.stderr)")
    }

    @Test func mergeUsageErrors() throws {
        let dir = try Scratch.directory("duplicates-cli")
        try Scratch.write(Self.book, to: dir.appendingPathComponent("book.vcf"))
        for args in [
            ["merge", "ada", "--source", "book.vcf"], ["merge", "ada", "bea", "--source", "book.vcf", "--into", "cy"],
        ] {
            let r = try CLI.run(args, environment: Self.environment, currentDirectory: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
        }
        let unknown = try CLI.run(
            ["merge", "ada", "nobody", "--source", "book.vcf", "--undo-file", "u.json"], environment: Self.environment,
            currentDirectory: dir)
        #expect(unknown.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("u.json").path))
        #expect(try String(contentsOf: dir.appendingPathComponent("book.vcf"), encoding: .utf8) == Self.book)
    }
}
