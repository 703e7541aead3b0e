import Foundation
import ICUKit
import Synchronization

/// The search keys of one name: folded for case, accents and width, transliterated to Latin, tokenized.
/// Matching keystrokes against them is plain byte comparison.
public struct SearchKeys: Sendable, Hashable {
    /// The folded name: lowercase ASCII-ish Latin words separated by single spaces ("zhang wei").
    public var folded: String
    /// `folded` split on spaces.
    public var tokens: [String]
    /// First letters of the transliterated syllables of Han names ("zw" for 张伟); empty otherwise.
    public var initials: String
    /// Initial consonants of Hangul syllables as compatibility jamo ("ㅇㅅㅇ" for 이상일); empty otherwise.
    public var hangulInitials: String

    /// `folded` without spaces ("zhangwei").
    public var compact: String { tokens.joined() }
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
    // @unchecked: the transliterators (not thread-safe) and `wordCache` are only touched inside `lock`.
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

    public init() throws {
        general = try Transliterator(
            id: "Fullwidth-Halfwidth; Any-Latin; Latin-ASCII; NFKD; [:Nonspacing Mark:] Remove; Any-Lower; NFC")
        hanNames = try Transliterator(
            id: "Han-Latin/Names; Latin-ASCII; NFKD; [:Nonspacing Mark:] Remove; Any-Lower; NFC")
    }

    /// Folds a query or name to lowercase Latin words separated by single spaces.
    public func fold(_ text: String) -> String {
        if let ascii = Self.foldASCII(text) { return ascii }
        // Word by word, each through the cache: transliteration is the expensive part of loading.
        var out = ""
        lock.withLock { _ in
            for word in text.split(whereSeparator: { $0 == " " }) {
                let folded: String
                if let cached = wordCache[word] {
                    folded = cached
                } else {
                    folded =
                        Self.foldASCII(String(word))
                        ?? Self.normalizeSpaces((try? general.transform(String(word))) ?? word.lowercased())
                    if wordCache.count >= Self.wordCacheLimit { wordCache.removeAll(keepingCapacity: true) }
                    wordCache[word] = folded
                }
                if folded.isEmpty { continue }
                if !out.isEmpty { out.append(" ") }
                out.append(folded)
            }
        }
        return out
    }

    /// The search keys of a name.
    public func keys(for name: String) -> SearchKeys {
        if let ascii = Self.foldASCII(name) {
            return SearchKeys(folded: ascii, tokens: Self.tokens(ascii), initials: "", hangulInitials: "")
        }
        let hasHan = name.unicodeScalars.contains { Self.isHan($0) }
        let folded: String
        var initials = ""
        if hasHan {
            // Transliterate Han per character so each syllable becomes its own token ("zhang wei").
            let latin = lock.withLock { _ in
                if let cached = hanCache[name] { return cached }
                let spaced = name.unicodeScalars.map { Self.isHan($0) ? " \($0) " : String($0) }.joined()
                let han = (try? hanNames.transform(spaced)) ?? spaced
                let latin = (try? general.transform(han)) ?? han
                if hanCache.count >= Self.wordCacheLimit { hanCache.removeAll(keepingCapacity: true) }
                hanCache[name] = latin
                return latin
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
            folded = fold(name)
        }
        return SearchKeys(
            folded: folded, tokens: Self.tokens(folded), initials: initials,
            hangulInitials: Self.hangulInitials(name))
    }

    /// ASCII fast path: lowercase letters and digits, other characters become spaces; nil when the text
    /// has any non-ASCII byte.
    static func foldASCII(_ text: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte >= 0x80 { return nil }
            let isAlnum =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isAlnum || byte == 0x27 {  // keep apostrophes inside words ("o'brien")
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            } else {
                pendingSpace = true
            }
        }
        return String(decoding: out, as: UTF8.self)
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
