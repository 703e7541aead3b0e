import Foundation
import TestSupport
import Testing

/// `list --format` and `search --format` (issue 34, item 7): the rows as `pick --output` writes them.
@Suite struct ListFormatCLITests {
    static let book =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEMAIL:ann@example.org\r\nX-PET:cat\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bo\r\nFN:Bo Berg\r\nN:Berg;Bo;;;\r\nEMAIL:bo@example.org\r\nEND:VCARD\r\n"

    static let environment = ["LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": "", "CONTACTS_REGION": ""]

    func run(_ args: [String]) throws -> CLIResult {
        let dir = try Scratch.directory("list-format")
        try Scratch.write(Self.book, to: dir.appendingPathComponent("book.vcf"))
        return try CLI.run(
            args + ["--source", "book.vcf", "--mode", "email"], environment: Self.environment, currentDirectory: dir)
    }

    @Test func everyFormat() throws {
        let tsv = try run(["list", "--format", "tsv"])
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(
            tsv.stdout == "Bo Berg\tbo@example.org\tbo\nAnn Lee\tann@example.org\tann\n"
                || tsv.stdout == "Ann Lee\tann@example.org\tann\nBo Berg\tbo@example.org\tbo\n")
        let lines = try run(["search", "ann", "--format", "lines"])
        #expect(lines.stdout == "Ann Lee <ann@example.org>\n")
        let ids = try run(["search", "example", "--format", "ids"])
        #expect(ids.stdout.split(separator: ",").count == 2)
        let json = try run(["search", "bo", "--format", "json"])
        #expect(
            json.stdout
                == "[\n  {\n    \"channel\" : \"email\",\n    \"id\" : \"bo\",\n    \"name\" : \"Bo Berg\",\n    \"value\" : \"bo@example.org\"\n  }\n]\n"
        )
        let vcard = try run(["search", "ann", "--format", "vcard"])
        #expect(vcard.stdout.hasPrefix("BEGIN:VCARD") && vcard.stdout.contains("ann@example.org"), "\(vcard.stdout)")
        #expect(!vcard.stdout.contains("Bo Berg"))
        let both = try run(["list", "--format", "tsv", "--json"])
        #expect(both.status == 2)
    }
}
