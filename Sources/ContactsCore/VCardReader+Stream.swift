import Foundation
import Support

extension VCardReader {
    /// What a streamed read gave: the caller's pieces in file order and what the reader itself kept of
    /// each contact (its id and line, for the rule that makes ids unique).
    public struct Stream<Piece: Sendable>: Sendable {
        /// One per piece of the file, in file order; piece k saw `contactCounts[k]` contacts.
        public var pieces: [Piece]
        public var contactCounts: [Int]
        /// Every diagnostic, in line order (those of duplicate ids included).
        public var diagnostics: [VCardDiagnostic]
        /// Contacts whose id was changed to keep ids unique (as ``AddressBook`` changes them): contact number
        /// in file order → the new id.
        public var renamedIDs: [Int: String]
        /// Where each contact's card begins in the file (the byte offset of its `BEGIN:VCARD` line), in file
        /// order; nil when the bytes read were not the file's own (a UTF-16 file converted to UTF-8).
        public var cardOffsets: [Int]?
    }

    /// Reads vCard `data` on all cores without keeping the cards: each contact is handed to `body` on the
    /// thread that read it, with that piece's accumulator (made by `makePiece`), and is gone when `body`
    /// returns. For reading a big file into something smaller than its contacts (a list's rows, counts).
    /// Group cards and category groups are not kept. `progress`, when given, expects the bytes to read and
    /// is advanced by the bytes read as the pieces are read (every 1,024 cards and at the end of
    /// each piece).
    ///
    /// ```swift
    /// let stream = VCardReader.stream(data: data, fileName: "big.vcf", makePiece: { 0 }) { count, contact in
    ///     if !contact.emails.isEmpty { count += 1 }
    /// }
    /// stream.pieces.reduce(0, +)   // contacts with an email
    /// ```
    ///
    /// With `listedFieldsOnly`, each contact has only what a list's row and search use: its names,
    /// organization, languages, emails and phones (with their labels) and its addresses' countries; other
    /// values are checked but not kept (the diagnostics and ids are those of a full read).
    public static func stream<Piece: Sendable>(
        data: Data, fileName: String, listedFieldsOnly: Bool = false, makePiece: @Sendable () -> Piece,
        progress: WorkProgress? = nil, _ body: @Sendable (inout Piece, consuming Contact) -> Void
    ) -> Stream<Piece> {
        stream(
            data: data, fileName: fileName, releasingPagesRead: false, listedFieldsOnly: listedFieldsOnly,
            makePiece: makePiece, body, maxChunks: defaultPieceCount, threads: defaultThreadCount, progress: progress)
    }

    /// ``stream(data:fileName:listedFieldsOnly:makePiece:progress:_:)`` of the file at `path`, memory-mapped: the pages of each piece
    /// are handed back to the system once it is read, so a file of any size costs little memory beyond
    /// what `body` keeps. Throws ``ContactsCoreError/cannotRead(path:reason:)``.
    public static func stream<Piece: Sendable>(
        contentsOfFile path: String, fileName: String? = nil, listedFieldsOnly: Bool = false,
        makePiece: @Sendable () -> Piece, progress: WorkProgress? = nil,
        _ body: @Sendable (inout Piece, consuming Contact) -> Void
    ) throws -> Stream<Piece> {
        let name = fileName ?? path
        let data = try mappedFile(path, advice: MADV_SEQUENTIAL)
        guard !data.isEmpty else {
            return stream(data: Data(), fileName: name, makePiece: makePiece, progress: progress, body)
        }
        return stream(
            data: data, fileName: name, releasingPagesRead: true, listedFieldsOnly: listedFieldsOnly,
            makePiece: makePiece, body, maxChunks: defaultPieceCount, threads: defaultThreadCount, progress: progress)
    }

