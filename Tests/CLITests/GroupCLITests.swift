import Foundation
import TestSupport
import Testing

/// `--group NAME` of list, search and compose, and `contacts groups`: a vCard 4 group card (KIND:group,
/// MEMBER), an Apple group card (X-ADDRESSBOOKSERVER-KIND/-MEMBER) and CATEGORIES.
@Suite struct GroupCLITests {
    static func card(_ uid: String, _ given: String, _ family: String, email: String, extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:\(uid)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\n"
            + "TEL:+1 415 555 01\(uid.suffix(2))\r\nEMAIL:\(email)\r\n\(extra)END:VCARD\r\n"
    }

    /// Ann and Bo in the vCard 4 group "Work", Cy and Ann in Apple's group "Family", Bo and Di in the category
    /// "Chess" (Di also in "work", a category spelled in lower case: one group with the card "Work").
    static let book = Data(
        (card("00000000-0000-0000-0000-000000000001", "Ann", "Lee", email: "ann@example.org")
            + card(
                "00000000-0000-0000-0000-000000000002", "Bo", "Berg", email: "bo@example.org",
                extra: "CATEGORIES:Chess\r\n")
            + card("00000000-0000-0000-0000-000000000003", "Cy", "Dunn", email: "cy@example.org")
            + card(
                "00000000-0000-0000-0000-000000000004", "Di", "Moss", email: "di@example.org",
                extra: "CATEGORIES:Chess,work\r\n")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:10000000-0000-0000-0000-000000000001\r\nFN:Work\r\n"
            + "MEMBER:urn:uuid:00000000-0000-0000-0000-000000000001\r\nMEMBER:urn:uuid:00000000-0000-0000-0000-000000000002\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nUID:10000000-0000-0000-0000-000000000002\r\n"
            + "FN:Family\r\nN:Family;;;;\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:00000000-0000-0000-0000-000000000003\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:00000000-0000-0000-0000-000000000001\r\nEND:VCARD\r\n").utf8)

    static let environment = ["LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": "", "CONTACTS_REGION": ""]

    func run(_ args: [String]) throws -> CLIResult {
        let dir = try Scratch.directory("groups-cli")
        try Self.book.write(to: dir.appendingPathComponent("book.vcf"))
        return try CLI.run(args, environment: Self.environment, currentDirectory: dir)
    }

    /// The names `list` or `search` prints, in order.
    func names(_ r: CLIResult) -> [String] {
        r.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map {
            String($0.dropFirst(2).prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func listAndSearchAGroup() throws {
        let work = try run(["list", "--source", "book.vcf", "--group", "Work"])
        #expect(work.status == 0, "\(work.stderr)")
        #expect(names(work) == ["Ann Lee", "Bo Berg", "Di Moss"])  // the card "Work" and the category "work"
        let family = try run(["list", "--source", "book.vcf", "--group", "family"])
        #expect(names(family) == ["Ann Lee", "Cy Dunn"])
        let chess = try run(["list", "--source", "book.vcf", "--group", "Chess", "--mode", "email"])
        #expect(names(chess) == ["Bo Berg", "Di Moss"])
        let search = try run(["search", "cy", "--source", "book.vcf", "--group", "Family"])
        #expect(names(search) == ["Cy Dunn"])
        let all = try run(["list", "--source", "book.vcf"])
        #expect(names(all).count == 4)
    }

    @Test func anUnknownGroupIsAUsageError() throws {
        let r = try run(["list", "--source", "book.vcf", "--group", "Nobody"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no group 'Nobody'") && r.stderr.contains("have: Work, Family, Chess"), "\(r.stderr)")
    }

    @Test func groupsListsEveryGroupWithItsCount() throws {
        let r = try run(["groups", "--source", "book.vcf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Chess\t2 contacts\nFamily\t2 contacts\nWork\t3 contacts\n")
        let json = try run(["groups", "--source", "book.vcf", "--json"])
        struct Row: Decodable, Equatable {
            var name: String
            var members: Int
            var kinds: [String]
        }
        let rows = try JSONDecoder().decode([Row].self, from: json.stdoutData)
        #expect(
            rows == [
                Row(name: "Chess", members: 2, kinds: ["category"]), Row(name: "Family", members: 2, kinds: ["card"]),
                Row(name: "Work", members: 3, kinds: ["card", "category"]),
            ])
    }

    @Test func composeToAGroup() throws {
        let dir = try Scratch.directory("groups-compose")
        try Self.book.write(to: dir.appendingPathComponent("book.vcf"))
        try Data(
            #"{"inviter": {"givenName": "Ada", "familyName": "Lovelace"}, "project": "Atlas", "url": "https://example.com/j", "expires": "2026-12-31"}"#
                .utf8
        )
        .write(to: dir.appendingPathComponent("data.json"))
        let compose = try CLI.run(
            [
                "compose", "--source", "book.vcf", "--group", "Family", "--template", "invite", "--data", "data.json",
                "--out", "drafts", "--locale", "en", "--from", "Ada <ada@example.org>",
            ], environment: Self.environment, currentDirectory: dir)
        #expect(compose.status == 0, "\(compose.stderr)")
        let drafts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("drafts").path)
        #expect(drafts.count == 2, "\(drafts)")
        let unknown = try CLI.run(
            ["compose", "--source", "book.vcf", "--group", "Nope", "--template", "invite", "--out", "drafts"],
            environment: Self.environment, currentDirectory: dir)
        #expect(unknown.status == 2)
    }
}
