import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// Search as fzf users type: words in any order, fzf's extended syntax, and fuzzy search ranked by a
/// score of word starts, runs and gaps — on a book in memory, a compact list and a saved list alike.
@Suite struct FzfSearchTests {
    static func source(_ contacts: [Contact] = book) throws -> ContactsDataSource {
        var config = Configuration()
        config.locale = "en"
        config.phoneRegion = "US"
        config.mode = .both
        return try ContactsDataSource(contacts: contacts, configuration: config)
    }

    static func names(_ source: ContactsDataSource, _ result: SearchResult) -> [String] {
        result.rowNumbers.map { source.rows[Int($0)].displayName }
    }

    @Test func patternParsesFzfsExtendedSyntax() {
        let pattern = SearchPattern("^fel 'ayt !example.org gmail$ ^whole$ ! ^ plain")
        #expect(pattern.terms.map(\.text) == ["fel", "ayt", "example.org", "gmail", "whole", "plain"])
        #expect(pattern.terms.map(\.match) == [.prefix, .exact, .exact, .suffix, .whole, .plain])
        #expect(pattern.terms.map(\.negated) == [false, false, true, false, false, false])
        #expect(pattern.isExtended)
        #expect(!SearchPattern("baytelman felipe").isExtended)
        #expect(SearchPattern("!^a").terms == [.init(text: "a", match: .prefix, negated: true)])
    }

    @Test func wordsMatchInAnyOrder() throws {
        let source = try Self.source()
        #expect(Self.names(source, source.search("baytelman felipe")) == ["Felipe Baytelman"])
        #expect(Self.names(source, source.search("felipe baytelman")) == ["Felipe Baytelman"])
        // Each word anywhere in the name, the emails or the organization.
        #expect(Self.names(source, source.search("widgets bob")) == ["Robert Tables"])
        #expect(Self.names(source, source.search("example.com felipe")) == ["Felipe Baytelman"])
        #expect(source.search("felipe xyz").count == 0)
    }

    @Test func extendedSyntaxFiltersByFieldStartEndExactAndNot() throws {
        let source = try Self.source()
        // A field starts with it: the name, an email, the organization…
        #expect(Self.names(source, source.search("^fel")) == ["Felipe Baytelman"])
        #expect(Self.names(source, source.search("^acme")) == ["Robert Tables"])
        #expect(source.search("^elipe").count == 0)
        #expect(Self.names(source, source.search("'ytel")) == ["Felipe Baytelman"])
        #expect(Self.names(source, source.search("widgets$")) == ["Robert Tables"])
        #expect(source.search("acme$").count == 0)
        #expect(Self.names(source, source.search("^acme widgets$")) == ["Robert Tables"])
        let everyone = source.search("").count
        let notExample = source.search("!example")
        #expect(notExample.count == everyone - 4)
        #expect(!Self.names(source, notExample).contains("Felipe Baytelman"))
        // A plain word with a negated one; a term still being typed ("!") says nothing yet.
        #expect(Self.names(source, source.search("e !example !bobby")).allSatisfy { $0 != "Robert Tables" })
        #expect(source.search("!").count == everyone)
        // Sectioned as the list.
        #expect(notExample.sections.map(\.title) == source.search("!example").sections.map(\.title))
        #expect(notExample.sections.allSatisfy { !$0.title.isEmpty })
    }

