import Locales
import TestSupport
import Testing

@testable import Collation

@Suite struct NameOrderTests {
    @Test func orderIsTheNamesOwn() {
        let anna = PersonName(given: "Anna", family: "Berg")
        #expect(NameOrder.format(anna) == "Anna Berg")
        #expect(NameOrder.format(PersonName(given: "Péter", family: "Nagy"), language: "hu") == "Nagy Péter")
        #expect(NameOrder.format(PersonName(given: "太郎", family: "山田")) == "山田太郎")
        #expect(NameOrder.format(PersonName(given: "伟", family: "张"), language: "en") == "张伟")
        #expect(NameOrder.format(PersonName(given: "상일", family: "이")) == "이상일")
        #expect(NameOrder.format(PersonName(given: "John", family: "Smith"), language: "ja") == "John Smith")
        #expect(NameOrder.format(PersonName(given: "An", family: "Nguyễn"), language: "vi") == "Nguyễn An")
        #expect(NameOrder.display(for: "ja-JP") == .familyFirst)
        #expect(NameOrder.display(for: "de") == .givenFirst)
    }

    /// Issue 18 item 4: Vietnamese is family, middle, given ("Nguyễn Văn An"); Hungarian keeps a second
    /// given name after the first; the language tag's case and region do not matter.
    @Test func familyFirstLatinNamesPlaceTheMiddleName() {
        let an = PersonName(given: "An", middle: "Văn", family: "Nguyễn")
        #expect(NameOrder.format(an, language: "vi") == "Nguyễn Văn An")
        #expect(NameOrder.format(an, language: "vi-VN") == "Nguyễn Văn An")
        #expect(NameOrder.format(an) == "An Văn Nguyễn")
        let janos = PersonName(given: "János", middle: "Péter", family: "Kovács")
        #expect(NameOrder.format(janos, language: "HU") == "Kovács János Péter")
        #expect(NameOrder.order(of: janos, language: "hu") == .familyFirst)
        #expect(NameOrder.order(of: PersonName(given: "John", family: "Smith"), language: "ko") == .givenFirst)
    }

    @Test func japaneseNames() {
        #expect(NameOrder.isJapanese(["渡辺", "大輔"], language: "ja-JP"))
        #expect(NameOrder.isJapanese(["山田", "やまだ"], language: nil))
        #expect(NameOrder.isJapanese(["カトウ"], language: "en"))
        #expect(!NameOrder.isJapanese(["王", "伟"], language: "zh-Hans"))
        #expect(!NameOrder.isJapanese(["王", "伟"], language: nil))
    }

    @Test func noStraySpaces() {
        #expect(NameOrder.format(PersonName(given: "", family: "Berg")) == "Berg")
        #expect(NameOrder.format(PersonName(given: " Anna ", family: "")) == "Anna")
        #expect(
            NameOrder.format(PersonName(prefix: "Dr.", given: "Ana", family: "Ruiz", suffix: "PhD"), language: "es")
                == "Dr. Ana Ruiz PhD")
        #expect(NameOrder.format(PersonName()) == "")
        #expect(PersonName(given: "  ").isEmpty)
    }

    @Test func sortStrings() {
        let n = PersonName(given: "Anna", middle: "Maria", family: "Berg")
        #expect(NameOrder.sortString(n, by: .familyName) == "Berg Anna Maria")
        #expect(NameOrder.sortString(n, by: .givenName) == "Anna Maria Berg")
        #expect(NameOrder.sortString(PersonName(family: "Berg"), by: .givenName) == "Berg")
    }
}

@Suite struct SearchFoldingTests {
    let folding: SearchFolding
    init() throws { folding = try SearchFolding() }

    @Test func caseAccentsWidth() {
        #expect(folding.fold("Hélène") == "helene")
        #expect(folding.fold("ＨＥＬ") == "hel")
        #expect(folding.fold("  HELE  ") == "hele")
        #expect(folding.fold("Łukasz Żółć") == "lukasz zolc")
        #expect(folding.fold("Straße") == "strasse")
        #expect(folding.keys(for: "Hélène Dupont-Ørsted").tokens == ["helene", "dupont", "orsted"])
    }

    @Test func transliteration() {
        #expect(folding.fold("Борис") == "boris")
        #expect(folding.keys(for: "Αλέξανδρος").folded == "alexandros")
        let zw = folding.keys(for: "张伟")
        #expect(zw.folded == "zhang wei")
        #expect(zw.compact == "zhangwei")
        #expect(zw.initials == "zw")
        // Surname readings: 单 as a surname is "shan".
        #expect(folding.keys(for: "单雄").tokens.first == "shan")
    }

    @Test func hangulInitials() {
        #expect(SearchFolding.hangulInitials("이상일") == "ㅇㅅㅇ")
        #expect(folding.keys(for: "이상일").hangulInitials == "ㅇㅅㅇ")
        #expect(SearchFolding.isHangulInitialsQuery("ㅇㅅ"))
        #expect(!SearchFolding.isHangulInitialsQuery("이"))
        #expect(!SearchFolding.isHangulInitialsQuery(""))
    }

