import Foundation
import TestSupport
import Testing

/// `contacts query` answers from the saved index when one is there, best match first (issue 34, item 6).
@Suite struct QueryIndexCLITests {
    static let book =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:sandy\r\nFN:Sandy Beach\r\nN:Beach;Sandy;;;\r\nEMAIL:sandy@example.org\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy\r\nFN:Cy Ray\r\nN:Ray;Cy;;;\r\nEMAIL:andy@example.org\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:zoe\r\nFN:Zoe Anders\r\nN:Anders;Zoe;;;\r\nEMAIL:zoe@example.org\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:andrea\r\nFN:Andrea Zulu\r\nN:Zulu;Andrea;;;\r\nEMAIL:az@example.org\r\nEND:VCARD\r\n"

    static let expected =
        "az@example.org\tAndrea Zulu\nzoe@example.org\tZoe Anders\nandy@example.org\tCy Ray\nsandy@example.org\tSandy Beach\n"

    @Test func bestMatchFirstWithAndWithoutTheSavedIndex() throws {
        let dir = try Scratch.directory("query-index")
        try Scratch.write(Self.book, to: dir.appendingPathComponent("book.vcf"))
        let environment = [
            "LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": "", "CONTACTS_REGION": "",
            "CONTACTS_INDEX_DIR": dir.appendingPathComponent("index").path,
        ]
        let query = ["query", "--source", "book.vcf", "--format", "aerc", "and"]
        let read = try CLI.run(query, environment: environment, currentDirectory: dir)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == Self.expected)

        let built = try CLI.run(
            ["index", "build", "book.vcf", "--mode", "email"], environment: environment, currentDirectory: dir)
        #expect(built.status == 0, "\(built.stderr)")
        let saved = try CLI.run(query, environment: environment, currentDirectory: dir)
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved.stderr)")
        #expect(saved.stdout == Self.expected)

        // The index is what query opens: a damaged one is noticed (and rebuilt), the answer unchanged.
        let index = dir.appendingPathComponent("index")
        let files = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasSuffix(".index") }
        #expect(files.count == 1)
        for name in files { try Data("not an index".utf8).write(to: index.appendingPathComponent(name)) }
        let damaged = try CLI.run(query, environment: environment, currentDirectory: dir)
        #expect(damaged.stderr.contains("rebuilding it"), "\(damaged.stderr)")
        #expect(damaged.stdout == Self.expected)
    }
}
