/// Fuzzy matching as fzf users expect it: a needle matches when its letters occur in order, with gaps; its
/// score rewards letters at the start of a word (most for the first letter of the needle) and runs of
/// consecutive letters, and costs for gaps (opening one more than widening it). The best alignment is
/// found (a dynamic program over needle × text), not the first one, so "fbay" scores "Felipe Baytelman"
/// at F…B-a-y, not at the "a" of "Felipe".
///
/// ```swift
/// FuzzyScore.score("fbay", in: "felipe baytelman")! > FuzzyScore.score("fbay", in: "fiona bradbury")!   // true
/// FuzzyScore.score("xyz", in: "felipe baytelman")                                                       // nil
/// ```
public enum FuzzyScore {
    /// A matched letter.
    public static let match = 16
    /// A letter at the start of a word (after a field start, a space or `.@+-_`).
    public static let wordStart = 8
    /// The needle's first letter at a word start counts this many times.
    public static let firstLetterFactor = 2
    /// A letter right after the previous matched one.
    public static let consecutive = 5
    /// Opening a gap between matched letters, and widening it by one more byte.
    public static let gapOpen = 3
    public static let gapExtend = 1

    /// The score of `needle` in `text` (both folded as the index folds: lowercase, no accents); nil when
    /// its letters do not occur in order.
    public static func score(_ needle: String, in text: String) -> Int? {
        let n = Array(needle.utf8)
        let t = Array(text.utf8)
        return n.withUnsafeBufferPointer { nb in t.withUnsafeBufferPointer { score(nb, in: $0) } }
    }

    /// Whether each letter of `needle` occurs in `text` after the previous one (the quick test before
    /// `score(_:in:)`).
    @inline(__always)
    static func isSubsequence(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        guard !needle.isEmpty else { return true }
        for b in text where b == needle[i] {
            i += 1
            if i == needle.count { return true }
        }
        return false
    }

    /// The score of `needle` in `text` as bytes; nil when its bytes do not occur in order. Work is
    /// needle × text, once per row that passed the quick test of its letters in order.
    public static func score(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let m = needle.count
        let n = text.count
        guard m > 0 else { return 0 }
        guard m <= n, isSubsequence(needle, in: text) else { return nil }
        let none = Int.min / 4
        // previous[j]: the best score of needle[..<i] with needle[i-1] matched at text[j]; current likewise
        // for needle[i]. Two rows of the table are enough.
        var previous = [Int](repeating: none, count: n)
        var current = [Int](repeating: none, count: n)
        var best = none
        for i in 0..<m {
            let letter = needle[i]
            // The best of previous[k] - gap cost, over k ≤ j - 2, as j goes right.
            var gapBest = none
            for j in 0..<n {
                if j >= 2 { gapBest = max(gapBest - gapExtend, previous[j - 2] - gapOpen) }
                guard text[j] == letter else {
                    current[j] = none
                    continue
                }
                let atWordStart = j == 0 || SearchIndex.isBoundary(text[j - 1])
                var bonus = atWordStart ? wordStart : 0
                if i == 0 {
                    current[j] = match + bonus * firstLetterFactor
                    continue
                }
                let run = j >= 1 && previous[j - 1] > none ? previous[j - 1] + consecutive : none
                let jump = gapBest > none ? gapBest : none
                let before = max(run, jump)
                if before == none {
                    current[j] = none
                    continue
                }
                // A letter of a run inside a word keeps half the bonus of the word start it continues.
                if !atWordStart && before == run { bonus = wordStart / 2 }
                current[j] = before + match + bonus
            }
            swap(&previous, &current)
        }
        for j in 0..<n { best = max(best, previous[j]) }
        return best > none ? best : nil
    }
}
