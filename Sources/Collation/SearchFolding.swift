import Foundation
import ICUKit
import Synchronization

/// The search keys of one name: folded for case, accents and width, transliterated to Latin, tokenized.
/// Matching keystrokes against them is plain byte comparison.
public struct SearchKeys: Sendable, Hashable {
    /// The folded name: lowercase ASCII-ish Latin words separated by single spaces ("zhang wei").
    public var folded: String
    /// `folded` split on spaces (computed on use: building the index needs it only for Han names).
    public var tokens: [String] { SearchFolding.tokens(folded) }
    /// First letters of the transliterated syllables of Han names ("zw" for 张伟); empty otherwise.
    public var initials: String
    /// Initial consonants of Hangul syllables as compatibility jamo ("ㅇㅅㅇ" for 이상일); empty otherwise.
    public var hangulInitials: String

    /// `folded` without spaces ("zhangwei").
    public var compact: String { String(decoding: folded.utf8.filter { $0 != 0x20 }, as: UTF8.self) }
}

/// Turns names and queries into search keys: case, accent and width folded, any script transliterated to
/// Latin (`Борис` → `boris`, `张伟` → `zhang wei` + initials `zw`), tokenized.
///
/// The transliterators are expensive to open (~0.2 s) and not thread-safe, so one instance keeps them and
/// serializes calls with a lock; give each busy thread its own instance.
///
/// ```swift
/// let folding = try SearchFolding()
/// folding.keys(for: "Hélène Dupont").folded   // "helene dupont"
/// folding.keys(for: "张伟").initials           // "zw"
/// folding.fold("ＨＥＬ")                        // "hel"
/// ```
public final class SearchFolding: @unchecked Sendable {
    // @unchecked: the transliterators (not thread-safe), the caches and `misses` are only touched inside `lock`.
    private let lock = Mutex(())
    /// Width, case and accent folding for any text; non-Latin letters are transliterated to Latin.
    private let general: Transliterator
    /// Han names read as names (surnames with their name readings), syllables separated by spaces.
    private let hanNames: Transliterator
    /// Folded forms of words already seen (names repeat: given names, family names). Bounded.
    private var wordCache: [Substring: String] = [:]
    private static let wordCacheLimit = 200_000
    /// Transliterations of names with Han characters already seen (names repeat). Bounded.
    private var hanCache: [String: String] = [:]
    /// Words and names that went through ICU (cache misses).
    private var misses = 0

    /// How many words and names went through ICU's transliterators so far (not the fast paths, not the
    /// cache): lets a caller decide whether opening more instances for other threads pays (~0.2 s each).
    public var transliterationCount: Int { lock.withLock { _ in misses } }

    public init() throws {
        general = try Transliterator(
            id: "Fullwidth-Halfwidth; Any-Latin; Latin-ASCII; NFKD; [:Nonspacing Mark:] Remove; Any-Lower; NFC")
        hanNames = try Transliterator(
            id: "Han-Latin/Names; Latin-ASCII; NFKD; [:Nonspacing Mark:] Remove; Any-Lower; NFC")
    }

    /// Words and Han names one caller has already folded, kept by that caller (one per thread): repeated
    /// words are then answered without taking the lock that all callers of the instance share.
    public struct Memo: Sendable {
        fileprivate var words: [Substring: String] = [:]
        fileprivate var han: [String: String] = [:]
        fileprivate static let limit = 65_536
        public init() {}
    }

    /// Folds a query or name to lowercase Latin words separated by single spaces.
    public func fold(_ text: String) -> String {
        var memo = Memo()
        return fold(text, memo: &memo)
    }

    /// ``fold(_:)`` remembering words in the caller's `memo`.
    public func fold(_ text: String, memo: inout Memo) -> String {
        Self.foldLatin1(text) ?? foldWords(text, memo: &memo)
    }

    /// `fold` of text that is not all ASCII and Latin-1.
    private func foldWords(_ text: String, memo: inout Memo) -> String {
        // Word by word: ASCII and Latin-1 words on the fast path, the others through the caller's memo,
        // then the shared cache (ICU's transliteration is the expensive part of loading).
        var out = ""
        for word in text.split(whereSeparator: { $0 == " " }) {
            let folded: String
            if let latin = Self.foldLatin1(String(word)) {
                folded = latin
            } else if let known = memo.words[word] {
                folded = known
            } else {
                folded = lock.withLock { _ in
                    if let cached = wordCache[word] { return cached }
                    let folded = transliterated(word)
                    misses += 1
                    if wordCache.count >= Self.wordCacheLimit { wordCache.removeAll(keepingCapacity: true) }
                    wordCache[word] = folded
                    return folded
                }
                if memo.words.count >= Memo.limit { memo.words.removeAll(keepingCapacity: true) }
                memo.words[word] = folded
            }
            if folded.isEmpty { continue }
            if !out.isEmpty { out.append(" ") }
            out.append(folded)
        }
        return out
    }