    /// The regular file at `path` mapped read-only and private, as `Data` that unmaps it with its last copy
    /// (empty for an empty file); `advice` is given to the system for the mapping (`madvise`). Throws
    /// ``ContactsCoreError/cannotRead(path:reason:)`` for a file that cannot be opened, is not a regular
    /// file, or cannot be mapped.
    static func mappedFile(_ path: String, advice: Int32 = MADV_NORMAL) throws -> Data {
        let file: MappedFile
        do {
            file = try MappedFile(path: path, advice: advice)
        } catch {
            throw ContactsCoreError.cannotRead(path: path, reason: error.reason)
        }
        guard let base = file.bytes.baseAddress else { return Data() }
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: file.bytes.count,
            deallocator: .custom { _, _ in withExtendedLifetime(file) {} })
    }

    /// The streamed read in up to `maxChunks` pieces on `threads` threads. `releasingPagesRead`: `data` is a
    /// private read-only file mapping whose pages may be dropped once read (they would be read from the
    /// file again if touched). `progress` counts the bytes of `data` after any conversion to UTF-8. Package
    /// access: the fuzz targets read small inputs in pieces.
    package static func stream<Piece: Sendable>(
        data input: Data, fileName: String, releasingPagesRead: Bool, listedFieldsOnly: Bool = false,
        makePiece: @Sendable () -> Piece,
        _ body: @Sendable (inout Piece, consuming Contact) -> Void, maxChunks: Int, threads: Int,
        minChunkSize: Int = 1 << 20, progress: WorkProgress? = nil
    ) -> Stream<Piece> {
        let (data, notes) = utf8Input(input, fileName: fileName)
        // A converted (UTF-16) file is a new buffer, not the mapping: its pages are never handed back.
        let sameBytes = data.withUnsafeBytes { converted in
            input.withUnsafeBytes { $0.baseAddress == converted.baseAddress }
        }
        let release = releasingPagesRead && sameBytes
        let boundaries = pieceBoundaries(data, maxChunks: maxChunks, minChunkSize: minChunkSize)
        progress?.expect(data.count)
        let results = ParallelWork.map(count: boundaries.count - 1, threads: threads) { k in
            let parser = VCardParser(fileName: fileName)
            parser.endsBeforeNextCard = k < boundaries.count - 2
            if listedFieldsOnly { parser.mode = .listing }
            var result = StreamedPiece(piece: makePiece())
            var reported = 0  // bytes of this piece counted in `progress`
            // The bytes are read in place (a read-only view, valid for the call).
            data.withUnsafeBytes { raw in
                let piece = UnsafeRawBufferPointer(rebasing: raw[boundaries[k]..<boundaries[k + 1]])
                    .bindMemory(to: UInt8.self)
                parser.parse(piece) { record, line in
                    guard case .contact(let contact) = consume record else { return }
                    let (hash, ascii) = IDIndex.hash(contact.id)
                    result.ids.append(contact.id)
                    result.lines.append(line)
                    result.offsets.append(boundaries[k] + parser.cardStartOffset)
                    result.hashes.append(hash)
                    if !ascii { result.idsAreASCII = false }
                    body(&result.piece, contact)
                    if let progress, result.ids.count % progressStride == 0 {
                        progress.advance(by: parser.cardStartOffset - reported)
                        reported = parser.cardStartOffset
                    }
                }
                progress?.advance(by: piece.count - reported)
                if release { releasePages(of: piece) }
            }
            result.diagnostics = parser.localDiagnostics
            result.lineCount = parser.lineCount
            return result
        }
        var pieces: [Piece] = []
        var counts: [Int] = []
        var ids: [String] = []
        var lines: [Int] = []
        var offsets: [Int] = []
        var hashes: [UInt64]? = []
        var diagnostics = notes
        var lineOffset = 0
        for r in results {
            pieces.append(r.piece)
            counts.append(r.ids.count)
            ids.append(contentsOf: r.ids)
            lines.append(contentsOf: r.lines.lazy.map { $0 + lineOffset })
            offsets.append(contentsOf: r.offsets)
            if r.idsAreASCII { hashes?.append(contentsOf: r.hashes) } else { hashes = nil }
            diagnostics += r.diagnostics.map { $0.rendered(file: fileName, lineOffset: lineOffset) }
            lineOffset += r.lineCount
        }
        let unique = UniqueIDs(&ids, hashes: hashes, lines: lines, fileName: fileName)
        var renamed: [Int: String] = [:]
        for i in unique.changed { renamed[i] = ids[i] }
        return Stream(
            pieces: pieces, contactCounts: counts, diagnostics: unique.merged(into: diagnostics), renamedIDs: renamed,
            cardOffsets: sameBytes ? offsets : nil)
    }

    /// How many cards a piece reads between two advances of a streamed read's progress.
    static let progressStride = 1024

    /// Hands the whole pages inside `piece` (part of a private read-only file mapping) back to the system;
    /// the pointer arithmetic only rounds the piece's bounds to pages for `madvise`.
    private static func releasePages(of piece: UnsafeBufferPointer<UInt8>) {
        guard let start = piece.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + piece.count) / page * page
        guard end > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, end - first, MADV_DONTNEED)
    }
}

/// What one thread made of one piece of a streamed file.
private struct StreamedPiece<Piece: Sendable>: Sendable {
    var piece: Piece
    var ids: [String] = []
    var lines: [Int] = []
    var offsets: [Int] = []
    var hashes: [UInt64] = []
    var idsAreASCII = true
    var diagnostics: [VCardParser.LocalDiagnostic] = []
    var lineCount = 0
}
