import ContactsCore
import Foundation

/// Where a selection finds the `Contact` of a selected row when it needs the whole card (the values to
/// choose from, composing): the contacts in memory, the address book file read again, or nowhere. A
/// listing keeps only what it shows, so a million-row saved index is picked from without a `Contact`;
/// the few selected ones are looked up by id.
///
/// ```swift
/// let lookup = ContactLookup.file(path: "big.vcf")
/// let found = try lookup.contacts(ids: ["anna-uid"])   // [id: Contact], unknown ids left out
/// ```
public struct ContactLookup: Sendable {
    private let find: @Sendable ([String]) throws -> [String: Contact]
    /// For a lookup that knows where the cards of a listing's rows are: the contacts of rows, by id.
    private let findRows: (@Sendable ([(id: String, row: Int)]) throws -> [String: Contact])?

    /// A lookup by a function: given ids, the contacts it knows of them (unknown ids left out).
    public init(_ find: @escaping @Sendable ([String]) throws -> [String: Contact]) {
        self.find = find
        findRows = nil
    }

    private init(
        find: @escaping @Sendable ([String]) throws -> [String: Contact],
        findRows: @escaping @Sendable ([(id: String, row: Int)]) throws -> [String: Contact]
    ) {
        self.find = find
        self.findRows = findRows
    }

    /// The contacts with these ids that the lookup knows, by id.
    public func contacts(ids: [String]) throws -> [String: Contact] { try find(ids) }

    /// The contacts of these rows of the listing the lookup was opened with (``ListingCache/Opened``),
    /// each given with its id, by id: a saved list's cards are read from where its rows say they begin,
    /// without looking the ids up (other lookups look the ids up, as ``contacts(ids:)``).
    ///
    /// ```swift
    /// let opened = try ListingCache.standard().open(book: "contacts.vcf", configuration: Configuration())
    /// let row = Int(opened.listing.search("anna", keywords: nil, refining: nil).rowNumbers[0])
    /// let found = try opened.contacts.contacts(rows: [(opened.listing.listedRow(row).id, row)])
    /// ```
    public func contacts(rows: [(id: String, row: Int)]) throws -> [String: Contact] {
        if let findRows { return try findRows(rows) }
        return try find(rows.map(\.id))
    }

    /// The rows' own contacts (a data source keeps them).
    public static func dataSource(_ source: ContactsDataSource) -> ContactLookup {
        ContactLookup { ids in
            var found: [String: Contact] = [:]
            for id in ids { if let row = source.row(id: id) { found[id] = row.contact } }
            return found
        }
    }

    /// Contacts in memory, looked up by id (the first of equal ids, as the list keeps it).
    public static func contacts(_ contacts: [Contact]) -> ContactLookup {
        let byID = Dictionary(contacts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ContactLookup { ids in
            var found: [String: Contact] = [:]
            for id in ids { if let contact = byID[id] { found[id] = contact } }
            return found
        }
    }

    /// The vCard file at `path`, read again (once per lookup) when contacts are needed: the ids are the
    /// ones a ``CompactContactList`` or a ``SavedList`` of the same file lists.
    public static func file(path: String) -> ContactLookup {
        ContactLookup { ids in
            let wanted = Set(ids)
            guard !wanted.isEmpty else { return [:] }
            let book = try AddressBook(contentsOf: URL(fileURLWithPath: path))
            var found: [String: Contact] = [:]
            for id in wanted { if let contact = book.contact(id: id) { found[id] = contact } }
            return found
        }
    }

    /// The book of `sources` (one file, a vdir folder, several merged as `SourcedAddressBook` merges
    /// them), read again (once per lookup) when contacts are needed: the ids are the ones a listing of the
    /// same sources lists (``ListingCache/open(sources:configuration:reading:)``).
    public static func sources(_ sources: [ContactSource]) -> ContactLookup {
        ContactLookup { ids in
            let wanted = Set(ids)
            guard !wanted.isEmpty else { return [:] }
            let book = try SourcedAddressBook(reading: sources).book
            var found: [String: Contact] = [:]
            for id in wanted { if let contact = book.contact(id: id) { found[id] = contact } }
            return found
        }
    }

    /// The contacts of `listing`, a list of the one vCard file at `path` that knows where each row's card
    /// begins (a ``SavedList`` saved from the file): each wanted card is read alone, without reading the
    /// book. When the file is no longer `identity` (its status changed), or an id is not listed, has no
    /// known place, or its card no longer reads as that id, those ids are looked up in `fallback` (the book
    /// read again).
    static func cards(
        of listing: some CardLocating, file path: String, identity: BookIdentity, fallback: ContactLookup
    ) -> ContactLookup {
        /// The cards of ids at rows (nil: not listed), read in file order from one mapping of the file.
        @Sendable func read(_ located: [(id: String, row: Int?)]) throws -> [String: Contact] {
            guard !located.isEmpty else { return [:] }
            guard identity.sameStatus(asFile: path) else { return try fallback.contacts(ids: located.map(\.id)) }
            var found: [String: Contact] = [:]
            var missing: [String] = []
            var wanted: [(id: String, offset: Int)] = []
            for (id, row) in located {
                if let row, let offset = listing.cardOffset(row: row) {
                    wanted.append((id, offset))
                } else {
                    missing.append(id)
                }
            }
            wanted.sort { $0.offset < $1.offset }
            let cards = (try? VCardReader.contacts(inFile: path, atOffsets: wanted.map(\.offset))) ?? []
            for (k, (id, _)) in wanted.enumerated() {
                if k < cards.count, let contact = cards[k], contact.id == id {
                    found[id] = contact
                } else {
                    missing.append(id)
                }
            }
            if !missing.isEmpty { found.merge(try fallback.contacts(ids: missing)) { mine, _ in mine } }
            return found
        }
        return ContactLookup(
            find: { ids in
                let unique = Array(Set(ids))
                let rows = listing.rowNumbers(ids: unique)
                return try read(unique.map { ($0, rows[$0]) })
            },
            findRows: { rows in
                var seen = Set<String>()
                return try read(rows.filter { seen.insert($0.id).inserted }.map { ($0.id, $0.row) })
            })
    }

    /// No contacts: looking one up throws ``SelectionError/contactsUnavailable``. For a selection that only
    /// lists and selects (ids, names, values).
    public static let unavailable = ContactLookup { ids in
        if ids.isEmpty { return [:] }
        throw SelectionError.contactsUnavailable
    }
}

/// A listing that knows where each row's card begins in the one file it was read from.
protocol CardLocating: ContactListing {
    /// The byte offset of row `number`'s `BEGIN:VCARD` line, when known.
    func cardOffset(row number: Int) -> Int?
    /// The rows of `ids` (``ContactListing/rowNumber(id:)``), the ids not listed left out.
    func rowNumbers(ids: [String]) -> [String: Int]
}

extension CardLocating {
    func rowNumbers(ids: [String]) -> [String: Int] {
        var rows: [String: Int] = [:]
        for id in ids { if let row = rowNumber(id: id) { rows[id] = row } }
        return rows
    }
}

extension CompactContactList: CardLocating {}

extension SavedList: CardLocating {}
