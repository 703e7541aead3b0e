import Foundation
import TestSupport
import Testing

/// `contacts pick`'s duplicates view (Ctrl-T) on a pseudo-terminal read by pyte, in en, ja and ar.
@Suite struct PickDuplicatesCLITests {
    static func book() throws -> URL {
        try PickKeysCLITests.book(
            adding: """
                BEGIN:VCARD\r
                VERSION:3.0\r
                UID:anna-2\r
                FN:Anna Berg\r
                N:Berg;Anna;;;\r
                TEL;TYPE=WORK:+1 415 555 0190\r
                EMAIL:ANNA@example.org\r
                END:VCARD\r

                """)
    }

    @Test(arguments: [
        ("en", "Same email anna@example.org · 99%", "Duplicates"), ("ja", "同じメール anna@example.org · 99%", "重複"),
        ("ar", "نفس البريد الإلكتروني anna@example.org · 99٪", "التكرارات"),
    ])
    func ctrlTShowsTheGroupsTabMarksEnterPrints(language: String, title: String, placeholder: String) throws {
        let (run, stdout) = try PickScreenCLITests.run(
            ["pick", "--source", try Self.book().path, "--region", "US", "--output", "ids", "--locale", language],
            steps: [
                ["wait", "6/6"], ["send", "\u{14}"], ["wait", placeholder], ["snap"], ["send", "\t\t"], ["send", "\r"],
            ],
            environment: ["LANG": "\(language).UTF-8"])
        #expect(run.status == 0)
        #expect(stdout == "anna,anna-2\n", "\(stdout)")
        let screen = run.snaps[0]
        #expect(screen[1].contains("2/6"))
        if language == "ar" {
            #expect(screen[2].trimmingCharacters(in: .whitespaces).hasSuffix(title), "\(screen)")
        } else {
            #expect(screen[2].hasPrefix(title), "\(screen)")
            #expect(screen[3].hasPrefix("[ ] Anna Berg") && screen[4].hasPrefix("[ ] Anna Berg"), "\(screen)")
        }
    }
}
