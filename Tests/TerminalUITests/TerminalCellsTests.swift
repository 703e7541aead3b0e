import Testing

@testable import TerminalUI

/// How grapheme clusters are cut into ncurses cells: every spacing character reaches the terminal, and no
/// zero-width joiner is left at the end of a cell.
@Suite struct TerminalCellsTests {
    func cells(_ cluster: Character) -> [String] {
        TerminalCells.split(cluster).map { String(String.UnicodeScalarView($0)) }
    }

    @Test func spacingMarksGetCellsOfTheirOwn() {
        _ = TerminalLocale.prepare()
        // Devanagari's vowel sign ा takes a column of its own.
        #expect(cells("मा") == ["म", "ा"])
        #expect(cells("र\u{094D}") == ["र\u{094D}"])
        #expect(cells("\u{0E01}\u{0E33}") == ["\u{0E01}", "\u{0E33}"])
        #expect(cells("e\u{308}") == ["e\u{308}"])
        #expect(cells("\u{1100}\u{1161}\u{11A8}") == ["\u{1100}\u{1161}\u{11A8}"])
        #expect(cells("王") == ["王"])
    }

    @Test func emojiSequencesAreDrawnAsTheirFirstEmojiWithoutAJoiner() {
        _ = TerminalLocale.prepare()
        #expect(cells("👨‍👩‍👧‍👦") == ["👨"])
        #expect(cells("👍🏽") == ["👍"])
        #expect(cells("❤\u{FE0F}") == ["❤"])
        #expect(cells("🇯🇵") == ["🇯", "🇵"])
        #expect(cells("क\u{094D}\u{200D}") == ["क\u{094D}"])
    }
}
