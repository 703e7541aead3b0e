import Testing

@testable import contacts

/// `contacts demo`'s tables line up on a terminal whatever the script of a name.
@Suite struct DemoTableTests {
    @Test("columns are padded by display width: CJK, conjoining jamo, marks, RTL, emoji")
    func columnsLineUp() throws {
        let names = [
            "Anna Smith", "王伟", "\u{1100}\u{1161}\u{11A8}\u{1109}\u{1175}", "Zoe\u{308} Lo\u{308}w", "مُحَمَّد علي",
            "\u{200F}שָׂרָה", "Ava 🎉", "👩\u{200D}👩\u{200D}👧 Family",
        ]
        let lines = try DemoCommand.formatTable([["Recipient", "Language"]] + names.map { [$0, "xx"] })
        // Where the second column starts, in columns as a terminal shows them: the same on every line.
        let widths = [10, 4, 4, 7, 8, 3, 6, 9]
        let start = (widths.max() ?? 0) + 2
        #expect(lines[0] == "Recipient" + String(repeating: " ", count: start - 9) + "Language")
        for (line, (name, width)) in zip(lines.dropFirst(), zip(names, widths)) {
            #expect(line == name + String(repeating: " ", count: start - width) + "xx", "\(name)")
        }
    }
}
