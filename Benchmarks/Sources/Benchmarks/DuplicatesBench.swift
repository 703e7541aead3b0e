import Collation
import ContactsCore
import ContactsSelection
import Foundation
import TestSupport

/// Duplicates on generated books with planted duplicates (`VCardBookGenerator.bookWithDuplicates`):
/// precision and recall over pairs, and the time to read the book and find the groups. Peer in the same
/// run: the naive rule a user's script would apply (same lowercased display name), measured the same way.
func runDuplicatesBench(args: [String]) throws {
    let sizes = args.compactMap { Int($0) }
    print("== Duplicates: generated books with planted duplicates")
    let folding = try SearchFolding()
    for people in sizes.isEmpty ? [10_000, 100_000] : sizes {
        let (text, truth) = VCardBookGenerator.bookWithDuplicates(people: people, seed: 34)
        let (readTime, book) = measure { AddressBook(data: Data(text.utf8), fileName: "bench.vcf") }
        let (findTime, groups) = try measure {
            try DuplicateFinder.groups(in: book.contacts, region: "US", folding: folding)
        }
        let score = DuplicateScore(found: groups.map(\.ids), truth: truth)
        print(
            "\(book.contacts.count) contacts (\(truth.count) planted groups): read \(format(readTime))s, find \(format(findTime))s, \(groups.count) groups; precision \(format(score.precision * 100, 1))%, recall \(format(score.recall * 100, 1))% (\(score))"
        )
        // Peer: the same lowercased display name.
        var byName: [String: [String]] = [:]
        let (peerTime, _) = measure {
            for c in book.contacts { byName[c.displayName.lowercased(), default: []].append(c.id) }
        }
        let peer = DuplicateScore(found: byName.values.filter { $0.count > 1 }, truth: truth)
        print(
            "  peer (same lowercased name): \(format(peerTime))s; precision \(format(peer.precision * 100, 1))%, recall \(format(peer.recall * 100, 1))%"
        )
    }
}
