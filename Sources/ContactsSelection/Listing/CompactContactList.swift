import Collation
import ContactsCore
import Foundation
import Support
import Synchronization

/// A contact list read straight from a vCard file, for listing and searching an address book too big to
/// hold: each card is read on one of all cores, what the list shows and searches is kept (names, the
/// value it is reached at, emails, phone keys: a few hundred bytes), and the card itself is let go. The
/// file is memory-mapped and its pages handed back as they are read. Rows, order, sections, duplicates
/// and search answers are those of a ``ContactsDataSource`` with the same configuration (both are built
/// by one rule), but there are no `Contact` values to select or compose with.
///
/// ```swift
/// let list = try CompactContactList(contentsOfFile: "big.vcf", configuration: Configuration())
/// list.rowCount
/// let hits = list.search("anna", keywords: false, refining: nil)
/// hits.rowNumbers.map { list.listedRow(Int($0)).displayName }
/// ```
public final class CompactContactList: ContactListing {
    public let configuration: Configuration
    public let locale: String
    public let indexTitles: [String]
    /// The non-empty sections of the full list (index order, `#` last).
    public let sections: [RowSection]
    /// Contacts left out, and why (no channel value, unnamed, duplicate).
    public let skipped: [(id: String, reason: ContactsDataSource.SkipReason)]
    /// ``ContactListing/otherChannelCount``.
    public let otherChannelCount: Int
    /// The file's diagnostics (as `AddressBook.diagnostics` would have them).
    public let diagnostics: [VCardDiagnostic]
    /// Every contact read (listed or not).
    public let contactCount: Int
    /// Nothing at all could be read: no contact, only problems (as `AddressBook.nothingRead`).
    public var nothingRead: Bool { contactCount == 0 && !diagnostics.isEmpty }
    private let entries: ListEntries
    private let order: [Int32]
    private let values: [String]
    /// Where each entry's card begins in the file read (entry order), when one file was read in place.
    private let cardOffsets: [Int]?
    private let lazyIndex: LazySearchIndex
    var index: SearchIndex { lazyIndex.index }
    /// Row numbers by id, made on the first lookup by id (a listing and a search never need it).
    private let rowsByID = Mutex<[String: Int32]?>(nil)

    /// Why a configuration cannot be read as a compact list.
    public enum UnsupportedConfiguration: Error, CustomStringConvertible {
        /// `willLoadItems` needs every contact at once; use ``ContactsDataSource``.
        case willLoadItems
        public var description: String {
            "a compact list reads contacts one by one: willLoadItems (which needs them all at once) is not supported"
        }
    }

    /// Reads the vCard file at `path` (memory-mapped). Throws `ContactsCoreError.cannotRead`
    /// when it cannot be read, ``UnsupportedConfiguration`` for a `willLoadItems` hook, and when the locale
    /// has no collation; problems inside the file are ``diagnostics``. `progress`, when given, counts the
    /// file's bytes as they are read (sorting comes after).
    public convenience init(
        contentsOfFile path: String, fileName: String? = nil, configuration: Configuration,
        progress: WorkProgress? = nil
    ) throws {
        let reading = try Self.reading(configuration)
        let stream = try VCardReader.stream(
            contentsOfFile: path, fileName: fileName, listedFieldsOnly: reading.listedFieldsOnly,
            makePiece: reading.makePiece, progress: progress, reading.body)
        try self.init(stream: consume stream, collation: reading.collation, configuration: configuration)
    }

    /// Reads vCard `data`; `fileName` names it in diagnostics.
    public convenience init(data: Data, fileName: String, configuration: Configuration) throws {
        let reading = try Self.reading(configuration)
        let stream = VCardReader.stream(
            data: data, fileName: fileName, listedFieldsOnly: reading.listedFieldsOnly, makePiece: reading.makePiece,
            reading.body)
        try self.init(stream: consume stream, collation: reading.collation, configuration: configuration)
    }

    /// The contacts of a book already read (several sources merged, a vdir folder) as a compact list: the
    /// same rows, ids and search answers as a ``ContactsDataSource`` of `book`, without keeping the contacts.
    ///
    /// ```swift
    /// let merged = try SourcedAddressBook(reading: [ContactSource(path: "work.vcf"), ContactSource(path: "family")])
    /// let list = try CompactContactList(book: merged.book, configuration: Configuration())
    /// ```
    public convenience init(book: AddressBook, configuration: Configuration) throws {
        let reading = try Self.reading(configuration)
        var piece = reading.makePiece()
        for contact in book.contacts { reading.body(&piece, contact) }
        try self.init(
            pieces: [piece], renamedIDs: [:], diagnostics: book.diagnostics, cardOffsets: nil,
            collation: reading.collation, configuration: configuration)
    }

