import Collation
import Dispatch
import ICUKit
import Synchronization
import Testing

/// Sections for every script, as Android's ContactLocaleUtils makes them (issue 18, items 7–9).
@Suite struct ScriptSectionsTests {
    /// A name of each script with labels, and the section it belongs in.
    static let scriptNames: [(name: String, title: String)] = [
        ("Ωmega", "Ω"), ("Ελένη", "Ε"), ("Борис", "Б"), ("Эдуард", "Э"), ("Ђорђе", "Ђ"), ("Ірина", "І"),
        ("שרה", "ש"), ("أحمد", "ا"), ("إبراهيم", "ا"), ("ليلى", "ل"), ("สมชาย", "ส"), ("김민준", "ㄱ"),
        ("さとう", "さ"), ("カトウ", "か"), ("Smith", "S"),
    ]

    func titled(_ locales: [String], _ names: [String]) throws -> [String: [String]] {
        let c = try LocalizedCollation(locales: locales)
        var result: [String: [String]] = [:]
        for s in c.sections(names) { result[s.title] = s.items }
        return result
    }

    @Test(
        "a name in another script gets its own section; # holds digits, symbols and scripts without labels",
        arguments: ["en", "sv", "de", "fr", "ru", "ar", "he", "el", "th", "ko", "ja", "zh-Hans", "zh-Hant", "hi"])
    func everyScriptHasLetters(_ locale: String) throws {
        let c = try LocalizedCollation(locale: locale)
        for (name, title) in Self.scriptNames {
            let got = c.index.title(for: name)
            #expect(got == title, "\(locale): \(name) → \(got)")
        }
        let others = ["1st Place", "+1 555 0100", "😀 Fan", "#", "अनन्या"]
        for name in others where !(locale == "hi" && name == "अनन्या") {
            #expect(c.index.title(for: name) == "#", "\(locale): \(name)")
        }
        #expect(c.indexTitles.count <= SectionIndex.maxLabels + 2, "\(locale): \(c.indexTitles.count) labels")
        #expect(c.indexTitles.last == "#")
    }

    @Test("English: other scripts after the Latin letters, # last and only for what has no letter")
    func englishSections() throws {
        let en = try titled(["en"], Self.scriptNames.map(\.name) + ["42", "😀 Fan"])
        #expect(Set(en["#"] ?? []) == ["42", "😀 Fan"])
        #expect(en["ا"] == ["أحمد", "إبراهيم"])
        let bar = try LocalizedCollation(locale: "en").indexTitles
        #expect(bar.prefix(26).joined() == "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for letter in ["Α", "Б", "Э", "Ђ", "א", "ا", "ก", "ㄱ", "あ"] { #expect(bar.contains(letter), "\(letter)") }
        // Each script's letters in one run, in the collation's script order.
        let order = ["A", "Α", "А", "א", "ا", "ก", "ㄱ", "あ"].map { bar.firstIndex(of: $0)! }
        #expect(order == order.sorted())
    }

    @Test("Japanese: a kanji name without a reading is under 他 (after わ); with a reading under its kana row")
    func japaneseOther() throws {
        let ja = try LocalizedCollation(locale: "ja")
        let s = ja.sections(["山田太郎", "张伟", "やまだ", "わたなべ", "1st Place", "Smith"])
        #expect(s.map(\.title) == ["S", "や", "わ", "他", "#"])
        #expect(s[3].items == ["山田太郎", "张伟"])
        #expect(s[4].items == ["1st Place"])
        let bar = ja.indexTitles
        #expect(bar.firstIndex(of: "他") == bar.firstIndex(of: "わ")! + 1)
        // With a reading (X-PHONETIC, SORT-AS), the reading files the name.
        struct Person {
            var name: String
            var reading: String?
        }
        let people = [Person(name: "山田太郎", reading: "やまだ たろう"), Person(name: "佐藤花子", reading: nil)]
        let byReading = ja.sections(people) { $0.reading ?? $0.name }
        #expect(byReading.map(\.title) == ["や", "他"])
        // A Japanese user whose first language is English files kanji names the same way.
        #expect(try SectionIndex(locales: ["en", "ja"]).title(for: "山田太郎") == "他")
        // Without Japanese in the list, Han names have no letters: #.
        #expect(try SectionIndex(locale: "en").title(for: "山田太郎") == "#")
    }

    @Test("a list of locales: the first sorts, a Chinese one files Han names under their Pinyin letter")
    func englishAndChinese() throws {
        let names = ["Walter", "王伟", "Zorn", "张伟", "Anna", "Борис", "1st"]
        let enZh = try LocalizedCollation(locales: ["en", "zh-Hans"])
        #expect(enZh.locale == "en" && enZh.locales == ["en", "zh-Hans"])
        let s = enZh.sections(names)
        #expect(s.map(\.title) == ["A", "W", "Z", "Б", "#"])
        #expect(s[1].items == ["Walter", "王伟"])
        #expect(s[2].items == ["张伟", "Zorn"])
        #expect(enZh.sorted(names) == ["1st", "Anna", "Walter", "王伟", "张伟", "Zorn", "Борис"])
        #expect(enZh.index.title(for: "王伟") == "W")
        // The English alone have no letter for Han names; the first locale still decides the order.
        #expect(try titled(["en"], names)["#"] == ["1st", "张伟", "王伟"])
        #expect(
            try LocalizedCollation(locales: ["sv", "zh-Hans"]).sections(["Åsa", "王伟"]).map(\.title) == ["W", "Å"])
        // Traditional Chinese has no Pinyin reading: Han names stay together (#) for an English first locale.
        #expect(try SectionIndex(locales: ["en", "zh-Hant"]).title(for: "王伟") == "#")
        // Other locales of the list add their letters.
        #expect(try LocalizedCollation(locales: ["en", "hi"]).index.title(for: "अनन्या") == "अ")
    }

    @Test("the immutable index is built once per list and collator and shared across threads")
    func sharedIndex() throws {
        let a = try SectionIndex.shared(locales: ["en", "zh-Hans"])
        let b = try SectionIndex.shared(locales: ["en", "zh-Hans"])
        #expect(a === b)
        #expect(try SectionIndex.shared(locales: ["en"]) !== a)
        let c1 = try LocalizedCollation(locale: "ja")
        let c2 = try LocalizedCollation(locale: "ja")
        #expect(c1.index === c2.index)
        let shifted = try LocalizedCollation(locale: "ja", options: Collator.Options(alternateShifted: true))
        #expect(shifted.index !== c1.index)
        let names = Self.scriptNames.map(\.name) + ["山田", "王伟", "42"]
        let expected = names.map { a.title(for: $0) }
        let results = Mutex<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let got = names.map { a.title(for: $0) }
            results.withLock { $0.append(got) }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == expected })
    }
}
