import ContactsCore
import ContactsSelection
import Foundation

/// `contacts query`'s library path at 100,000 contacts: the saved index opened and searched, the found
/// cards read alone, ranked (`AddressMatch.matches`), per query; peer in the same run: the same queries
/// answered from the book read whole (what query did without an index).
func runQueryBench(args: [String]) throws {
    let count = Int(args.first ?? "") ?? 100_000
    print("== Query: \(count) generated contacts, mutt lookups")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let book = dir.appendingPathComponent("book.vcf").path
    let names = generateNames(count)
    var text = ""
    for (i, name) in names.enumerated() {
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c\(i)\r\nFN:\(name)\r\nEMAIL:user\(i)@example.org\r\nEND:VCARD\r\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: book))
    var config = Configuration()
    config.mode = .email
    config.locale = "en"
    let cache = ListingCache(directory: dir.appendingPathComponent("index").path)
    let (saveTime, _) = try measure { try cache.save(book: book, configuration: config) }
    print("index build: \(format(saveTime))s")
    for query in ["maria", "maria gar", "user4711", "zz"] {
        let (t, found) = try measure { () throws -> Int in
            let opened = try cache.open(book: book, configuration: config)
            return try AddressMatch.matches(query, in: opened.listing, contacts: opened.contacts).count
        }
        let (peer, _) = try measure { () throws -> Int in
            let source = try ContactsDataSource(
                contacts: AddressBook(contentsOf: URL(fileURLWithPath: book)).contacts, configuration: config)
            return source.addressMatches(query).count
        }
        print(
            "'\(query)': \(format(t * 1000, 1)) ms from the index, \(found) matches; peer (book read whole) \(format(peer * 1000, 1)) ms"
        )
    }
}
