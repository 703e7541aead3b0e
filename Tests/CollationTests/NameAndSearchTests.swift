import Collation
import Testing

@Suite struct NameOrderTests {
    @Test func orderPerLocaleAndScript() {
        let anna = PersonName(given: "Anna", family: "Berg")
        #expect(NameOrder.format(anna, locale: "en") == "Anna Berg")
        #expect(NameOrder.format(PersonName(given: "Péter", family: "Nagy"), locale: "hu") == "Nagy Péter")
        #expect(NameOrder.format(PersonName(given: "太郎", family: "山田"), locale: "en") == "山田太郎")
        #expect(NameOrder.format(PersonName(given: "伟", family: "张"), locale: "zh-Hans") == "张伟")
        #expect(NameOrder.format(PersonName(given: "상일", family: "이"), locale: "ko") == "이상일")
        #expect(NameOrder.format(PersonName(given: "John", family: "Smith"), locale: "ja") == "John Smith")
        #expect(NameOrder.format(PersonName(given: "An", family: "Nguyễn"), locale: "vi") == "Nguyễn An")
        #expect(NameOrder.display(for: "ja-JP") == .familyFirst)
        #expect(NameOrder.display(for: "de") == .givenFirst)
    }

    @Test func noStraySpaces() {
        #expect(NameOrder.format(PersonName(given: "", family: "Berg"), locale: "en") == "Berg")
        #expect(NameOrder.format(PersonName(given: " Anna ", family: ""), locale: "en") == "Anna")
        #expect(NameOrder.format(PersonName(prefix: "Dr.", given: "Ana", family: "Ruiz", suffix: "PhD"), locale: "es")
                == "Dr. Ana Ruiz PhD")
        #expect(NameOrder.format(PersonName(), locale: "en") == "")
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
