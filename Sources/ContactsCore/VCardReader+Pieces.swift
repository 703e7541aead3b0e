import Foundation
import Support

extension VCardReader {
    /// Contacts in memory that ``AddressBook`` moves into its array without copying (see
    /// ``CheckedStorage/joined(_:)``).
    typealias ContactStorage = CheckedStorage<Contact>

    /// What one chunk of a file gave.
    struct Chunk {
        /// The contacts, in memory that ``AddressBook`` moves into its array without copying.
        var storage = ContactStorage(capacity: 0)
        var contactLines: [Int] = []
        /// ``IDIndex/hash(_:)`` of each contact's id (computed while the id is fresh), and whether every id
        /// is ASCII (the hashes are meaningful only then).
        var idHashes: [UInt64] = []
        var idsAreASCII = true
        /// The categories of this chunk's contacts, with their members (positions in this chunk).
        var categories = CategoryGroups()
        var groups: [Group] = []
        var diagnostics: [VCardDiagnostic] = []

        /// The contacts as an array (a copy).
        var contacts: [Contact] { storage.elements }
    }

    /// Threads for reading large files: `ParallelWork.threads` (Support).
    static var defaultThreadCount: Int { ParallelWork.threads }

    /// Pieces for reading a large file: eight per thread (at most 16, each at least 1 MiB), so that a thread
    /// that is done early takes another piece instead of waiting for a slower one: threads do not run at the
    /// same speed (one may first have to tidy its malloc arena), and small pieces keep the wait at the end
    /// short. One for one thread.
    static var defaultPieceCount: Int {
        let threads = defaultThreadCount
        return threads > 1 ? threads * 8 : 1
    }

    /// Reads `data` in up to `maxChunks` pieces split at BEGIN:VCARD lines, with file line numbers, on up to
    /// `threads` threads (each takes the next piece when done). Small inputs (under 2 × `minChunkSize`) are
    /// read in one piece.
    static func readChunked(
        data: Data, fileName: String, maxChunks: Int = defaultPieceCount, threads: Int = defaultThreadCount,
        minChunkSize: Int = 1 << 20
    ) -> [Chunk] {
        let (data, notes) = utf8Input(data, fileName: fileName)
        let boundaries = pieceBoundaries(data, maxChunks: maxChunks, minChunkSize: minChunkSize)
        let n = boundaries.count - 1
        struct Partial {
            var chunk = Chunk()
            var localDiagnostics: [VCardParser.LocalDiagnostic] = []
            var lineCount = 0
        }
        let partials = ParallelWork.map(count: n, threads: threads) { k in
            let parser = VCardParser(fileName: fileName)
            parser.endsBeforeNextCard = k < n - 1
            // The bytes are read in place (a read-only view, valid for the call): a mapped file is never copied.
            data.withUnsafeBytes { raw in
                let piece = UnsafeRawBufferPointer(rebasing: raw[boundaries[k]..<boundaries[k + 1]])
                    .bindMemory(to: UInt8.self)
                parser.collect(reserving: estimatedCardCount(piece))
                parser.parse(piece) { _, _ in }
            }
            return Partial(
                chunk: parser.takeCollected(), localDiagnostics: parser.localDiagnostics,
                lineCount: parser.lineCount)
        }
        var chunks: [Chunk] = []
        chunks.reserveCapacity(n)
        var offset = 0
        for k in 0..<n {
            var chunk = partials[k].chunk
            if offset > 0 {
                for i in chunk.contactLines.indices { chunk.contactLines[i] += offset }
            }
            chunk.diagnostics = partials[k].localDiagnostics.map { $0.rendered(file: fileName, lineOffset: offset) }
            offset += partials[k].lineCount
            chunks.append(chunk)
        }
        if !notes.isEmpty { chunks[0].diagnostics = notes + chunks[0].diagnostics }
        return chunks
    }

    /// Where `data` is split for reading: at most 16 pieces, at most `maxChunks`, each at least
    /// `minChunkSize` bytes, each starting at a BEGIN:VCARD line.
    static func pieceBoundaries(_ data: Data, maxChunks: Int, minChunkSize: Int) -> [Int] {
        data.withUnsafeBytes { raw in
            chunkBoundaries(
                raw.bindMemory(to: UInt8.self), pieces: min(16, maxChunks, max(1, raw.count / max(1, minChunkSize))))
        }
    }

    /// Offsets that split `buf` into about `pieces` parts, each starting at a BEGIN:VCARD line.
    /// `buf`: the file's bytes, read-only and borrowed for the call.
    static func chunkBoundaries(_ buf: UnsafeBufferPointer<UInt8>, pieces: Int) -> [Int] {
        var result = [0]
        guard pieces > 1, !buf.isEmpty else { return [0, buf.count] }
        for k in 1..<pieces {
            var pos = max(result[result.count - 1] + 1, buf.count / pieces * k)
            var found: Int?
            while pos < buf.count {
                guard let nl = buf.firstOffset(of: 0x0A, in: pos..<buf.count) else { break }
                let start = nl + 1
                if beginsCard(buf, at: start) {
                    found = start
                    break
                }
                pos = start
            }
            guard let found else { break }
            result.append(found)
        }
        result.append(buf.count)
        return result
    }

    /// Whether the physical line at `start` is one the parser reads as the start of a card, whatever came
    /// before it: `BEGIN:VCARD` (any case) and nothing but spaces and tabs up to its line end, and the
    /// next line not a continuation (a line that starts with a space or tab would be unfolded into it). A
    /// quoted-printable soft break or a base64 run never takes a BEGIN:VCARD line in (``VCardLexer``).
    static func beginsCard(_ buf: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let n = buf.count
        // Most lines fail on their first byte, before their end is looked for.
        guard n - start >= 11, buf[start] | 0x20 == 0x62 else { return false }
        // The physical line as the lexer ends it: at the first CR or LF.
        var end = buf.firstOffset(of: 0x0A, in: start..<n) ?? n
        end = buf.firstOffset(of: 0x0D, in: start..<end) ?? end
        guard VCardLexer.matchesKeyword(UnsafeBufferPointer(rebasing: buf[start..<end]), "BEGIN:VCARD") else {
            return false
        }
        // Its line end (CRs, then an optional LF), and the next line must not be a continuation.
        var i = end
        while i < n && buf[i] == 0x0D { i += 1 }
        if i < n && buf[i] == 0x0A { i += 1 }
        return i == n || (buf[i] != 0x20 && buf[i] != 0x09)
    }
}

/// About how many cards `buf` holds (for reserving capacity): the lines that start with "BEGIN:" in its
/// first 64 KiB, scaled to its size with a margin (memory reserved and not used is never touched). `buf`: the
/// piece's bytes, read-only and borrowed for the call.
func estimatedCardCount(_ buf: UnsafeBufferPointer<UInt8>) -> Int {
    guard !buf.isEmpty else { return 0 }
    let total = min(buf.count, 1 << 16)
    var count = 0
    var offset = 0
    while offset < total {
        guard let nl = buf.firstOffset(of: 0x0A, in: offset..<total) else { break }
        let next = nl + 1
        if total - next > 6 {
            let b0 = buf[next] | 0x20
            let b1 = buf[next + 1] | 0x20
            if b0 == 0x62 && b1 == 0x65 && buf[next + 5] == 0x3A { count += 1 }
        }
        offset = next
    }
    if total == buf.count { return count + 1 }
    return Int(Double(count + 1) * Double(buf.count) / Double(total) * 1.25) + 16
}
