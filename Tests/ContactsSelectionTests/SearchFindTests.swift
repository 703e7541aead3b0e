import ContactsCore
import Foundation
import TestSupport
import Testing

@testable import ContactsSelection

/// The row search's inner loop (eight positions at a time) against the plain definition: the needle at
/// some position, at a token start when asked — over every needle length, every position and the ends of
/// the row, where the word-wide part hands over to the byte-wide one.
@Suite struct SearchFindTests {
    /// The plain definition.
    static func naive(_ needle: [UInt8], _ row: [UInt8], atTokenStart: Bool) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= row.count else { return false }
        for i in 0...(row.count - needle.count) where Array(row[i..<(i + needle.count)]) == needle {
            if !atTokenStart || i == 0 || SearchIndex.isBoundary(row[i - 1]) { return true }
        }
        return false
    }

    static func find(_ needle: [UInt8], _ row: [UInt8], atTokenStart: Bool) -> Bool {
        // The row in a bigger buffer, with bytes after it that must never be matched.
        let padded = row + Array(repeating: needle.last ?? 0x61, count: 16)
        return needle.withUnsafeBufferPointer { n in
            padded.withUnsafeBufferPointer { r in
                SearchIndex.find(
                    n.baseAddress ?? UnsafePointer(r.baseAddress!), needle.count, in: r.baseAddress!, row.count,
                    atTokenStart: atTokenStart)
            }
        }
    }

    @Test func sameAnswersAsThePlainDefinition() {
        // A small alphabet (with bytes ≥ 0x80 and a boundary) so that near-matches are common.
        let alphabet: [UInt8] = [0x61, 0x62, 0x20, 0xC3, 0xA9, 0x7F, 0x80, 0xFF, 0x00]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let row = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let needle: [UInt8]
            if !row.isEmpty && Bool.random(using: &generator) {
                let from = Int.random(in: 0..<row.count, using: &generator)
                needle = Array(row[from..<min(row.count, from + Int.random(in: 1...6, using: &generator))])
            } else {
                needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
            }
            for token in [false, true] {
                #expect(
                    Self.find(needle, row, atTokenStart: token) == Self.naive(needle, row, atTokenStart: token),
                    "needle \(needle) row \(row) token \(token)")
            }
        }
    }

    @Test func theNeedleAtEveryPositionOfALongRow() {
        let row = Array("anna maria garcía maría@example.org +1 415 555 0100".utf8)
        for length in 1...5 {
            for i in 0...(row.count - length) {
                let needle = Array(row[i..<(i + length)])
                #expect(Self.find(needle, row, atTokenStart: false), "\(needle) at \(i)")
                #expect(
                    Self.find(needle, row, atTokenStart: true) == Self.naive(needle, row, atTokenStart: true),
                    "\(needle) at \(i)")
            }
        }
        #expect(!Self.find(Array("garcia".utf8), row, atTokenStart: false))
        #expect(!Self.find(Array("0100x".utf8), row, atTokenStart: false))
    }

    /// A saved list starts a query of two letters or more from its rows' letter pairs: the same answers as
    /// the scan of a list without them, typed a key at a time (refining) or asked at once, plain and by
    /// keywords, for pairs that occur, pairs that do not, and pieces of the rows' own text.
    @Test func letterPairsAnswerAsTheScan() throws {
        let book = AddressBook(data: Data(VCardBookGenerator.book(cards: 900, seed: 5).utf8), fileName: "b.vcf")
        var config = Configuration()
        config.locale = "en"
        config.mode = .both
        let source = try ContactsDataSource(contacts: book.contacts, configuration: config)
        #expect(source.index.pairSets == nil)
        let path = Scratch.path("pairs", suffix: ".index").path
        let identity = BookIdentity(size: 1, modified: 2, hash: 3)
        try SavedList.write(source, to: path, book: identity)
        let saved = try SavedList(path: path, book: identity, options: source.savedListOptions)
        var generator = SystemRandomNumberGenerator()
        var queries = ["ma", "an", "zq", "ar", "maria garc", "a.", "an@", "de la", "Ma", "müll", "st 12"]
        for _ in 0..<150 {
            let row = source.listedRow(Int.random(in: 0..<source.rowCount, using: &generator))
            let text = Array((Bool.random(using: &generator) ? row.displayName : row.value).lowercased())
            guard text.count >= 2 else { continue }
            let from = Int.random(in: 0..<(text.count - 1), using: &generator)
            queries.append(String(text[from..<min(text.count, from + Int.random(in: 2...8, using: &generator))]))
        }
        for query in queries {
            for keywords in [false, true] {
                let plain = source.search(query, keywords: keywords, refining: nil)
                var previous: SearchResult? = nil
                for length in 1...query.count {
                    previous = saved.search(String(query.prefix(length)), keywords: keywords, refining: previous)
                }
                #expect(previous?.rowNumbers == plain.rowNumbers, "\(query) keywords \(keywords)")
                #expect(previous?.sections == plain.sections, "\(query) keywords \(keywords)")
                let once = saved.search(query, keywords: keywords, refining: nil)
                #expect(once.rowNumbers == plain.rowNumbers, "\(query) keywords \(keywords), at once")
            }
        }
    }
}
