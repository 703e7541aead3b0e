import Collation
import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)` (inside `SavedList` the name is its own `write`).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// What a list or search prints of one row.
public struct ListedRow: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var value: String
    public var enabled: Bool
}

/// A sectioned, searchable list of contacts: a ``ContactsDataSource`` built from the address book, or a
/// ``SavedList`` read back from its index file. Both answer `list` and `search` the same way.
public protocol ContactListing: AnyObject, Sendable {
    /// The full index bar.
    var indexTitles: [String] { get }
    /// The non-empty sections of the full list (index order, `#` last).
    var sections: [RowSection] { get }
    /// Number of rows.
    var rowCount: Int { get }
    /// The number of the row of a contact id (the first, for an id listed twice); nil when it is not listed.
    func rowNumber(id: String) -> Int?
    /// Searches the list (an empty query lists everyone), as ``ContactsDataSource/search(_:keywords:refining:)``.
    func search(_ query: String, keywords: Bool?, refining previous: SearchResult?) -> SearchResult
    /// What row `number` shows.
    func listedRow(_ number: Int) -> ListedRow
}

extension ContactsDataSource: ContactListing {
    public var rowCount: Int { rows.count }
    public func listedRow(_ number: Int) -> ListedRow {
        let row = rows[number]
        return ListedRow(id: row.id, displayName: row.displayName, value: row.value, enabled: row.enabled)
    }
}

/// The address book a saved list was built from: which file it is (device and inode), its size, its
/// modification and status-change times, and a hash of every byte of it (XXH64, at memory speed). A saved
/// list is used only when all of them are unchanged: a book edited in place and given back its old size and
/// modification time (`cp -p`, `rsync -t`, `touch -d`, a restore from backup) still has a new status-change
/// time, which no program can set back, and a new hash.
public struct BookIdentity: Sendable, Hashable {
    public var size: UInt64
    /// Nanoseconds since 1970.
    public var modified: Int64
    public var hash: UInt64
    /// The device and inode of the file (another file put in its place has another inode).
    public var device: UInt64
    public var inode: UInt64
    /// Status-change time (`st_ctime`), nanoseconds since 1970: set by the system on every write, rename,
    /// `chmod` or `utime`, and never set back.
    public var changed: Int64

    public init(size: UInt64, modified: Int64, hash: UInt64, device: UInt64 = 0, inode: UInt64 = 0, changed: Int64 = 0)
    {
        self.size = size
        self.modified = modified
        self.hash = hash
        self.device = device
        self.inode = inode
        self.changed = changed
    }

    /// The identity of the file at `path` now (every byte of it read once and hashed).
    ///
    /// ```swift
    /// let identity = try BookIdentity(path: "contacts.vcf")
    /// identity.size   // bytes
    /// ```
    public init(path: String) throws {
        let (fd, st) = try openForReading(path)
        defer { close(fd) }
        size = UInt64(st.st_size)
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        #if canImport(Darwin)
            modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        guard let (hash, bytes) = ContentHash.ofFile(fd) else {
            throw SavedListError.io(path: path, message: String(cString: strerror(errno)))
        }
        guard bytes == size else {
            throw SavedListError.io(
                path: path, message: "the file changed while it was read (\(size) bytes, read \(bytes))")
        }
        self.hash = hash
    }
}

extension BookIdentity {
    /// Whether the file at `path` is still this one, unchanged by what its status tells (device, inode,
    /// size, modification and status-change times; no byte is read: a write always sets a new status-change
    /// time).
    func sameStatus(asFile path: String) -> Bool {
        guard let (fd, st) = try? openForReading(path) else { return false }
        close(fd)
        #if canImport(Darwin)
            let modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            let changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
            let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            let changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        return UInt64(st.st_size) == size && modified == self.modified && changed == self.changed
            && UInt64(truncatingIfNeeded: st.st_dev) == device && UInt64(truncatingIfNeeded: st.st_ino) == inode
    }
}

/// `path` opened read-only, with its status; the caller closes it.
private func openForReading(_ path: String) throws -> (fd: Int32, status: stat) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw SavedListError.io(path: path, message: String(cString: strerror(errno))) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
        let message = String(cString: strerror(errno))
        close(fd)
        throw SavedListError.io(path: path, message: message)
    }
    return (fd, st)
}

/// Why a saved list was not used or could not be written.
public enum SavedListError: Error, CustomStringConvertible, Equatable {
    /// The address book changed since the list was saved (or the list was saved for other options).
    case stale(path: String, reason: String)
    /// The file is not a saved list this version can read, or its bytes do not add up.
    case corrupt(path: String, reason: String)
    case io(path: String, message: String)
    /// Lists with closures in their configuration (validation, `willLoadItems`) cannot be saved.
    case unsupported(String)
    /// The address book changed while it was read for saving: nothing was saved.
    case changedWhileRead(path: String)

