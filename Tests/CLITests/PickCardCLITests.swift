import Foundation
import TestSupport
import Testing

/// `contacts pick`'s contact card (Ctrl-O) on a pseudo-terminal read by pyte, at several sizes and in en,
/// de, ja, ar.
@Suite struct PickCardCLITests {
    @Test func ctrlOShowsEveryPropertyAndEscGoesBack() throws {
        let (run, stdout) = try PickScreenCLITests.run(
            try PickKeysCLITests.pick(["--output", "ids"]),
            steps: [
                ["wait", "7/7"], ["send", "felipe"], ["wait", "1/7"], ["send", "\u{0F}"], ["wait", "Esc Back"],
                ["snap"],
                ["send", "\u{1B}"], ["wait", "? Help"], ["send", "\r"],
            ])
        #expect(run.status == 0)
        #expect(stdout == "felipe\n")
        #expect(
            Array(run.snaps[0].prefix(7)) == [
                "                      Felipe Baytelman                      ",
                "Name            Felipe Baytelman                            ",
                "Given name      Felipe                                      ",
                "Family name     Baytelman                                   ",
                "Phone (mobile)  +1 415 555 0110                             ",
                "Email           felipe@example.com                          ",
                "                                                            ",
            ])
        #expect(run.snaps[0][11].hasPrefix("Esc Back  ↑ ↓ Scroll"))
    }

    @Test(arguments: [
        ("de", 40, 10, "Nachname", "Telefon (Mob…"), ("ja", 80, 24, "姓", "電話 (携帯)"),
        ("ar", 60, 12, "اسم العائلة", "الهاتف"),
    ])
    func cardInGermanJapaneseAndArabic(language: String, columns: Int, lines: Int, family: String, phone: String)
        throws
    {
        let (run, _) = try PickScreenCLITests.run(
            try PickKeysCLITests.pick(["--locale", language]), columns: columns, lines: lines,
            steps: [
                ["wait", "7/7"], ["send", "felipe"], ["wait", "1/7"], ["send", "\u{0F}"], ["wait", family], ["snap"],
                ["send", "\u{1B}\u{1B}"],
            ],
            environment: ["LANG": "\(language).UTF-8"])
        #expect(run.status == 130)
        let screen = run.snaps[0]
        #expect(screen.count == lines)
        #expect(screen.contains { $0.contains("Baytelman") })
        if language == "ar" {
            #expect(screen[3].trimmingCharacters(in: .whitespaces).hasSuffix(family), "\(screen)")
        } else {
            #expect(screen[3].hasPrefix(family), "\(screen)")
            #expect(screen[4].hasPrefix(phone), "\(screen)")
        }
    }
}
