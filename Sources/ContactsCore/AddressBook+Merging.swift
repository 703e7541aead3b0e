import Foundation

extension AddressBook {
    /// Several books read as one, in order: their contacts one after the other, ids unique by the rule of a
    /// single book (the first contact with an id keeps it; a later one gets `-2`, `-3`, … and a diagnostic
    /// naming both places, `names[k]` standing for book `k`), group cards in order (their members follow a
    /// renamed contact), the `CATEGORIES` groups of the same name joined, and every book's diagnostics.
    ///
    /// ```swift
    /// let a = AddressBook(data: Data("BEGIN:VCARD\r\nUID:1\r\nFN:Ada\r\nEND:VCARD\r\n".utf8), fileName: "a.vcf")
    /// let b = AddressBook(data: Data("BEGIN:VCARD\r\nUID:1\r\nFN:Bea\r\nEND:VCARD\r\n".utf8), fileName: "b.vcf")
    /// let both = AddressBook(merging: [a, b], names: ["a.vcf", "b.vcf"])
    /// print(both.contacts.map(\.id))   // ["1", "1-2"]
    /// ```
    public init(merging books: [AddressBook], names: [String]) {
        precondition(books.count == names.count, "one name per book")
        var contacts: [Contact] = []
        var lines: [Int] = []
        var files: [String] = []
        var bookOfContact: [Int] = []
        let total = books.reduce(0) { $0 + $1.contacts.count }
        contacts.reserveCapacity(total)
        lines.reserveCapacity(total)
        for (k, book) in books.enumerated() {
            contacts += book.contacts
            lines +=
                book.contactLines.count == book.contacts.count
                ? book.contactLines : Array(repeating: 1, count: book.contacts.count)
            if book.contactFiles.count == book.contacts.count {
                files += book.contactFiles
            } else {
                files += repeatElement(names[k], count: book.contacts.count)
            }
            bookOfContact += repeatElement(k, count: book.contacts.count)
        }
        var ids = contacts.map(\.id)
        let unique = UniqueIDs(&ids, hashes: nil, lines: lines, fileName: "", files: files)
        var renamed = [[String: String]](repeating: [:], count: books.count)
        for i in unique.changed {
            renamed[bookOfContact[i]][contacts[i].id] = ids[i]
            contacts[i].id = ids[i]
        }
        var cards: [Group] = []
        var categories: [Group] = []
        var categoryPosition: [String: Int] = [:]
        for (k, book) in books.enumerated() {
            for var group in book.groups {
                if !renamed[k].isEmpty { group.memberIDs = group.memberIDs.map { renamed[k][$0] ?? $0 } }
                guard group.kind == .category else {
                    cards.append(group)
                    continue
                }
                if let p = categoryPosition[group.id] {
                    categories[p].memberIDs += group.memberIDs
                } else {
                    categoryPosition[group.id] = categories.count
                    categories.append(group)
                }
            }
        }
        self.init(
            contacts: contacts, groups: cards + categories,
            diagnostics: books.flatMap(\.diagnostics) + unique.diagnostics)
        contactLines = lines
        contactFiles = files
    }

    /// The position in ``contacts`` of the contact with `id`, if any.
    public func position(of id: String) -> Int? { indexByID.position(of: id, in: contacts) }
}