    public var description: String {
        switch self {
        case .stale(let path, let reason): return "\(path): index is out of date (\(reason))"
        case .corrupt(let path, let reason): return "\(path): index is unreadable (\(reason))"
        case .io(let path, let message): return "\(path): \(message)"
        case .unsupported(let what): return "cannot save this list: \(what)"
        case .changedWhileRead(let path): return "\(path) changed while it was read; run again"
        }
    }
}

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
    static let formatVersion: UInt32 = 4

    public let indexTitles: [String]
    public let rowCount: Int
    /// Diagnostics of the address book when the list was saved (printed again by a reader).
    public let diagnostics: [String]
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

    public func search(_ query: String, keywords: Bool? = nil, refining previous: SearchResult? = nil) -> SearchResult {
        let keywords = keywords ?? false
        if query.isEmpty {
            return .everyone(query: query, rowCount: rowCount, sections: sections, keywords: keywords)
        }
        // ASCII and Latin-1 queries fold without ICU; the first other one opens the transliterators, once.
        guard SearchFolding.foldLatin1(query) == nil, let folded = foldingIndex() else {
            return index.search(query, keywords: keywords, previous: previous)
        }
        return folded.search(query, keywords: keywords, previous: previous)
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

    /// Writes `source` as a saved list at `path` (atomically: a temporary file renamed into place).
    public static func write(
        _ source: ContactsDataSource, to path: String, book: BookIdentity, diagnostics: [String] = []
    ) throws {
        try write(list: source, to: path, book: book, diagnostics: diagnostics)
    }

    /// Writes a compact list as a saved list at `path` (atomically).
    public static func write(
        _ source: CompactContactList, to path: String, book: BookIdentity, diagnostics: [String] = []
    ) throws {
        try write(list: source, to: path, book: book, diagnostics: diagnostics)
    }

    static func write(list source: some SavableListing, to path: String, book: BookIdentity, diagnostics: [String])
        throws
    {
        guard source.configuration.willLoadItems == nil, source.configuration.contactEnabledValidation == nil else {
            throw SavedListError.unsupported("the configuration has willLoadItems or contactEnabledValidation")
        }
        let index = source.index
        var w = try Writer(path: path)
        do {
            w.raw(magic)
            w.word(UInt64(formatVersion))
            w.word(book.size)
            w.word(UInt64(bitPattern: book.modified))
            w.word(book.hash)
            w.word(book.device)
            w.word(book.inode)
            w.word(UInt64(bitPattern: book.changed))
            w.blob(Array(source.savedListOptions.utf8))
            w.strings(diagnostics)
            w.strings(source.indexTitles)
            w.strings(source.sections.map(\.title))
            w.array(source.sections.map { Int32($0.range.lowerBound) } + [Int32(source.rowCount)])
            var text: [UInt8] = []
            var offsets: [UInt32] = [0]
            offsets.reserveCapacity(3 * source.rowCount + 1)
            var enabled: [UInt8] = []
            enabled.reserveCapacity(source.rowCount)
            for number in 0..<source.rowCount {
                let row = source.listedRow(number)
                enabled.append(row.enabled ? 1 : 0)
                for field in [row.id, row.displayName, row.value] {
                    text.append(contentsOf: field.utf8)
                    guard text.count < Int(UInt32.max) else {
                        throw SavedListError.unsupported("more than 4 GiB of names")
                    }
                    offsets.append(UInt32(text.count))
                }
            }
            w.array(text)
            w.array(offsets)
            w.array(enabled)
            w.array(index.haystack)
            w.array(index.offsets)
            w.array(index.masks)
            w.array(index.textLengths)
            w.array(index.sectionOfRow)
            var cards: [UInt64] = []
            if source.rowCount > 0, source.cardOffset(row: 0) != nil {
                cards.reserveCapacity(source.rowCount)
                for number in 0..<source.rowCount { cards.append(UInt64(source.cardOffset(row: number) ?? 0)) }
            }
            w.array(cards)
            w.array(index.makePairSets())
        } catch {
            w.abandon()
            throw error
        }
        try w.finish()
    }

    // MARK: - Layout: 8-byte words; a field is its byte count (one word) and its bytes padded to 8.

    /// Writes a saved list to a temporary file beside `path` as it goes (big fields straight from their
    /// memory, in 1 MiB pieces), hashing what it writes; ``finish()`` appends the checksum, syncs and renames
    /// the file into place, ``abandon()`` removes it.
    struct Writer {
        let path: String
        let temporary: String
        private let fd: Int32
        /// Bytes not written yet; everything before them was written and hashed, in multiples of 8.
        private var buffer: [UInt8] = []
        private var hasher = ContentHash()
        private static let flushSize = 1 << 20

        init(path: String) throws {
            self.path = path
            let directory = (path as NSString).deletingLastPathComponent
            temporary =
                (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid())."
                + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            fd = PrivateFiles.open(temporary, O_WRONLY | O_CREAT | O_EXCL)
            guard fd >= 0 else {
                throw SavedListError.io(path: temporary, message: String(cString: strerror(errno)))
            }
            buffer.reserveCapacity(Self.flushSize + 64)
        }

        mutating func raw(_ b: [UInt8]) { b.withUnsafeBytes { append($0) } }
        mutating func word(_ w: UInt64) { withUnsafeBytes(of: w.littleEndian) { append($0) } }
        mutating func pad() { while buffer.count % 8 != 0 { buffer.append(0) } }
        mutating func blob(_ b: [UInt8]) {
            word(UInt64(b.count))
            raw(b)
            pad()
        }
        mutating func array<T: FixedWidthInteger>(_ values: KeyBuffer<T>) {
            values.withUnsafeBufferPointer { array($0) }
        }
        mutating func array<T: FixedWidthInteger>(_ values: [T]) {
            values.withUnsafeBufferPointer { array($0) }
        }
        mutating func array<T: FixedWidthInteger>(_ values: UnsafeBufferPointer<T>) {
            word(UInt64(values.count * MemoryLayout<T>.size))
            #if _endian(little)
                append(UnsafeRawBufferPointer(values))
            #else
                for v in values { withUnsafeBytes(of: v.littleEndian) { append($0) } }
            #endif
            pad()
        }
        mutating func strings(_ values: [String]) {
            var text: [UInt8] = []
            var ends: [UInt32] = []
            for v in values {
                text.append(contentsOf: v.utf8)
                ends.append(UInt32(text.count))
            }
            array(ends)
            blob(text)
        }

        /// Appends bytes: a big run goes to the file straight from `bytes` (after what is pending).
        private mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= Self.flushSize, buffer.count % 8 == 0 else {
                buffer.append(contentsOf: bytes)
                if buffer.count >= Self.flushSize { drain() }
                return
            }
            drain()
            let whole = bytes.count / 8 * 8
            emit(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
            buffer.append(contentsOf: bytes[whole...])
        }

        /// Writes the pending bytes up to a multiple of 8.
        private mutating func drain() {
            let whole = buffer.count / 8 * 8
            guard whole > 0 else { return }
            buffer.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
            buffer.removeFirst(whole)
        }

        /// The first write error; later writes are skipped and ``finish()`` reports it.
        private var failure: String?

        private mutating func emit(_ bytes: UnsafeRawBufferPointer) {
            hasher.add(bytes)
            guard failure == nil, var p = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let n = systemWrite(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                p += n
                left -= n
            }
        }

        /// Writes what is pending and the checksum of everything, syncs the file and renames it into place.
        mutating func finish() throws {
            drain()
            precondition(buffer.isEmpty, "fields are padded to 8 bytes")
            let checksum = hasher.value
            withUnsafeBytes(of: checksum.littleEndian) { emit($0) }
            if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
            close(fd)
            if let failure {
                unlink(temporary)
                throw SavedListError.io(path: temporary, message: failure)
            }
            guard rename(temporary, path) == 0 else {
                let message = String(cString: strerror(errno))
                unlink(temporary)
                throw SavedListError.io(path: path, message: message)
            }
        }

        /// Removes the temporary file (after an error before ``finish()``).
        func abandon() {
            close(fd)
            unlink(temporary)
        }
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        let path: String
        var position = 0

        mutating func word() throws -> UInt64 {
            guard position + 8 <= bytes.count - 8 else {
                throw SavedListError.corrupt(path: path, reason: "truncated at byte \(position)")
            }
            defer { position += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }

        /// The byte range of the next field.
        mutating func range() throws -> Range<Int> {
            let count = try word()
            guard count <= UInt64(bytes.count - 8 - position) else {
                throw SavedListError.corrupt(path: path, reason: "field of \(count) bytes at byte \(position - 8)")
            }
            let start = position
            position += (Int(count) + 7) & ~7
            guard position <= bytes.count - 8 else {
                throw SavedListError.corrupt(path: path, reason: "truncated at byte \(start)")
            }
            return start..<(start + Int(count))
        }

        mutating func blob() throws -> [UInt8] { Array(bytes[try range()]) }

        mutating func array<T: FixedWidthInteger>() throws -> [T] {
            let r = try range()
            guard r.count % MemoryLayout<T>.size == 0 else {
                throw SavedListError.corrupt(path: path, reason: "field of \(r.count) bytes at byte \(r.lowerBound)")
            }
            let n = r.count / MemoryLayout<T>.size
            return [T](unsafeUninitializedCapacity: n) { out, count in
                _ = memcpy(out.baseAddress!, bytes.baseAddress! + r.lowerBound, r.count)
                for i in 0..<n { out[i] = T(littleEndian: out[i]) }
                count = n
            }
        }

        /// The next field as keys used in place (fields start at multiples of 8 in a page-aligned
        /// mapping, so they are aligned); copied on a big-endian machine, where the bytes need swapping.
        mutating func keys<T: FixedWidthInteger>(owner: MappedFile) throws -> KeyBuffer<T> {
            #if _endian(little)
                let r = try range()
                guard r.count % MemoryLayout<T>.size == 0 else {
                    throw SavedListError.corrupt(
                        path: path, reason: "field of \(r.count) bytes at byte \(r.lowerBound)")
                }
                let start = (bytes.baseAddress! + r.lowerBound).assumingMemoryBound(to: T.self)
                return KeyBuffer(
                    mapped: UnsafeBufferPointer(start: start, count: r.count / MemoryLayout<T>.size), owner: owner)
            #else
                return KeyBuffer(try array() as [T])
            #endif
        }

        mutating func strings() throws -> [String] {
            let ends: [UInt32] = try array()
            let text = try blob()
            var out: [String] = []
            var start = 0
            for end in ends {
                guard Int(end) >= start, Int(end) <= text.count else {
                    throw SavedListError.corrupt(path: path, reason: "string table at byte \(position)")
                }
                out.append(String(decoding: text[start..<Int(end)], as: UTF8.self))
                start = Int(end)
            }
            return out
        }
    }
}

/// A list that can be saved: its rows, sections and search index, and the options it was built with.
protocol SavableListing: ContactListing {
    var configuration: Configuration { get }
    var savedListOptions: String { get }
    var sections: [RowSection] { get }
    var index: SearchIndex { get }
    /// Where the card of row `number` begins in the book's one file, when that is known.
    func cardOffset(row number: Int) -> Int?
}

extension ContactsDataSource: SavableListing {
    func cardOffset(row number: Int) -> Int? { nil }
}
extension CompactContactList: SavableListing {
    /// The options a saved list must have been built with to answer for this configuration.
    public var savedListOptions: String { ContactsDataSource.savedListOptions(configuration) }
}

extension ContactsDataSource {
    /// The options a saved list must have been built with to answer for this configuration.
    public var savedListOptions: String { Self.savedListOptions(configuration) }

    /// The options key of a list made with `configuration`
    /// (``savedListOptions(locales:mode:skipUnnamed:sortOrder:preferNicknames:region:)``).
    public static func savedListOptions(_ configuration: Configuration) -> String {
        savedListOptions(
            locales: configuration.locales, mode: configuration.mode,
            skipUnnamed: configuration.skipUnnamedContacts, sortOrder: configuration.nameSortOrder,
            preferNicknames: configuration.preferNicknames, region: configuration.resolvedPhoneRegion)
    }

    /// The options key of a list (what changes its rows, names, order, sections or keys): the whole list of
    /// locales (the others add index letters and readings), the version of the section rules, and `region`,
    /// the phone region its numbers were read with ("ZZ" for none): a list saved for one region never
    /// answers for another.
    ///
    /// ```swift
    /// ContactsDataSource.savedListOptions(
    ///     locales: ["en", "zh-Hans"], mode: .messages, skipUnnamed: false, sortOrder: .givenName,
    ///     preferNicknames: true, region: "US")
    /// ```
    public static func savedListOptions(
        locales: [String], mode: SelectionMode, skipUnnamed: Bool, sortOrder: NameSortOrder,
        preferNicknames: Bool = false, region: String
    ) -> String {
        "locales=\(locales.joined(separator: ",")) sections=\(SectionIndex.rulesVersion) mode=\(mode.rawValue) "
            + "skip-unnamed=\(skipUnnamed) sort=\(sortOrder) nicknames=\(preferNicknames) region=\(region)"
    }

    /// The phone region an options key was made with
    /// (``savedListOptions(locales:mode:skipUnnamed:sortOrder:preferNicknames:region:)``), "ZZ" when it names
    /// none.
    static func region(inSavedListOptions options: String) -> String {
        guard let range = options.range(of: " region=", options: .backwards) else { return "ZZ" }
        return String(options[range.upperBound...])
    }
}