    /// A word folded through ICU (the general transliterator), without the fast paths or the cache.
    /// Call with the lock held.
    private func transliterated(_ word: Substring) -> String {
        Self.normalizeSpaces((try? general.transform(String(word))) ?? word.lowercased())
    }

    /// `fold` without the fast path: every word through ICU (what the fast path must equal; for tests).
    func foldThroughICU(_ text: String) -> String {
        lock.withLock { _ in
            text.split(whereSeparator: { $0 == " " }).map { transliterated($0) }.filter { !$0.isEmpty }
                .joined(separator: " ")
        }
    }

    /// The search keys of a name.
    public func keys(for name: String) -> SearchKeys {
        var memo = Memo()
        return keys(for: name, memo: &memo)
    }

    /// ``keys(for:)`` remembering words and Han names in the caller's `memo`. With `readsHanAsMandarin`
    /// false (a Japanese name), Han characters stay as written instead of becoming Pinyin: a query in
    /// kanji still finds the name (``foldKeepingHan(_:memo:)``), a romanized Mandarin reading never does —
    /// the name's kana reading is what romanized queries match.
    public func keys(for name: String, memo: inout Memo, readsHanAsMandarin: Bool = true) -> SearchKeys {
        if let latin = Self.foldLatin1(name) {
            // Only ASCII and Latin-1 letters: no Han, no Hangul.
            return SearchKeys(folded: latin, initials: "", hangulInitials: "")
        }
        let hasHan = name.unicodeScalars.contains { Self.isHan($0) }
        if hasHan && !readsHanAsMandarin {
            return SearchKeys(folded: foldKeepingHan(name, memo: &memo), initials: "", hangulInitials: "")
        }
        if !hasHan && name.unicodeScalars.contains(where: { Self.isHangulSyllable($0) }) {
            return hangulKeys(name, memo: &memo)
        }
        let folded: String
        var initials = ""
        if hasHan {
            // Transliterate Han per character so each syllable becomes its own token ("zhang wei").
            let latin: String
            if let known = memo.han[name] {
                latin = known
            } else {
                latin = lock.withLock { _ in
                    if let cached = hanCache[name] { return cached }
                    let spaced = name.unicodeScalars.map { Self.isHan($0) ? " \($0) " : String($0) }.joined()
                    let han = (try? hanNames.transform(spaced)) ?? spaced
                    let latin = (try? general.transform(han)) ?? han
                    misses += 1
                    if hanCache.count >= Self.wordCacheLimit { hanCache.removeAll(keepingCapacity: true) }
                    hanCache[name] = latin
                    return latin
                }
                if memo.han.count >= Memo.limit { memo.han.removeAll(keepingCapacity: true) }
                memo.han[name] = latin
            }
            folded = Self.normalizeSpaces(latin)
            // Initials: first letter of each syllable that came from a Han character.
            var syllables = Self.tokens(folded).makeIterator()
            for part in name.split(whereSeparator: { $0.isWhitespace }) {
                for scalar in part.unicodeScalars {
                    if Self.isHan(scalar) {
                        if let s = syllables.next(), let f = s.first { initials.append(f) }
                    }
                }
            }
            if initials.count < 2 { initials = "" }
        } else {
            folded = foldWords(name, memo: &memo)  // foldLatin1 already said no
        }
        return SearchKeys(
            folded: folded, initials: initials,
            hangulInitials: Self.hangulInitials(name))
    }

    /// `fold`, with Han characters kept as written (each run of them its own word) and everything else
    /// folded as usual: "山田 さくら" → "山田 sakura". Queries with Han are also folded this way, so that
    /// they find names whose Han is not read as Pinyin.
    ///
    /// ```swift
    /// try SearchFolding().foldKeepingHan("渡辺 だいすけ")   // "渡辺 daisuke"
    /// ```
    public func foldKeepingHan(_ text: String, memo: inout Memo) -> String {
        var words: [String] = []
        var run = ""
        var runIsHan = false
        func flush() {
            guard !run.isEmpty else { return }
            let folded = runIsHan ? run : fold(run, memo: &memo)
            if !folded.isEmpty { words.append(folded) }
            run = ""
        }
        for scalar in text.unicodeScalars {
            let han = Self.isHan(scalar)
            if han != runIsHan || scalar.properties.isWhitespace {
                flush()
                runIsHan = han
            }
            if !scalar.properties.isWhitespace { run.unicodeScalars.append(scalar) }
        }
        flush()
        return words.joined(separator: " ")
    }

    /// ``foldKeepingHan(_:memo:)`` with a memo of its own.
    public func foldKeepingHan(_ text: String) -> String {
        var memo = Memo()
        return foldKeepingHan(text, memo: &memo)
    }

    /// The keys of a Hangul name (no Han): each syllable romanized as its own token ("김민준" → "gim min jun"),
    /// so that a romanized query matches syllable by syllable ("min jun" as well as "minjun", the compact
    /// form) like Pinyin does for Han names.
    private func hangulKeys(_ name: String, memo: inout Memo) -> SearchKeys {
        var spaced = ""
        for scalar in name.unicodeScalars {
            if Self.isHangulSyllable(scalar) {
                spaced += " "
                spaced.unicodeScalars.append(scalar)
                spaced += " "
            } else {
                spaced.unicodeScalars.append(scalar)
            }
        }
        let folded = foldWords(spaced, memo: &memo)
        return SearchKeys(
            folded: folded, initials: "", hangulInitials: Self.hangulInitials(name))
    }

