import CICU

/// How many terminal columns text takes, counted per grapheme cluster with ICU: East Asian Wide and
/// Fullwidth characters and emoji take two, combining marks, joiners and other invisible characters none,
/// every other character (right-to-left letters too) one. A spacing mark inside a cluster (a Devanagari
/// vowel sign, Thai sara am) takes a column of its own, as terminals draw it; an emoji sequence (ZWJ, skin
/// tone, flag) is one glyph. What a monospaced table pads by.
///
/// ```swift
/// try DisplayWidth.columns("王伟")          // 4
/// try DisplayWidth.columns("Zoe\u{308}")   // 3: the diaeresis combines with "e"
/// try DisplayWidth.columns("مُحَمَّد")        // 4: the vowel marks take no column
/// try DisplayWidth.columns("वर्मा")          // 4: the vowel sign ा takes one
/// ```
public enum DisplayWidth {
    /// The columns of `text` on a terminal.
    public static func columns(_ text: String) throws -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return try withUTF8(text) { p, n in
            var status: Int32 = 0
            let width = cicu_display_width(p, n, &status)
            guard status <= 0 else {
                throw ICUError.failure(operation: "display width", code: status, name: ICUError.name(status))
            }
            return Int(width)
        }
    }
}
