import Collation
import ICUKit
import Testing

/// Sections as native contacts apps show them, one locale at a time.
@Suite struct SectionsTests {
    let names = [
        "山田太郎", "やまだ たろう", "さとう はなこ", "カトウ", "Smith", "张伟", "王芳", "李娜", "赵敏", "陈静", "이상일", "김민준", "박서연",
        "Борис", "Анна", "Яна", "أحمد", "ليلى", "Ñandú", "Nora", "Ärger", "Adam", "Zorn", "1st Place",
    ]

    func titled(_ locale: String, _ names: [String]) throws -> [String: [String]] {
        let c = try LocalizedCollation(locale: locale)
        var result: [String: [String]] = [:]
        for s in c.sections(names) { result[s.title] = s.items }
        return result
    }

    @Test func swedishLettersAfterZ() throws {
        let sv = try LocalizedCollation(locale: "sv")
        #expect(sv.sorted(["Örjan", "Zoe", "Åsa", "Anna", "Ärla"]) == ["Anna", "Zoe", "Åsa", "Ärla", "Örjan"])
        let sections = sv.sections(["Örjan", "Zoe", "Åsa", "Anna", "Ärla", "42 Club"])
        #expect(sections.map(\.title) == ["A", "Z", "Å", "Ä", "Ö", "#"])
        let z = try #require(sv.indexTitles.firstIndex(of: "Z"))
        #expect(Array(sv.indexTitles[(z + 1)...(z + 3)]) == ["Å", "Ä", "Ö"])
        #expect(sv.indexTitles.last == "#")
    }

    @Test func germanUmlautWithA() throws {
        let de = try LocalizedCollation(locale: "de")
        let s = de.sections(["Zorn", "Ärger", "Adam", "Österreich", "Otto", "Übel"])
        #expect(s.map(\.title) == ["A", "O", "U", "Z"])
        #expect(s[0].items == ["Adam", "Ärger"])
        #expect(s[1].items == ["Österreich", "Otto"])
        #expect(!de.indexTitles.contains("Ä"))
    }

    @Test func spanishEnye() throws {
        let es = try titled("es", ["Nora", "Ñandú", "Ocaña", "Núñez"])
        #expect(es["N"] == ["Nora", "Núñez"])
        #expect(es["Ñ"] == ["Ñandú"])
        let bar = try LocalizedCollation(locale: "es").indexTitles
        #expect(bar.firstIndex(of: "Ñ")! == bar.firstIndex(of: "N")! + 1)
    }

    @Test func englishDigitsSymbolsEmojiLast() throws {
        let en = try LocalizedCollation(locale: "en")
        let s = en.sections(["bob", "Alice", "42", "😀 Fan", "#hash", "", "Émile"])
        #expect(s.map(\.title) == ["A", "B", "E", "#"])
        #expect(s.last!.items.count == 4)
        #expect(s.last!.items.contains(""))
        #expect(s.last!.items.contains("😀 Fan"))
        #expect(en.indexTitles.first == "A" && en.indexTitles[25] == "Z" && en.indexTitles.last == "#")
        #expect(en.indexTitles.contains("Б") && en.indexTitles.contains("あ"))  // other scripts' letters follow
    }

    @Test func japaneseKanaRowsAndLatin() throws {
        let ja = try titled("ja", names)
        #expect(ja["か"] == ["カトウ"])
        #expect(ja["さ"] == ["さとう はなこ"])
        #expect(ja["や"] == ["やまだ たろう"])
        #expect(ja["S"] == ["Smith"])
        #expect(ja["他"]?.contains("山田太郎") == true)  // kanji without a reading
        #expect(ja["#"] == ["1st Place"])
        let bar = try LocalizedCollation(locale: "ja").indexTitles
        #expect(bar.contains("あ") && bar.contains("わ") && bar.contains("A"))
        // Hiragana and katakana of the same row share a section.
        let rows = try titled("ja", ["たなか", "タナカ", "ちば", "ツダ"])
        #expect(rows["た"]?.count == 4)
    }

