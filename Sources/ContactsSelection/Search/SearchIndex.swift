import Collation
import ContactsCore
import Foundation
import ICUKit
import Support
import Synchronization

/// Every row's search keys packed into one byte buffer, in list order. Fields of a row are separated by
/// 0x01: the folded display name ("zhang wei"), its compact form ("zhangwei"), Han initials ("zw"),
/// Hangul initial consonants ("ㅇㅅㅇ"), folded sort name, the other name (nickname) and organization, emails (lowercased,
/// and folded), and phone digits (as written, E.164 and national). A keystroke is then a `memmem` over bytes.
final class SearchIndex: Sendable {
    static let fieldSeparator: UInt8 = 0x01

    let haystack: KeyBuffer<UInt8>
    /// `rows + 1` offsets into `haystack`.
    let offsets: KeyBuffer<Int32>
    let sectionOfRow: KeyBuffer<UInt16>
    let sectionTitles: [String]
    /// Folds queries. Nil for an index read from a file when the query needs no ICU (ASCII, Latin-1).
    let folding: SearchFolding?
    /// Three planes of 2 words per row (bytes, token starts, byte pairs): a 128-bit set of the bytes the row contains, of the bytes that start
    /// a token, and of its byte pairs (hashed). A scan tests these first and touches the row's bytes only
    /// when they can match; for a one-byte query of a letter or digit the byte set alone is the answer.
    let masks: KeyBuffer<UInt64>
    /// Per row, the length of its text part: letters never need to look at the phone digits after it.
    let textLengths: KeyBuffer<Int32>
    /// False for an index of the rows' text parts only (see ``canAnswerWithoutPhones(_:)``).
    let includesPhones: Bool
    /// The phone region of the list ("ZZ" for none): a query of digits is also read as a number written
    /// there (``internationalDigits(of:region:)``).
    let region: String
    /// Per pair of letters a–z (``letterPairCount`` of them, first letter major), a bitset of the rows
    /// whose text part holds that pair (``pairSetWords`` words each), then per letter a–z the rows that
    /// hold it: a query of two letters or more starts from the rows holding all of its pairs, a plain
    /// one-letter query is its letter's set, instead of a scan of every row. Nil when not built (it is
    /// made when a list is saved).
    let pairSets: KeyBuffer<UInt64>?

    /// `folding` serves the first chunk and queries. The other chunks share it (it serializes calls) while
    /// few names need ICU — ASCII and Latin-1 names take its fast path, repeated words its cache — and open
    /// their own transliterators (~0.2 s each) once many distinct words have gone through ICU.
    /// The index of `list`'s entries in list order (`order`: entry numbers). Without `phones`, rows hold
    /// their text part only: such an index answers only queries that cannot match phone digits
    /// (``canAnswerWithoutPhones(_:)``).
    init(
        list: ListEntries, order: [Int32], sectionOfRow: [UInt16], sectionTitles: [String], folding: SearchFolding,
        phones: Bool = true
    ) {
        self.folding = folding
        self.sectionOfRow = KeyBuffer(sectionOfRow)
        self.sectionTitles = sectionTitles
        self.includesPhones = phones
        self.region = list.region
        // Fold (and make the row masks) in parallel chunks (transliterators are not thread-safe: see above).
        let rowCount = order.count
        let chunkCount = rowCount >= 20_000 ? max(1, min(ParallelWork.threads * 4, 16)) : 1
        let chunkSize = (rowCount + chunkCount - 1) / max(chunkCount, 1)
        struct Chunk: Sendable {
            var bytes: [UInt8] = []
            var offsets: [Int32] = []  // rows + 1, from 0
            var textLengths: [Int32] = []
            var masks: [UInt64] = []  // the chunk's rows, three planes
        }
        let mainFolding = folding
        var chunks = ParallelWork.map(count: chunkCount) { chunk in
            let lower = chunk * chunkSize
            let upper = min(rowCount, lower + chunkSize)
            var c = Chunk()
            guard lower < upper else {
                c.offsets = [0]
                return c
            }
            var local = mainFolding
            // This chunk's own memo of folded words: repeated words skip the lock the chunks share.
            var memo = SearchFolding.Memo()
            c.bytes.reserveCapacity((upper - lower) * 48)
            c.offsets.reserveCapacity(upper - lower + 1)
            c.textLengths.reserveCapacity(upper - lower)
            for i in lower..<upper {
                if chunk > 0 && local === mainFolding && (i - lower) % 1_024 == 1_023
                    && mainFolding.transliterationCount >= Self.ownTransliteratorsAfter,
                    let own = try? SearchFolding()
                {
                    local = own
                }
                c.offsets.append(Int32(truncatingIfNeeded: c.bytes.count))
                let n = Int(order[i])
                c.textLengths.append(
                    Self.append(
                        list[n], phones: phones ? list.phones(of: n) : [], folding: local, memo: &memo,
                        to: &c.bytes))
            }
            c.offsets.append(Int32(truncatingIfNeeded: c.bytes.count))
            c.masks = Self.buildMasks(c.bytes, c.offsets, textLengths: c.textLengths)
            return c
        }
        var haystack: [UInt8] = []
        haystack.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count })
        var offsets: [Int32] = []
        offsets.reserveCapacity(rowCount + 1)
        var textLengths: [Int32] = []
        textLengths.reserveCapacity(rowCount)
        var masks = [UInt64](repeating: 0, count: rowCount * 6)
        var row = 0
        for k in chunks.indices {
            let base = Int32(haystack.count)
            for o in chunks[k].offsets.dropLast() { offsets.append(base + o) }
            textLengths.append(contentsOf: chunks[k].textLengths)
            // The chunk's planes into the index's planes (plane p of row r: masks[p * 2 * rows + 2 * r ...]).
            let rows = chunks[k].textLengths.count
            for plane in 0..<3 {
                for w in 0..<(2 * rows) {
                    masks[plane * 2 * rowCount + 2 * row + w] = chunks[k].masks[plane * 2 * rows + w]
                }
            }
            row += rows
            haystack.append(contentsOf: chunks[k].bytes)
            chunks[k] = Chunk()  // each chunk freed once copied: the bytes are not held twice
        }
        offsets.append(Int32(haystack.count))
        self.masks = KeyBuffer(masks)
        self.haystack = KeyBuffer(haystack)
        self.offsets = KeyBuffer(offsets)
        self.textLengths = KeyBuffer(textLengths)
        self.pairSets = nil
    }

    /// True when `query` cannot match phone digits (it has no digit of any script, which folding could
    /// turn into ASCII digits): an index without phones answers it as the full index does.
    static func canAnswerWithoutPhones(_ query: String) -> Bool {
        !query.unicodeScalars.contains { $0.properties.numericType != nil }
    }

    /// An index from its parts (as read back from a saved list, memory-mapped; see `SavedList`).
    init(
        haystack: KeyBuffer<UInt8>, offsets: KeyBuffer<Int32>, masks: KeyBuffer<UInt64>,
        textLengths: KeyBuffer<Int32>, sectionOfRow: KeyBuffer<UInt16>, sectionTitles: [String],
        folding: SearchFolding?, region: String, pairSets: KeyBuffer<UInt64>? = nil
    ) {
        self.region = region
        self.pairSets = pairSets
        self.haystack = haystack
        self.offsets = offsets
        self.masks = masks
        self.textLengths = textLengths
        self.includesPhones = true
        self.sectionOfRow = sectionOfRow
        self.sectionTitles = sectionTitles
        self.folding = folding
    }

    /// Distinct words through ICU after which each chunk opens its own transliterators.
    static let ownTransliteratorsAfter = 4_000
}
