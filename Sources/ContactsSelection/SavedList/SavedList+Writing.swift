import Foundation
import Support

/// `write(2)` (inside `SavedList` the name is its own `write`).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

extension SavedList {
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
            w.word(UInt64(source.otherChannelCount))
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
}
