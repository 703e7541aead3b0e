import Collation
import ContactsCore
import Foundation
import Testing

@testable import ContactsSelection

/// Large lists fold their names in parallel chunks (20 000 rows and more) and scan in parallel parts
/// (150 000 rows and more); the joined result must be exactly what a plain substring search finds, in list
/// order.
@Suite("Parallel index build and scan")
struct ParallelSearchTests {
    /// Given names with their folded forms (what a search for them must match).
    static let given: [(name: String, folded: String)] = [
        ("Anna", "anna"), ("Hélène", "helene"), ("Борис", "boris"), ("Zoë", "zoe"), ("Ola", "ola"),
        ("Søren", "soren"), ("Mehmet", "mehmet"), ("Ólafur", "olafur"), ("Jürgen", "jurgen"), ("Kim", "kim"),
    ]

    /// A family name of letters only, different for every contact.
    static func family(_ i: Int) -> String {
        var n = i
        var letters = "Q"
        repeat {
            letters.append(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(n % 26))))
            n /= 26
        } while n > 0
        return letters
    }

    @Test func parallelBuildAndScanFindExactlyTheMatches() throws {
        let count = SearchIndex.parallelThreshold + 1_000
        var contacts: [Contact] = []
        contacts.reserveCapacity(count)
        var folded: [String] = []  // per row, the folded "given family"
        folded.reserveCapacity(count)
        for i in 0..<count {
            let g = Self.given[(i * 7 + i / 3) % Self.given.count]
            var c = Contact(id: "c\(i)")
            c.givenName = g.name
            c.familyName = Self.family(i)
            contacts.append(c)
            folded.append(g.folded + " " + c.familyName.lowercased())
        }
        var list = ListEntries(region: "US")
        for contact in contacts {
            var entry = ListEntry(contact, order: .givenName, preferNicknames: false, phones: 0..<0)
            entry.displayName = "\(contact.givenName) \(contact.familyName)"
            entry.sortName = entry.displayName
            list.append(entry)
        }
        let index = SearchIndex(
            list: list, order: (0..<Int32(count)).map { $0 }, sectionOfRow: Array(repeating: 0, count: count),
            sectionTitles: ["#"], folding: try SearchFolding())
        for query in ["boris", "helene", "zoe", "ola", "qab", "urgen"] {
            let result = index.search(query, keywords: false, previous: nil)
            let expected = folded.indices.filter { folded[$0].contains(query) }
            #expect(result.rowNumbers.map(Int.init) == expected, "query \(query)")
            #expect(!expected.isEmpty)
        }
    }
}
