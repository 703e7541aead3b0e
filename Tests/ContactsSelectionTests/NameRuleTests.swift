import Collation
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsCore
@testable import ContactsSelection

/// Issue 18 items 3 and 5: a contact is sorted and sectioned under the name shown (a nickname only when
/// nicknames are shown), by one rule in the data source, the compact list and the saved list; and a
/// Japanese name is searched by its reading, never through Mandarin Pinyin.
@Suite struct NameRuleTests {
    static func card(_ id: String, _ n: String, nickname: String? = nil, extra: String = "", phone: String) -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(id)\r\nN:\(n)\r\n" + (nickname.map { "NICKNAME:\($0)\r\n" } ?? "")
            + extra + "TEL:\(phone)\r\nEND:VCARD\r\n"
    }

    static let text =
        card("noah", "White;Noah;;;", nickname: "Abby", phone: "+1 206 555 0101")
        + card("abigail", "Clark;Abigail;;;", phone: "+1 415 555 0130")
        + card(
            "wang", "王;伟;;;", nickname: "小王", extra: "X-PHONETIC-LAST-NAME:Wang\r\nLANG:zh-Hans\r\n",
            phone: "+61 491 570 121")
        + card("bruno", "Finstein;Bruno;;;", phone: "+1 415 555 0101")
        + card(
            "watanabe", "渡辺;大輔;;;", nickname: "ダイ",
            extra: "X-PHONETIC-FIRST-NAME:だいすけ\r\nX-PHONETIC-LAST-NAME:わたなべ\r\nLANG:ja\r\n",
            phone: "+1 415 555 0125")
        // No LANG: the kana reading says the name is Japanese.
        + card(
            "yamada", "山田;太郎;;;", extra: "X-PHONETIC-FIRST-NAME:たろう\r\nX-PHONETIC-LAST-NAME:やまだ\r\n",
            phone: "+81 3 5555 0100")
        + card("zhang", "张;伟;;;", phone: "+86 10 5555 0100")
        + card("kim", "김;민준;;;", extra: "LANG:ko\r\n", phone: "+82 2 555 0101")
        + card("lee", "이;민준;;;", phone: "+82 2 555 0102")

    /// The three listings of `text` with one configuration: (name, listing).
    static func listings(_ config: Configuration) throws -> [(String, any ContactListing)] {
        let book = AddressBook(data: Data(text.utf8), fileName: "names.vcf")
        let source = try ContactsDataSource(contacts: book.contacts, configuration: config)
        let compact = try CompactContactList(data: Data(text.utf8), fileName: "names.vcf", configuration: config)
        let identity = BookIdentity(size: 1, modified: 2, hash: 3)
        let path = Scratch.path("names", suffix: ".index")
        try SavedList.write(compact, to: path.path, book: identity)
        let saved = try SavedList(path: path.path, book: identity, options: compact.savedListOptions)
        try? FileManager.default.removeItem(at: path)
        return [("data source", source), ("compact list", compact), ("saved list", saved)]
    }

    /// (section title, names) of a search result.
    static func sections(_ listing: any ContactListing, _ query: String = "", keywords: Bool = false) -> [String:
        [String]]
    {
        let r = listing.search(query, keywords: keywords, refining: nil)
        var out: [String: [String]] = [:]
        for s in r.sections {
            out[s.title, default: []] += r.rowNumbers[s.range].map { listing.listedRow(Int($0)).displayName }
        }
        return out
    }

    static func ids(_ listing: any ContactListing, _ query: String, keywords: Bool = false) -> Set<String> {
        let r = listing.search(query, keywords: keywords, refining: nil)
        return Set(r.rowNumbers.map { listing.listedRow(Int($0)).id })
    }

    @Test(arguments: ["en", "zh-Hans"]) func aNicknameThatIsNotShownNeverDecidesThePlace(locale: String) throws {
        var config = Configuration()
        config.locale = locale
        for (name, listing) in try Self.listings(config) {
            let sections = Self.sections(listing)
            #expect(sections["N"] == ["Noah White"], "\(name)")
            #expect(sections["A"] == ["Abigail Clark"], "\(name)")
            if locale == "zh-Hans" {
                #expect(sections["W"]?.contains("王伟") == true, "\(name): \(sections)")
                #expect(sections["X"] == nil, "\(name)")
            }
            // Still searchable by the nickname.
            #expect(Self.ids(listing, "abby") == ["noah"], "\(name)")
            #expect(Self.ids(listing, "xiao") == ["wang"], "\(name)")
        }
    }

    @Test(arguments: ["en", "zh-Hans"]) func preferredNicknamesAreShownAndSortedBy(locale: String) throws {
        var config = Configuration()
        config.locale = locale
        config.preferNicknames = true
        for (name, listing) in try Self.listings(config) {
            let sections = Self.sections(listing)
            #expect(sections["A"] == ["Abby", "Abigail Clark"], "\(name)")
            #expect(sections["N"] == nil, "\(name)")
            // Shown as 小王, sorted as 小王 (not by the reading "Wang" of 王伟).
            #expect(sections.values.contains { $0.contains("小王") }, "\(name)")
            #expect(sections["W"]?.contains("小王") != true, "\(name): \(sections)")
            if locale == "zh-Hans" { #expect(sections["X"] == ["小王"], "\(name): \(sections)") }
            // The name is still searchable.
            #expect(Self.ids(listing, "noah white") == ["noah"], "\(name)")
            #expect(Self.ids(listing, "wang") == ["wang"], "\(name)")
            #expect(Self.ids(listing, "watanabe") == ["watanabe"], "\(name)")
        }
        // The saved list of one setting does not answer for the other.
        var plain = config
        plain.preferNicknames = false
        #expect(ContactsDataSource.savedListOptions(config) != ContactsDataSource.savedListOptions(plain))
        let compact = try CompactContactList(data: Data(Self.text.utf8), fileName: "names.vcf", configuration: config)
        let identity = BookIdentity(size: 1, modified: 2, hash: 3)
        let path = Scratch.path("names", suffix: ".index")
        defer { try? FileManager.default.removeItem(at: path) }
        try SavedList.write(compact, to: path.path, book: identity)
        #expect(throws: SavedListError.self) {
            try SavedList(path: path.path, book: identity, options: ContactsDataSource.savedListOptions(plain))
        }
    }

    @Test(arguments: [false, true]) func japaneseNamesAreSearchedByTheirReading(keywords: Bool) throws {
        var config = Configuration()
        config.locale = "en"
        for (name, listing) in try Self.listings(config) {
            // Mandarin readings of the kanji (渡辺 du bian, 大輔 da fu, 山田 shan tian) find nothing.
            for query in ["dubian", "du bian", "dafu", "shantian", "shan"] {
                #expect(Self.ids(listing, query, keywords: keywords).isEmpty, "\(name): \(query)")
            }
            #expect(Self.ids(listing, "watanabe", keywords: keywords) == ["watanabe"], "\(name)")
            #expect(Self.ids(listing, "daisuke", keywords: keywords) == ["watanabe"], "\(name)")
            #expect(Self.ids(listing, "yamada", keywords: keywords) == ["yamada"], "\(name)")
            // Kanji queries still find them; Chinese names keep their Pinyin.
            #expect(Self.ids(listing, "渡辺", keywords: keywords) == ["watanabe"], "\(name)")
            #expect(Self.ids(listing, "大輔", keywords: keywords) == ["watanabe"], "\(name)")
            #expect(Self.ids(listing, "山田", keywords: keywords) == ["yamada"], "\(name)")
            #expect(Self.ids(listing, "zhang wei", keywords: keywords) == ["zhang"], "\(name)")
            #expect(Self.ids(listing, "张伟", keywords: keywords) == ["zhang"], "\(name)")
            #expect(Self.ids(listing, "wang", keywords: keywords) == ["wang"], "\(name)")
        }
    }

    @Test(arguments: [false, true]) func romanizedKoreanMatchesSyllables(keywords: Bool) throws {
        var config = Configuration()
        config.locale = "en"
        for (name, listing) in try Self.listings(config) {
            #expect(Self.ids(listing, "minjun", keywords: keywords) == ["kim", "lee"], "\(name)")
            #expect(Self.ids(listing, "min jun", keywords: keywords) == ["kim", "lee"], "\(name)")
            #expect(Self.ids(listing, "gim min", keywords: keywords) == ["kim"], "\(name)")
        }
    }
}