    /// The folded forms of U+00C0…U+00FF (the letters of Latin-1), indexed by the second UTF-8 byte
    /// (0x80…0xBF after 0xC3), as ICU's chain gives them (Latin-ASCII, marks removed, lowercase). `×` and
    /// `÷` are not letters: nil sends the text to ICU.
    static let latin1Letters: [[UInt8]?] = {
        let table: [String?] = [
            "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // À…Ï
            "d", "n", "o", "o", "o", "o", "o", nil, "o", "u", "u", "u", "u", "y", "th", "ss",  // Ð…ß
            "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // à…ï
            "d", "n", "o", "o", "o", "o", "o", nil, "o", "u", "u", "u", "u", "y", "th", "y",  // ð…ÿ
        ]
        return table.map { $0.map { Array($0.utf8) } }
    }()

    /// The fast path for ASCII and Latin-1 letters (no ICU, no lock): lowercase letters and digits, accents
    /// removed, ligatures and `ß`/`þ` spelled out, other ASCII characters become spaces — exactly what the
    /// ICU path gives for such text. Nil when the text has any other non-ASCII character (a combining mark,
    /// another script, Latin-1 punctuation): that text goes through ICU.
    ///
    /// ```swift
    /// SearchFolding.foldLatin1("Jürgen Müller-Straße")  // "jurgen muller strasse"
    /// SearchFolding.foldLatin1("Łukasz")                // nil: Latin Extended-A goes through ICU
    /// ```
    public static func foldLatin1(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { utf8 -> String? in
            let count = utf8.count
            var failed = false
            // At most two output bytes per input byte ("ß" → "ss", "a b" keeps one space).
            let folded = String(unsafeUninitializedCapacity: count * 2) { out in
                var n = 0
                var pendingSpace = false
                var i = 0
                while i < count {
                    let byte = utf8[i]
                    if byte < 0x80 {
                        i += 1
                        let isAlnum =
                            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                            || (byte >= 0x61 && byte <= 0x7A)
                        if isAlnum || byte == 0x27 {  // keep apostrophes inside words ("o'brien")
                            if pendingSpace && n > 0 {
                                out[n] = 0x20
                                n += 1
                            }
                            pendingSpace = false
                            out[n] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                            n += 1
                        } else {
                            pendingSpace = true
                        }
                        continue
                    }
                    // U+00C0…U+00FF is 0xC3 0x80…0xBF; anything else leaves the fast path.
                    guard byte == 0xC3, i + 1 < count, utf8[i + 1] & 0xC0 == 0x80,
                        let folded = latin1Letters[Int(utf8[i + 1] & 0x3F)]
                    else {
                        failed = true
                        return 0
                    }
                    i += 2
                    if pendingSpace && n > 0 {
                        out[n] = 0x20
                        n += 1
                    }
                    pendingSpace = false
                    for b in folded {
                        out[n] = b
                        n += 1
                    }
                }
                return n
            }
            return failed ? nil : folded
        }
    }

    /// Collapses anything that is not a letter or digit into single spaces.
    static func normalizeSpaces(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "'" {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    static func tokens(_ folded: String) -> [String] {
        folded.split(separator: " ").map(String.init)
    }

    /// True when `text` has a Han character (a query that ``foldKeepingHan(_:memo:)`` keeps in part).
    public static func containsHan(_ text: String) -> Bool { text.unicodeScalars.contains { isHan($0) } }

    /// True when `text` has a Hangul syllable.
    public static func containsHangul(_ text: String) -> Bool { text.unicodeScalars.contains { isHangulSyllable($0) } }

    static func isHangulSyllable(_ s: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(s.value) }

    static func isHan(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return true
        default: return false
        }
    }

    /// Compatibility jamo for the 19 initial consonants, in Unicode's choseong order.
    static let choseong: [Unicode.Scalar] = [
        "ㄱ", "ㄲ", "ㄴ", "ㄷ", "ㄸ", "ㄹ", "ㅁ", "ㅂ", "ㅃ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅉ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ",
    ]

    /// Initial consonants of the Hangul syllables of `text` ("이상일" → "ㅇㅅㅇ"); empty when it has none.
    public static func hangulInitials(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where (0xAC00...0xD7A3).contains(scalar.value) {
            out.append(choseong[Int((scalar.value - 0xAC00) / 588)])
        }
        return String(out)
    }

    /// True when every letter of `query` is a compatibility-jamo consonant (a Hangul initials query).
    public static func isHangulInitialsQuery(_ query: String) -> Bool {
        var any = false
        for scalar in query.unicodeScalars where !scalar.properties.isWhitespace {
            guard (0x3131...0x314E).contains(scalar.value) else { return false }
            any = true
        }
        return any
    }
}
