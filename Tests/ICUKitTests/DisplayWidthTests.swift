import ICUKit
import Testing

/// Terminal columns per grapheme cluster, from ICU's break iterator and East Asian width.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Anna", 4), ("", 0), ("王伟", 4), ("山田太郎", 8), ("김민준", 6),
        ("\u{1100}\u{1161}\u{11A8}", 2),  // 각 as conjoining jamo (NFD, as macOS writes Korean names): one cluster
        ("Zoe\u{308}", 3), ("Ho\u{302}\u{300}ng", 4),  // combining accents take no column
        ("مُحَمَّد", 4), ("שָׁלוֹם", 4),  // Arabic and Hebrew vowel points take none; the letters one each
        ("\u{200F}Sara", 4), ("a\u{200D}b", 2),  // RLM and ZWJ are invisible
        ("🎉", 2), ("👩\u{200D}👩\u{200D}👧", 2), ("❤\u{FE0F}", 2),  // emoji, a ZWJ family, emoji presentation
        ("ＡＢ", 4), ("ｱｲ", 2),  // fullwidth Latin, halfwidth katakana
        // Spacing marks take a column each, as terminals (glibc's wcwidth, tmux, xterm) draw them.
        ("वर्मा", 4), ("\u{0E01}\u{0E33}", 2), ("கொ", 2), ("🇯🇵", 2), ("👍🏽", 2),
    ])
    func columns(_ text: String, _ expected: Int) throws {
        #expect(
            try DisplayWidth.columns(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}