    @Test func fuzzyFindsFbayBestFirstAndKeepsSectionsWhenEmpty() throws {
        var contacts = book
        contacts.append(person("fiona", given: "Fiona", family: "Bradbury", phones: ["+1 415 555 0190"]))
        contacts.append(person("fab", given: "Fabian", family: "Ay", phones: ["+1 415 555 0191"]))
        let source = try Self.source(contacts)
        #expect(source.search("fbay").count == 0)
        let fuzzy = source.search("fbay", fuzzy: true)
        let names = Self.names(source, fuzzy)
        #expect(names.first == "Felipe Baytelman", "\(names)")
        #expect(names.contains("Fiona Bradbury"))
        // Ranked: one untitled section.
        #expect(fuzzy.sections == [RowSection(title: "", range: 0..<fuzzy.count)])
        // The empty query keeps the alphabetical sections.
        let empty = source.search("", fuzzy: true)
        #expect(empty.sections.map(\.title) == source.sections.map(\.title))
        // Extended terms still work in fuzzy mode: 'exact is not fuzzy.
        #expect(source.search("'fbay", fuzzy: true).count == 0)
        #expect(Self.names(source, source.search("fbay !fiona", fuzzy: true)).contains("Fiona Bradbury") == false)
        // Digits stay a phone search.
        #expect(Self.names(source, source.search("4155550190", fuzzy: true)) == ["Fiona Bradbury"])
    }

    @Test func fuzzyScoreRewardsWordStartsRunsAndPenalizesGaps() throws {
        let felipe = try #require(FuzzyScore.score("fbay", in: "felipe baytelman"))
        let fiona = try #require(FuzzyScore.score("fbay", in: "fiona bradbury"))
        #expect(felipe > fiona)
        // A run beats the same letters scattered; a word start beats the middle of a word.
        #expect(try #require(FuzzyScore.score("bay", in: "x bay")) > #require(FuzzyScore.score("bay", in: "b x a x y")))
        #expect(try #require(FuzzyScore.score("ann", in: "x anna")) > #require(FuzzyScore.score("ann", in: "xanna")))
        // The best alignment, not the first one: "ab" at the word start, not the a inside "xa".
        #expect(FuzzyScore.score("ab", in: "xa ab") == FuzzyScore.score("ab", in: "ab"))
        #expect(FuzzyScore.score("xyz", in: "felipe baytelman") == nil)
        #expect(FuzzyScore.score("", in: "anything") == 0)
    }

    /// Typing one key at a time (each keystroke refining the last result) finds what a fresh search finds,
    /// for plain words in any order, keywords, extended terms and fuzzy terms, over a generated book.
    @Test func incrementalSearchEqualsAFreshSearch() throws {
        let vcf = VCardBookGenerator.book(cards: 600, seed: 34)
        var config = Configuration()
        config.locale = "en"
        config.phoneRegion = "US"
        let list = try CompactContactList(data: Data(vcf.utf8), fileName: "book.vcf", configuration: config)
        for typed in ["an mü", "müller anna", "b f", "^fel bayt", "felipe !smith", "fbay", "ann$ ^z"] {
            for fuzzy in [false, true] {
                for keywords in [false, true] {
                    var previous: SearchResult?
                    var text = ""
                    for character in typed {
                        text.append(character)
                        let refined = list.search(text, keywords: keywords, fuzzy: fuzzy, refining: previous)
                        let fresh = list.search(text, keywords: keywords, fuzzy: fuzzy, refining: nil)
                        #expect(refined.rowNumbers == fresh.rowNumbers, "\(text) fuzzy \(fuzzy) keywords \(keywords)")
                        previous = refined
                    }
                }
            }
        }
        // A fuzzy keystroke looks only at the rows the previous one found (a result of one row stays one).
        let wide = list.search("f", keywords: false, fuzzy: true, refining: nil)
        #expect(wide.count > 1)
        var one = SearchResult(query: "f", rowNumbers: [wide.rowNumbers[1]], sections: [], parsed: nil)
        one.pattern = (SearchPattern("f"), false, true)
        #expect(
            list.search("fe", keywords: false, fuzzy: true, refining: one).rowNumbers.allSatisfy {
                $0 == wide.rowNumbers[1]
            })
        #expect(list.search("fe", keywords: false, fuzzy: true, refining: nil).count > 1)
        // And the words of a plain query in either order find the same rows.
        #expect(
            Set(list.search("anna müller").rowNumbers) == Set(list.search("müller anna").rowNumbers))
        #expect(list.search("anna müller").count > 0)
    }
}
