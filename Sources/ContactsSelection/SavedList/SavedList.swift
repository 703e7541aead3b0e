import Collation
import Foundation
import Support
import Synchronization

/// A list saved to a file beside its address book, so that the next `list` or `search` of an unchanged
/// book reads the sections, rows and search keys from the file (memory-mapped) instead of reading and
/// sorting the book again.
///
/// The file holds a versioned header, the book's ``BookIdentity``, the options the list was built with,
/// the rows (id, name, value, enabled), the sections, the search index, and a checksum of all of it. It is
/// written to a temporary file and renamed into place, so a reader never sees half a file and concurrent
/// writers leave one whole file. A file that is stale, truncated or corrupt is refused with a
/// ``SavedListError``; it never gives a wrong answer.
///
/// ```swift
/// let source = try ContactsDataSource(contacts: book.contacts, configuration: Configuration())
/// try SavedList.write(source, to: "book.index", book: try BookIdentity(path: "book.vcf"))
/// let saved = try SavedList(path: "book.index", book: try BookIdentity(path: "book.vcf"), options: source.savedListOptions)
/// saved.search("anna", keywords: false, refining: nil).count
/// ```
public final class SavedList: ContactListing, @unchecked Sendable {
    static let magic: [UInt8] = Array("CSLIST\r\n".utf8)
    /// Bumped whenever the layout or the meaning of a field changes: older files are then stale.
    static let formatVersion: UInt32 = 5

    public let indexTitles: [String]
    public let rowCount: Int
    /// Diagnostics of the address book when the list was saved (printed again by a reader).
    public let diagnostics: [String]
    /// ``ContactListing/otherChannelCount`` of the list that was saved.
    public let otherChannelCount: Int
    public let sections: [RowSection]
    private let index: SearchIndex
    /// Row numbers by id, made on the first lookup by id (a listing and a search never need it).
    private let rowsByID = Mutex<[String: Int32]?>(nil)
    /// `index` with ICU folding for queries beyond Latin-1, made on the first such query and kept (opening
    /// the transliterators costs ~0.2 s each; their word cache serves the next keystrokes).
    private let folded = Mutex<SearchIndex?>(nil)
    /// The mapped file; rows are read from it on demand, the search keys used in place.
    private let file: MappedFile
    private var mapping: UnsafeRawBufferPointer { file.bytes }
    private let rowText: Range<Int>
    private let rowOffsets: Range<Int>
    private let enabled: Range<Int>
    /// Where each row's card begins in the book's file (row order), empty when the book was not one file
    /// read in place.
    private let cardOffsets: KeyBuffer<UInt64>

