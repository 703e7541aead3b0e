import Collation
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsCore
@testable import ContactsSelection

/// A compact list read straight from vCard bytes answers exactly as a data source made from the address
/// book of the same bytes: rows, values, sections, skipped contacts, diagnostics and every search.
@Suite struct CompactListTests {
    static let text = VCardBookGenerator.book(cards: 700, seed: 3)

    func rows(_ listing: any ContactListing, _ result: SearchResult) -> [[ListedRow]] {
        result.sections.map { section in result.rowNumbers[section.range].map { listing.listedRow(Int($0)) } }
    }

    /// The compact list of `text` read in several pieces on two threads.
    func compact(_ config: Configuration) throws -> CompactContactList {
        let reading = try CompactContactList.reading(config)
        let stream = VCardReader.stream(
            data: Data(Self.text.utf8), fileName: "book.vcf", releasingPagesRead: false,
            makePiece: reading.makePiece, reading.body, maxChunks: 8, threads: 2, minChunkSize: 4_096)
        #expect(stream.pieces.count > 1)
        return try CompactContactList(stream: stream, collation: reading.collation, configuration: config)
    }

    @Test(arguments: ["en", "ja", "zh-Hans", "sv", "en,zh-Hans", "en,ja"])
    func sameAnswersAsTheDataSource(locale: String) throws {
        let book = AddressBook(data: Data(Self.text.utf8), fileName: "book.vcf")
        for mode in [SelectionMode.messages, .email, .both] {
            for skipUnnamed in [false, true] {
                var config = Configuration()
                config.locales = locale.split(separator: ",").map(String.init)
                config.mode = mode
                config.skipUnnamedContacts = skipUnnamed
                let source = try ContactsDataSource(contacts: book.contacts, configuration: config)
                let list = try compact(config)
                let label = "\(locale) \(mode) \(skipUnnamed)"
                #expect(list.rowCount == source.rows.count, "\(label)")
                #expect(list.sections == source.sections, "\(label)")
                #expect(list.indexTitles == source.indexTitles)
                #expect(list.skipped.map(\.id) == source.skipped.map(\.id), "\(label)")
                #expect(list.skipped.map(\.reason) == source.skipped.map(\.reason), "\(label)")
                #expect(list.diagnostics == book.diagnostics)
                #expect(list.contactCount == book.contacts.count)
                #expect(list.skipped.contains { $0.reason == .duplicate }, "\(label)")
                for query in [
                    "", "an", "hele", "Борис", "山田", "zw", "ㅁㅈ", "bobby", "acme", "415", "555", "030", "u1",
                    "example.net", "f b", "zz",
                ] {
                    for keywords in [false, true] {
                        let expected = source.search(query, keywords: keywords)
                        let got = list.search(query, keywords: keywords, refining: nil)
                        #expect(got.rowNumbers == expected.rowNumbers, "\(label) \(query) \(keywords)")
                        #expect(rows(list, got) == rows(source, expected), "\(label) \(query)")
                    }
                }
            }
        }
    }

    @Test func aFileReadsAsItsBytesAndSavesTheSameList() throws {
        let url = Scratch.path("compact", suffix: ".vcf")
        try Data(Self.text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var config = Configuration()
        config.locale = "de"
        config.mode = .both
        let fromFile = try CompactContactList(contentsOfFile: url.path, fileName: "book.vcf", configuration: config)
        let fromBytes = try CompactContactList(data: Data(Self.text.utf8), fileName: "book.vcf", configuration: config)
        let all = fromBytes.search("", keywords: false, refining: nil)
        #expect(rows(fromFile, fromFile.search("", keywords: false, refining: nil)) == rows(fromBytes, all))
        #expect(fromFile.diagnostics == fromBytes.diagnostics)
        // Saved, it answers as the data source's saved list does.
        let identity = BookIdentity(size: 1, modified: 2, hash: 3)
        let path = Scratch.path("compact", suffix: ".index")
        defer { try? FileManager.default.removeItem(at: path) }
        try SavedList.write(fromFile, to: path.path, book: identity)
        let saved = try SavedList(path: path.path, book: identity, options: fromFile.savedListOptions)
        for query in ["", "anna", "415", "acme"] {
            let got = saved.search(query, keywords: false, refining: nil)
            let expected = fromFile.search(query, keywords: false, refining: nil)
            #expect(rows(saved, got) == rows(fromFile, expected), "\(query)")
        }
    }

    @Test func enableRuleAndUnsupportedHook() throws {
        var config = Configuration()
        config.mode = .both
        config.contactEnabledValidation = { !$0.emails.isEmpty }
        let list = try CompactContactList(data: Data(Self.text.utf8), fileName: "book.vcf", configuration: config)
        let source = try ContactsDataSource(
            contacts: AddressBook(data: Data(Self.text.utf8), fileName: "book.vcf").contacts, configuration: config)
        let enabled = (0..<list.rowCount).map { list.listedRow($0).enabled }
        #expect(enabled == source.rows.map(\.enabled))
        #expect(enabled.contains(false) && enabled.contains(true))
        config.willLoadItems = { $0 }
        #expect(throws: CompactContactList.UnsupportedConfiguration.self) {
            try CompactContactList(data: Data(Self.text.utf8), fileName: "book.vcf", configuration: config)
        }
    }
}

/// An index of the rows' text parts answers every query without digits exactly as the full index does.
@Suite struct TextOnlyIndexTests {
    @Test func sameAnswersForQueriesWithoutDigits() throws {
        let book = AddressBook(data: Data(VCardBookGenerator.book(cards: 800, seed: 9).utf8), fileName: "b.vcf")
        let collation = try LocalizedCollation(locale: "en")
        let list = ListEntries(contacts: book.contacts, order: .givenName, region: "US")
        let arrangement = ListArrangement(list, mode: .both, skipUnnamed: false, collation: collation)
        func index(phones: Bool) throws -> SearchIndex {
            SearchIndex(
                list: list, order: arrangement.order, sectionOfRow: arrangement.sectionOfRow,
                sectionTitles: arrangement.sections.map(\.title), folding: try SearchFolding(), phones: phones)
        }
        let full = try index(phones: true)
        let text = try index(phones: false)
        #expect(text.haystack.count < full.haystack.count)
        for query in [
            "a", "an", "hele", "Борис", "山田", "zw", "ㅁㅈ", "bobby acme", "example.org", "example.net", "f b", "é",
        ] {
            #expect(SearchIndex.canAnswerWithoutPhones(query))
            for keywords in [false, true] {
                let expected = full.search(query, keywords: keywords, previous: nil).rowNumbers
                #expect(text.search(query, keywords: keywords, previous: nil).rowNumbers == expected, "\(query)")
            }
        }
        // Any digit, of any script, may match a phone: those queries need the full index.
        for query in ["415", "anna 5", "٥", "５５", "①"] {
            #expect(!SearchIndex.canAnswerWithoutPhones(query), "\(query)")
        }
        let digits = full.search("415", keywords: false, previous: nil).rowNumbers
        #expect(!digits.isEmpty)
        #expect(text.search("415", keywords: false, previous: nil).rowNumbers != digits)
    }
}