    /// ``init(data:fileName:configuration:)`` read in up to `maxChunks` pieces of at least `minChunkSize`
    /// bytes on `threads` threads (package access: the fuzz targets split small inputs).
    package convenience init(
        data: Data, fileName: String, configuration: Configuration, maxChunks: Int, threads: Int, minChunkSize: Int
    ) throws {
        let reading = try Self.reading(configuration)
        let stream = VCardReader.stream(
            data: data, fileName: fileName, releasingPagesRead: false, listedFieldsOnly: reading.listedFieldsOnly,
            makePiece: reading.makePiece, reading.body,
            maxChunks: maxChunks, threads: threads, minChunkSize: minChunkSize)
        try self.init(stream: consume stream, collation: reading.collation, configuration: configuration)
    }

    /// The collation, each reading thread's empty piece, what it does with a contact, and whether a contact
    /// needs only what a row and a search use (no rule over whole contacts).
    static func reading(_ configuration: Configuration) throws -> (
        collation: LocalizedCollation, listedFieldsOnly: Bool, makePiece: @Sendable () -> ListEntries,
        body: @Sendable (inout ListEntries, consuming Contact) -> Void
    ) {
        guard configuration.willLoadItems == nil else { throw UnsupportedConfiguration.willLoadItems }
        let collation = try LocalizedCollation(locales: configuration.locales)
        let order = configuration.nameSortOrder
        let preferNicknames = configuration.preferNicknames
        let region = configuration.resolvedPhoneRegion
        let validation = configuration.contactEnabledValidation
        return (
            collation, validation == nil, { ListEntries(region: region) },
            { list, contact in
                list.append(
                    contact, order: order, preferNicknames: preferNicknames, enabled: validation?(contact) ?? true)
            }
        )
    }

    /// `stream` is consumed: its pieces become the segments of one list (no entry is copied).
    convenience init(
        stream: consuming VCardReader.Stream<ListEntries>, collation: LocalizedCollation, configuration: Configuration
    ) throws {
        let pieces = stream.pieces
        stream.pieces = []
        try self.init(
            pieces: consume pieces, renamedIDs: stream.renamedIDs, diagnostics: stream.diagnostics,
            cardOffsets: stream.cardOffsets, collation: collation, configuration: configuration)
    }

    /// The pieces of a read become the segments of one list (no entry is copied).
    init(
        pieces: consuming [ListEntries], renamedIDs: [Int: String], diagnostics: [VCardDiagnostic],
        cardOffsets: [Int]?, collation: LocalizedCollation, configuration: Configuration
    ) throws {
        var list = ListEntries(joining: pieces, region: configuration.resolvedPhoneRegion)
        for (n, id) in renamedIDs { list.setID(id, of: n) }

        let arrangement = ListArrangement(
            list, mode: configuration.mode, skipUnnamed: configuration.skipUnnamedContacts, collation: collation)
        self.configuration = configuration
        locale = collation.locale
        indexTitles = collation.indexTitles
        sections = arrangement.sections
        skipped = arrangement.skipped
        otherChannelCount = arrangement.otherChannelCount
        self.diagnostics = diagnostics
        contactCount = list.count
        entries = list
        order = arrangement.order
        values = arrangement.values
        self.cardOffsets = cardOffsets?.count == list.count ? cardOffsets : nil
        lazyIndex = LazySearchIndex(list: list, arrangement: arrangement, folding: try SearchFolding())
    }

    public var rowCount: Int { order.count }

    public func rowNumber(id: String) -> Int? {
        rowsByID.withLock { made in
            if made == nil { made = RowIDs.index(rowCount: rowCount) { entries[Int(order[$0])].id } }
            return made?[id].map(Int.init)
        }
    }

    /// Where the card of row `number` begins in the file read (nil for a book not read from one file).
    func cardOffset(row number: Int) -> Int? { cardOffsets.map { $0[Int(order[number])] } }

    public func listedRow(_ number: Int) -> ListedRow {
        // Each field read in place: a copy of the whole entry would retain and release all its strings.
        let n = Int(order[number])
        return ListedRow(
            id: entries[n].id, displayName: entries[n].displayName, value: values[number], enabled: entries[n].enabled)
    }

    public func search(
        _ query: String, keywords: Bool? = nil, fuzzy: Bool = false, refining previous: SearchResult? = nil
    ) -> SearchResult {
        lazyIndex.search(
            query, keywords: keywords ?? configuration.searchByKeywords, fuzzy: fuzzy, previous: previous,
            rowCount: rowCount, sections: sections)
    }
}