    @Test func oddInputDoesNotCrash() {
        for s in ["", " ", "\u{301}", "😀", "🏳️‍🌈 Pride", "\u{0}", "--", "٣٤"] {
            _ = folding.keys(for: s)
            _ = folding.fold(s)
        }
        #expect(folding.fold("😀 Fan") == "fan")
        #expect(folding.fold("!!!") == "")
    }
}

/// The ASCII/Latin-1 fast path of `SearchFolding` must give exactly what ICU gives.
@Suite struct SearchFoldingFastPathTests {
    let folding: SearchFolding
    init() throws { folding = try SearchFolding() }

    /// Characters names are made of, per script (with the Latin-1 punctuation, signs and combining marks
    /// that must leave the fast path).
    static let scripts: [[Unicode.Scalar]] = {
        func range(_ r: ClosedRange<UInt32>) -> [Unicode.Scalar] { r.compactMap(Unicode.Scalar.init) }
        return [
            range(0x41...0x5A) + range(0x61...0x7A) + range(0x30...0x39) + ["'", "-", ".", ",", "_", "/", "&"],
            range(0xC0...0xFF),  // Latin-1 letters (and × ÷)
            range(0xA0...0xBF),  // Latin-1 punctuation and signs: ª º µ ¹ ² ¼ « » …
            range(0x100...0x17F),  // Latin Extended-A: Ł ő ř ş …
            range(0x1EA0...0x1EF9),  // Vietnamese
            range(0x300...0x36F),  // combining marks
            range(0x410...0x44F) + range(0x400...0x40F),  // Cyrillic
            range(0x391...0x3C9),  // Greek
            range(0xFF21...0xFF3A) + range(0xFF41...0xFF5A),  // fullwidth Latin
            range(0x4E00...0x4E80),  // Han
            range(0xAC00...0xAC80),  // Hangul
            range(0x627...0x64A),  // Arabic
            range(0x5D0...0x5EA),  // Hebrew
            range(0xE01...0xE2E),  // Thai
            range(0x905...0x939),  // Devanagari
        ]
    }()

    /// Names of one to three words, each word from one or two scripts (Latin-heavy, as address books are).
    static func names(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        var names: [String] = []
        for _ in 0..<count {
            var words: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                // Half the words only ASCII and Latin-1 letters: the fast path's share of real books.
                let pool: [Unicode.Scalar]
                if Bool.random(using: &rng) {
                    pool = scripts[0] + scripts[1]
                } else {
                    pool = scripts.randomElement(using: &rng)! + scripts.randomElement(using: &rng)!
                }
                var word = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 1...9, using: &rng) { word.append(pool.randomElement(using: &rng)!) }
                words.append(String(word))
            }
            names.append(words.joined(separator: Bool.random(using: &rng) ? " " : "  "))
        }
        return names
    }

    @Test func fastPathEqualsICUOnGeneratedNames() {
        var fast = 0
        for name in Self.names(count: 6_000, seed: 0x5EA2C4) {
            let viaICU = folding.foldThroughICU(name)
            if let latin = SearchFolding.foldLatin1(name) {
                fast += 1
                #expect(latin == viaICU, "fast path for \(name.debugDescription)")
            }
            #expect(folding.fold(name) == viaICU, "fold of \(name.debugDescription)")
            if SearchFolding.containsHangul(name) && !SearchFolding.containsHan(name) {
                // Hangul is romanized syllable by syllable ("gim min jun"): the same letters, more spaces.
                let folded = folding.keys(for: name).folded
                #expect(
                    folded.filter { $0 != " " } == viaICU.filter { $0 != " " }, "keys of \(name.debugDescription)")
            } else if !SearchFolding.containsHan(name) {
                #expect(folding.keys(for: name).folded == viaICU, "keys of \(name.debugDescription)")
            }
        }
        // The generated names exercise both paths.
        #expect(fast > 1_000)
        #expect(fast < 5_000)
    }

    @Test func everyLatin1LetterAsICUFoldsIt() {
        for value in UInt32(0xC0)...0xFF {
            let letter = String(Unicode.Scalar(value)!)
            for text in [letter, "x" + letter + "y", letter + letter.uppercased(), "A" + letter + " B"] {
                if let latin = SearchFolding.foldLatin1(text) {
                    #expect(latin == folding.foldThroughICU(text), "U+\(String(value, radix: 16)) in \(text)")
                } else {
                    // Only × and ÷, or an uppercase outside Latin-1 (ÿ → Ÿ), leave the fast path.
                    let outside = text.unicodeScalars.contains { $0.value > 0xFF }
                    #expect(value == 0xD7 || value == 0xF7 || outside, "U+\(String(value, radix: 16)) in \(text)")
                }
            }
        }
        #expect(SearchFolding.foldLatin1("Hélène Dupont-Ørsted Straße Þór") == "helene dupont orsted strasse thor")
        #expect(SearchFolding.foldLatin1("Łukasz") == nil)
        #expect(SearchFolding.foldLatin1("e\u{301}") == nil)
        #expect(SearchFolding.foldLatin1("ª") == nil)
    }
}
