import Collation
import ContactsCore
import Testing

@testable import ContactsSelection

/// The list's sections for every script and for a list of locales (issue 18, items 7 and 9).
@Suite struct LocaleListSectionsTests {
    func source(_ locales: [String]) throws -> ContactsDataSource {
        var config = Configuration()
        config.locales = locales
        config.mode = .both
        return try ContactsDataSource(contacts: try AddressBook.sample().contacts, configuration: config)
    }

    /// True when the first letter of `name` is of a script every index has letters for.
    static func hasLabeledScript(_ name: String) -> Bool {
        guard let v = name.unicodeScalars.first?.value else { return false }
        let ranges: [ClosedRange<UInt32>] = [
            0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x5D0...0x5EA, 0x620...0x64A,
            0xE01...0xE2E, 0xAC00...0xD7A3, 0x3041...0x30FF,
        ]
        return ranges.contains { $0.contains(v) }
    }

    @Test("in English, Greek, Cyrillic, Hebrew, Arabic, Thai, Hangul and kana names are not under #")
    func sampleSectionsInEnglish() throws {
        let en = try source(["en"])
        let hash = try #require(en.sections.last)
        #expect(hash.title == "#")
        let names = en.rows(in: hash).map(\.sortName)
        #expect(!names.isEmpty)
        for name in names { #expect(!Self.hasLabeledScript(name), "\(name) is under #") }
        for title in ["Α", "Б", "א", "ا", "ก", "ㄱ", "あ"] { #expect(en.indexTitles.contains(title), "\(title)") }
        // Every other row is under a letter of its own script (its section is not #).
        let lettered = en.rows.filter { $0.section != "#" }
        #expect(lettered.count + names.count == en.rows.count)
        #expect(names.count * 4 < en.rows.count)
    }

    @Test("an English-and-Chinese user finds Chinese names under their Pinyin letter")
    func englishAndChinese() throws {
        let en = try source(["en"])
        let enZh = try source(["en", "zh-Hans"])
        #expect(enZh.locale == "en" && enZh.configuration.locales == ["en", "zh-Hans"])
        let zhang = try #require(enZh.rows.first { $0.displayName == "張淑芬" })
        #expect(zhang.section == "Z")
        #expect(en.rows.first { $0.displayName == "張淑芬" }?.section == "#")
        // Sorted among the Z names: the rows of a section stay in one block in list order.
        let z = try #require(enZh.sections.first { $0.title == "Z" })
        #expect(enZh.rows(in: z).contains { $0.displayName == "張淑芬" })
        #expect(enZh.rows(in: z).contains { !$0.displayName.unicodeScalars.contains { $0.value >= 0x4E00 } })
        // The list's sections follow the first locale's texts: the same rows, other sections.
        #expect(Set(enZh.rows.map(\.id)) == Set(en.rows.map(\.id)))
    }

    @Test("the locale is the first of the list; setting it makes a list of one")
    func configurationLocales() {
        var config = Configuration()
        config.locales = ["en", "zh-Hans"]
        #expect(config.locale == "en")
        config.locale = "ja"
        #expect(config.locales == ["ja"])
    }

    @Test("a saved list's options name the whole list of locales")
    func savedOptionsKey() throws {
        let en = try source(["en"]).savedListOptions
        let enZh = try source(["en", "zh-Hans"]).savedListOptions
        #expect(en != enZh)
        #expect(enZh.contains("en,zh-Hans"))
    }
}