    @Test func chinesePinyinInitials() throws {
        let zh = try titled("zh-Hans", names)
        #expect(zh["Z"] == ["张伟", "赵敏", "Zorn"])
        #expect(zh["W"] == ["王芳"])
        #expect(zh["L"] == ["李娜"])
        #expect(zh["C"] == ["陈静"])
        #expect(zh["#"]?.first == "1st Place")
    }

    @Test func traditionalChineseStrokes() throws {
        let zh = try titled("zh-Hant", ["王芳", "李娜", "陳靜", "Smith"])
        #expect(zh["4劃"] == ["王芳"])
        #expect(zh["7劃"] == ["李娜"])
        #expect(zh["11劃"] == ["陳靜"])
        #expect(zh["S"] == ["Smith"])
    }

    @Test func koreanJamo() throws {
        let ko = try titled("ko", ["이상일", "김민준", "박서연", "최지우", "Smith"])
        #expect(ko["ㅇ"] == ["이상일"])
        #expect(ko["ㄱ"] == ["김민준"])
        #expect(ko["ㅂ"] == ["박서연"])
        #expect(ko["ㅊ"] == ["최지우"])
        let bar = try LocalizedCollation(locale: "ko").indexTitles
        #expect(bar.prefix(3) == ["ㄱ", "ㄴ", "ㄷ"])
    }

    @Test func russianCyrillicThenLatin() throws {
        let ru = try LocalizedCollation(locale: "ru")
        let s = ru.sections(["Яна", "Борис", "Анна", "Ёлка", "Ежов", "Smith"])
        #expect(s.map(\.title) == ["А", "Б", "Е", "Я", "S"])
        #expect(s[2].items == ["Ежов", "Ёлка"])
    }

    @Test func arabicLetters() throws {
        let ar = try titled("ar", ["أحمد", "ليلى", "بشير", "Smith"])
        #expect(ar["ا"] == ["أحمد"])
        #expect(ar["ب"] == ["بشير"])
        #expect(ar["ل"] == ["ليلى"])
        #expect(ar["S"] == ["Smith"])
    }

    @Test func sortAsValueDrivesSortingAndSections() throws {
        struct Person {
            var name: String
            var reading: String?
        }
        let people = [
            Person(name: "山田太郎", reading: "やまだ たろう"), Person(name: "佐藤花子", reading: "さとう はなこ"),
            Person(name: "Smith", reading: nil),
        ]
        let ja = try LocalizedCollation(locale: "ja")
        let s = ja.sections(people) { $0.reading ?? $0.name }
        #expect(s.map(\.title) == ["S", "さ", "や"])
        #expect(s[2].items.map(\.name) == ["山田太郎"])
    }