    /// Reads a saved list; throws ``SavedListError/stale(path:reason:)`` when `book` or `options` differ
    /// from what it was saved with, ``SavedListError/corrupt(path:reason:)`` when its bytes are wrong.
    public init(path: String, book: BookIdentity, options: String) throws {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            switch error {
            case .cannotOpen: throw SavedListError.io(path: path, message: error.reason)
            case .notRegularFile, .cannotMap:
                throw SavedListError.io(path: path, message: "cannot map: \(error.reason)")
            }
        }
        let bytes = file.bytes
        let size = bytes.count
        guard size >= 64, size % 8 == 0 else {
            throw SavedListError.corrupt(path: path, reason: "\(size) bytes is not a whole index")
        }
        var reader = Reader(bytes: bytes, path: path)
        guard Array(bytes[0..<8]) == Self.magic else {
            throw SavedListError.corrupt(path: path, reason: "not a contacts index")
        }
        reader.position = 8
        let version = UInt32(truncatingIfNeeded: try reader.word())
        guard version == Self.formatVersion else {
            throw SavedListError.stale(
                path: path, reason: "format version \(version), this tool reads \(Self.formatVersion)")
        }
        let saved = BookIdentity(
            size: try reader.word(), modified: Int64(bitPattern: try reader.word()), hash: try reader.word(),
            device: try reader.word(), inode: try reader.word(), changed: Int64(bitPattern: try reader.word()))
        if saved.device != book.device || saved.inode != book.inode {
            throw SavedListError.stale(path: path, reason: "the address book is another file now (a new inode)")
        }
        if saved.size != book.size {
            throw SavedListError.stale(path: path, reason: "the address book's size changed")
        }
        if saved.modified != book.modified {
            throw SavedListError.stale(path: path, reason: "the address book was modified")
        }
        if saved.changed != book.changed {
            throw SavedListError.stale(path: path, reason: "the address book was changed (its status-change time)")
        }
        if saved.hash != book.hash {
            throw SavedListError.stale(path: path, reason: "the address book's content changed")
        }
        let savedOptions = String(decoding: try reader.blob(), as: UTF8.self)
        guard savedOptions == options else {
            throw SavedListError.stale(path: path, reason: "saved for \(savedOptions), not \(options)")
        }
        // Checksum of everything before the last word.
        var hasher = ContentHash()
        hasher.add(UnsafeRawBufferPointer(rebasing: bytes[0..<(size - 8)]))
        let stored = bytes.loadUnaligned(fromByteOffset: size - 8, as: UInt64.self)
        guard hasher.value == UInt64(littleEndian: stored) else {
            throw SavedListError.corrupt(path: path, reason: "checksum mismatch")
        }
        diagnostics = try reader.strings()
        otherChannelCount = Int(truncatingIfNeeded: try reader.word())
        indexTitles = try reader.strings()
        let sectionTitles = try reader.strings()
        let sectionStarts: [Int32] = try reader.array()
        rowText = try reader.range()
        rowOffsets = try reader.range()
        enabled = try reader.range()
        let haystack: KeyBuffer<UInt8> = try reader.keys(owner: file)
        let offsets: KeyBuffer<Int32> = try reader.keys(owner: file)
        let masks: KeyBuffer<UInt64> = try reader.keys(owner: file)
        let textLengths: KeyBuffer<Int32> = try reader.keys(owner: file)
        let sectionOfRow: KeyBuffer<UInt16> = try reader.keys(owner: file)
        cardOffsets = try reader.keys(owner: file)
        let pairSets: KeyBuffer<UInt64> = try reader.keys(owner: file)
        guard reader.position == size - 8 else {
            throw SavedListError.corrupt(path: path, reason: "unexpected bytes after the last field")
        }
        // Every offset the scans follow without bounds checks is checked here once.
        let rows = offsets.count - 1
        func check(_ condition: Bool, _ what: String) throws {
            if !condition { throw SavedListError.corrupt(path: path, reason: what) }
        }
        try check(rows >= 0, "no row offsets")
        try check(masks.count == rows * 6 && textLengths.count == rows && sectionOfRow.count == rows, "row counts")
        try check(enabled.count == rows && rowOffsets.count == (3 * rows + 1) * 4, "row table")
        try check(cardOffsets.count == 0 || cardOffsets.count == rows, "card offsets")
        try check(
            pairSets.count == SearchIndex.letterSetCount * SearchIndex.pairSetWords(rows: rows), "letter pair sets")
        try check(
            sectionStarts.count == sectionTitles.count + 1 && sectionStarts.first == 0
                && sectionStarts.last == Int32(rows) && zip(sectionStarts, sectionStarts.dropFirst()).allSatisfy(<=),
            "section ranges")
        try check(offsets[0] == 0 && offsets[rows] == Int32(haystack.count), "search offsets")
        let rowsAreWhole = offsets.withUnsafeBufferPointer { off in
            textLengths.withUnsafeBufferPointer { text in
                sectionOfRow.withUnsafeBufferPointer { section in
                    var ok = true
                    for r in 0..<rows {
                        ok =
                            ok && off[r] <= off[r + 1] && text[r] >= 0 && text[r] <= off[r + 1] - off[r]
                            && Int(section[r]) < sectionTitles.count
                    }
                    return ok
                }
            }
        }
        try check(rowsAreWhole, "search offsets, text lengths or row sections")
        let textCount = rowText.count
        var previous: UInt32 = 0
        for i in 0...(3 * rows) {
            let o = UInt32(
                littleEndian: bytes.loadUnaligned(fromByteOffset: rowOffsets.lowerBound + 4 * i, as: UInt32.self))
            try check(o >= previous && Int(o) <= textCount, "row text offsets")
            previous = o
        }
        var sections: [RowSection] = []
        for (i, title) in sectionTitles.enumerated() {
            sections.append(RowSection(title: title, range: Int(sectionStarts[i])..<Int(sectionStarts[i + 1])))
        }
        self.sections = sections
        rowCount = rows
        self.file = file
        index = SearchIndex(
            haystack: haystack, offsets: offsets, masks: masks, textLengths: textLengths, sectionOfRow: sectionOfRow,
            sectionTitles: sectionTitles, folding: nil,
            region: ContactsDataSource.region(inSavedListOptions: savedOptions), pairSets: pairSets)
    }

    private func foldingIndex() -> SearchIndex? {
        folded.withLock { made in
            if made == nil, let folding = try? SearchFolding() {
                made = SearchIndex(
                    haystack: index.haystack, offsets: index.offsets, masks: index.masks,
                    textLengths: index.textLengths, sectionOfRow: index.sectionOfRow,
                    sectionTitles: index.sectionTitles, folding: folding, region: index.region,
                    pairSets: index.pairSets)
            }
            return made
        }
    }

    public func search(
        _ query: String, keywords: Bool? = nil, fuzzy: Bool = false, refining previous: SearchResult? = nil
    ) -> SearchResult {
        let keywords = keywords ?? false
        if query.isEmpty {
            return .everyone(query: query, rowCount: rowCount, sections: sections, keywords: keywords)
        }
        // ASCII and Latin-1 queries fold without ICU; the first other one opens the transliterators, once.
        guard SearchFolding.foldLatin1(query) == nil, let folded = foldingIndex() else {
            return index.search(query, keywords: keywords, fuzzy: fuzzy, previous: previous)
        }
        return folded.search(query, keywords: keywords, fuzzy: fuzzy, previous: previous)
    }

    public func listedRow(_ number: Int) -> ListedRow {
        func text(_ field: Int) -> String {
            let at = rowOffsets.lowerBound + 4 * (3 * number + field)
            let start = Int(UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            let end = Int(UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
            let base = rowText.lowerBound
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: mapping[(base + start)..<(base + end)]), as: UTF8.self)
        }
        return ListedRow(
            id: text(0), displayName: text(1), value: text(2), enabled: mapping[enabled.lowerBound + number] != 0)
    }

    /// Where the card of row `number` begins in the book's file (nil when the list was not saved from one
    /// file read in place).
    func cardOffset(row number: Int) -> Int? {
        cardOffsets.count == rowCount ? Int(cardOffsets[number]) : nil
    }

    /// The rows of a few `ids` (the first row of each), found by comparing their bytes with the rows' ids
    /// in the mapped file, without the table of every id ``rowNumber(id:)`` makes; an id not found so (one
    /// written in another Unicode form) is looked up by ``rowNumber(id:)``. Ids not listed are left out.
    func rowNumbers(ids: [String]) -> [String: Int] {
        guard ids.count <= 64, rowsByID.withLock({ $0 == nil }) else {
            var rows: [String: Int] = [:]
            for id in ids { if let row = rowNumber(id: id) { rows[id] = row } }
            return rows
        }
        let wanted = ids.map { Array($0.utf8) }
        var rows: [String: Int] = [:]
        var found = [Int?](repeating: nil, count: ids.count)
        var left = ids.count
        let base = mapping.baseAddress! + rowText.lowerBound
        for number in 0..<rowCount where left > 0 {
            let at = rowOffsets.lowerBound + 4 * 3 * number
            let start = Int(UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            let end = Int(UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
            for k in wanted.indices where wanted[k].count == end - start && found[k] == nil {
                if memcmp(base + start, wanted[k], end - start) == 0 {
                    found[k] = number
                    left -= 1
                }
            }
        }
        for (k, row) in found.enumerated() { if let row { rows[ids[k]] = row } }
        for id in ids where rows[id] == nil { if let row = rowNumber(id: id) { rows[id] = row } }
        return rows
    }

    public func rowNumber(id: String) -> Int? {
        rowsByID.withLock { made in
            if made == nil { made = RowIDs.index(rowCount: rowCount) { listedRow($0).id } }
            return made?[id].map(Int.init)
        }
    }
}