    @Test func galloppingBucketsMatchDirectBuckets() throws {
        // Many names across scripts: sectioning by runs must equal bucketing each name on its own.
        var pool: [String] = []
        let stems =
            names + [
                "!Zed", "(Anna)", "\"Quote\" Bob", "-Xavier", "Émile", "Øystein", "Łukasz", "Ωmega", "ßtraße",
                "O'Brien", "d'Arc", "😀", "🎉 Party", "!!", "٣٤", "آمنة", "إبراهيم", "ؤلؤ", "ئ", "ٱ", "\u{627}\u{654}حمد",
                "Эдуард", "Ђорђе", "שרה", "สมชาย", "अनन्या",
            ]
        for (i, stem) in stems.enumerated() {
            for j in 0..<7 { pool.append(j == 0 ? stem : "\(stem) \(i * j)") }
        }
        // The list's own collator options change the order the runs are found in (punctuation ignored,
        // digits by value, case first): grouping must hold under each of them, not only the defaults.
        let variants: [(String, Collator.Options)] = [
            ("default", Collator.Options()), ("alternateShifted", Collator.Options(alternateShifted: true)),
            ("numeric", Collator.Options(numeric: true)), ("caseLevel", Collator.Options(caseLevel: true)),
            ("primary", Collator.Options(strength: .primary)),
            ("all", Collator.Options(strength: .primary, numeric: true, alternateShifted: true, caseLevel: true)),
        ]
        let lists = [
            ["en"], ["sv"], ["ja"], ["zh-Hans"], ["zh-Hant"], ["ko"], ["ru"], ["ar"], ["en", "zh-Hans"], ["en", "ja"],
        ]
        for list in lists {
            let locale = list.joined(separator: ",")
            for (variant, options) in variants {
                let c = try LocalizedCollation(locales: list, options: options)
                let sections = c.sections(pool)
                #expect(sections.reduce(0) { $0 + $1.items.count } == pool.count)
                for section in sections {
                    for item in section.items {
                        #expect(c.index.title(for: item) == section.title, "\(locale) \(variant): \(item)")
                    }
                    let sorted = c.sorted(section.items)
                    #expect(section.items == sorted, "\(locale) \(variant): section \(section.title) sorted")
                }
                #expect(Set(sections.map(\.title)).count == sections.count, "\(locale) \(variant)")
                if let hash = sections.firstIndex(where: { $0.title == "#" }) { #expect(hash == sections.count - 1) }
            }
        }
    }

    @Test func noCrashOnOddInput() throws {
        let en = try LocalizedCollation(locale: "en")
        let odd = [
            "\u{301}", "\u{301}abc", "", " ", "\u{0}", "🏳️‍🌈", "\u{FFFD}", String(repeating: "ä", count: 5000),
            "\u{200B}x",
        ]
        let s = en.sections(odd)
        #expect(s.reduce(0) { $0 + $1.items.count } == odd.count)
        #expect(en.sorted(odd).count == odd.count)
    }
}

@Suite struct CollationOptionsTests {
    @Test func numericOrdering() throws {
        let plain = try LocalizedCollation(locale: "en")
        #expect(plain.sorted(["File 10", "File 2"]) == ["File 10", "File 2"])
        let numeric = try LocalizedCollation(locale: "en", options: .init(numeric: true))
        #expect(numeric.sorted(["File 10", "File 2"]) == ["File 2", "File 10"])
    }

    @Test func sortKeysOrderLikeCompare() throws {
        let c = try LocalizedCollation(locale: "de")
        let words = ["b", "A", "a", "ä", "Ä", "z", "äb", "Ab"]
        for a in words {
            for b in words {
                let ka = c.sortKey(a)
                let kb = c.sortKey(b)
                let byKey = ka.lexicographicallyPrecedes(kb) ? -1 : (ka == kb ? 0 : 1)
                #expect(byKey == c.compare(a, b), "\(a) vs \(b)")
            }
        }
    }

    @Test func stableForEqualKeys() throws {
        let c = try LocalizedCollation(locale: "en", options: .init(strength: .primary))
        struct Item {
            var name: String
            var n: Int
        }
        let items = [Item(name: "a", n: 0), Item(name: "A", n: 1), Item(name: "á", n: 2)]
        #expect(c.sorted(items) { $0.name }.map(\.n) == [0, 1, 2])
    }

    @Test func badLocaleStillWorksOrThrowsClearly() throws {
        // ICU falls back to root for unknown languages rather than failing.
        let c = try LocalizedCollation(locale: "xx-Unknown")
        #expect(c.sorted(["b", "a"]) == ["a", "b"])
        #expect(try LocalizedCollation(locale: "zh_CN").locale == "zh-CN")
    }
}

@Suite struct SectionsFollowTheListOrder {
    @Test("with alternate shifted, a name in parentheses sorts and is sectioned with its letter")
    func punctuationIgnored() throws {
        let shifted = try LocalizedCollation(locale: "en", options: Collator.Options(alternateShifted: true))
        let names = ["Bob", "(Anna)", "Anne", "Zed", "!Zoe"]
        #expect(shifted.sorted(names) == ["(Anna)", "Anne", "Bob", "Zed", "!Zoe"])
        #expect(shifted.sections(names).map(\.title) == ["A", "B", "Z"])
        let plain = try LocalizedCollation(locale: "en")
        #expect(plain.sections(names).map(\.title) == ["A", "B", "Z", "#"])
    }
}
