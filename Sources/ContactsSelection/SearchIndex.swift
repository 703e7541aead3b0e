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

    /// Pairs of letters a–z: the first bitsets of ``pairSets``.
    static let letterPairCount = 26 * 26
    /// The bitsets of ``pairSets``: the pairs, then one per letter a–z (the rows holding it anywhere).
    static let letterSetCount = letterPairCount + 26

    /// The words of one bitset of ``pairSets`` for `rows` rows.
    static func pairSetWords(rows: Int) -> Int { (rows + 63) / 64 }

    /// The number of the pair `a`, `b` when both are letters a–z.
    @inline(__always)
    static func letterPair(_ a: UInt8, _ b: UInt8) -> Int? {
        guard (0x61...0x7A).contains(a), (0x61...0x7A).contains(b) else { return nil }
        return Int(a - 0x61) * 26 + Int(b - 0x61)
    }

    /// The ``pairSets`` of this index's rows (what a saved list stores).
    func makePairSets() -> [UInt64] {
        let rows = offsets.count - 1
        let words = Self.pairSetWords(rows: rows)
        var sets = [UInt64](repeating: 0, count: Self.letterSetCount * words)
        haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                textLengths.withUnsafeBufferPointer { text in
                    sets.withUnsafeMutableBufferPointer { out in
                        for r in 0..<rows {
                            let start = Int(off[r])
                            let end = start + Int(text[r])
                            let bit: UInt64 = 1 << UInt64(r & 63)
                            let word = r >> 6
                            for i in start..<Int(off[r + 1]) where (0x61...0x7A).contains(hay[i]) {
                                out[(Self.letterPairCount + Int(hay[i] - 0x61)) * words + word] |= bit
                            }
                            guard end - start >= 2 else { continue }
                            for i in start..<(end - 1) {
                                if let pair = Self.letterPair(hay[i], hay[i + 1]) { out[pair * words + word] |= bit }
                            }
                        }
                    }
                }
            }
        }
        return sets
    }

    /// The rows that may match `query` by its letter pairs, ascending (every row that matches is among
    /// them), and whether they are exactly its answer (a plain query of one or two letters); nil when
    /// there are no pair sets or the query has no pair of letters (nor is one letter) or may match phone
    /// digits.
    func pairCandidates(_ query: Query) -> (rows: [Int32], exact: Bool)? {
        guard let pairSets, query.digits == nil, query.international == nil else { return nil }
        var pairs: [Int] = []
        for needle in query.needles where needle.count >= 2 {
            for i in 0..<(needle.count - 1) {
                if let pair = Self.letterPair(needle[i], needle[i + 1]), !pairs.contains(pair) { pairs.append(pair) }
            }
        }
        let plain = !query.keywords && query.needles.count == 1
        if pairs.isEmpty, plain, query.needles[0].count == 1, (0x61...0x7A).contains(query.needles[0][0]) {
            pairs = [Self.letterPairCount + Int(query.needles[0][0] - 0x61)]
        }
        guard let first = pairs.first else { return nil }
        let rows = offsets.count - 1
        let words = Self.pairSetWords(rows: rows)
        let exact = plain && query.needles[0].count <= 2
        let found = pairSets.withUnsafeBufferPointer { sets -> [Int32] in
            var result: [Int32] = []
            if pairs.count == 1 {
                var count = 0
                for w in 0..<words { count += sets[first * words + w].nonzeroBitCount }
                result.reserveCapacity(count)
            }
            for w in 0..<words {
                var word = sets[first * words + w]
                for pair in pairs.dropFirst() where word != 0 { word &= sets[pair * words + w] }
                while word != 0 {
                    result.append(Int32(w << 6 + word.trailingZeroBitCount))
                    word &= word &- 1
                }
            }
            return result
        }
        return (found, exact)
    }

    /// Distinct words through ICU after which each chunk opens its own transliterators.
    static let ownTransliteratorsAfter = 4_000

    /// Bit of a byte in a row mask: a–z and 0–9 have their own bits (exact), other bytes share the rest.
    @inline(__always)
    static func maskBit(_ b: UInt8) -> (word: Int, bit: UInt64) {
        let index: Int
        switch b {
        case 0x61...0x7A: index = Int(b - 0x61)
        case 0x30...0x39: index = 26 + Int(b - 0x30)
        default: index = 36 + Int(b) % 92
        }
        return (index >> 6, 1 << UInt64(index & 63))
    }

    @inline(__always)
    static func hasExactBit(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }

    @inline(__always)
    static func pairBit(_ a: UInt8, _ b: UInt8) -> (word: Int, bit: UInt64) {
        let h = (Int(a) &* 31 &+ Int(b)) & 127
        return (h >> 6, 1 << UInt64(h & 63))
    }

    /// The row masks in three planes (`rows * 2` words each): bytes of the whole row, token-start bytes,
    /// and byte pairs of the text part only (phone digits would fill the pair bits and make them useless;
    /// digit needles are not checked against pairs).
    static func buildMasks(_ haystack: [UInt8], _ offsets: [Int32], textLengths: [Int32]) -> [UInt64] {
        let rows = offsets.count - 1
        var masks = [UInt64](repeating: 0, count: rows * 6)
        haystack.withUnsafeBufferPointer { hay in
            masks.withUnsafeMutableBufferPointer { out in
                for r in 0..<rows {
                    var m: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
                    var previous: UInt8 = fieldSeparator
                    let textEnd = Int(offsets[r]) + Int(textLengths[r])
                    for i in Int(offsets[r])..<Int(offsets[r + 1]) {
                        let b = hay[i]
                        let (w, bit) = maskBit(b)
                        if w == 0 { m.0 |= bit } else { m.1 |= bit }
                        if isBoundary(previous) && !isBoundary(b) {
                            if w == 0 { m.2 |= bit } else { m.3 |= bit }
                        }
                        if i < textEnd {
                            let (pw, pbit) = pairBit(previous, b)
                            if pw == 0 { m.4 |= pbit } else { m.5 |= pbit }
                        }
                        previous = b
                    }
                    out[2 * r] = m.0
                    out[2 * r + 1] = m.1
                    out[2 * rows + 2 * r] = m.2
                    out[2 * rows + 2 * r + 1] = m.3
                    out[4 * rows + 2 * r] = m.4
                    out[4 * rows + 2 * r + 1] = m.5
                }
            }
        }
        return masks
    }

    /// The mask a row must contain for `needle` to occur in it.
    static func mask(of needle: [UInt8]) -> (UInt64, UInt64) {
        var m0: UInt64 = 0
        var m1: UInt64 = 0
        for b in needle {
            let (w, bit) = maskBit(b)
            if w == 0 { m0 |= bit } else { m1 |= bit }
        }
        return (m0, m1)
    }

    /// Appends a row's fields; returns the length of its text part (everything before the phone digits).
    @discardableResult
    static func append(
        _ row: ListEntry, phones: [PhoneKey], folding: SearchFolding, memo: inout SearchFolding.Memo,
        to bytes: inout [UInt8]
    )
        -> Int32
    {
        let rowStart = bytes.count
        func field(_ s: String) {
            guard !s.isEmpty else { return }
            bytes.append(fieldSeparator)
            bytes.append(contentsOf: s.utf8)
        }
        // A Japanese name's Han is kept as written (never read as Pinyin); its reading is the sort name.
        let readsHan = !row.isJapanese
        let keys = folding.keys(for: row.displayName, memo: &memo, readsHanAsMandarin: readsHan)
        field(keys.folded)
        if !row.nameWords.isEmpty {
            field(
                row.isJapanese
                    ? folding.foldKeepingHan(row.nameWords, memo: &memo) : folding.fold(row.nameWords, memo: &memo))
        }
        if (!keys.initials.isEmpty || !keys.hangulInitials.isEmpty) && keys.tokens.count > 1 { field(keys.compact) }
        field(keys.initials)
        field(keys.hangulInitials)
        if row.sortName != row.displayName {
            let sortKeys = folding.keys(for: row.sortName, memo: &memo, readsHanAsMandarin: readsHan)
            field(sortKeys.folded)
            field(sortKeys.hangulInitials)
        }
        if !row.otherName.isEmpty {
            field(
                row.isJapanese
                    ? folding.foldKeepingHan(row.otherName, memo: &memo) : folding.fold(row.otherName, memo: &memo))
        }
        if !row.organization.isEmpty { field(folding.fold(row.organization, memo: &memo)) }
        for email in row.emails {
            field(email.lowercased())
            // Also folded ("anna example net"): a plain query with a dot such as "example.net" is folded
            // like any other, and must find every address at that domain, not only contacts named after one.
            field(folding.fold(email, memo: &memo))
        }
        let textLength = Int32(bytes.count - rowStart + 1)  // with the separator that ends the text part
        for phone in phones {
            phone.forEachSearchDigits { digits in
                bytes.append(fieldSeparator)
                bytes.append(contentsOf: digits.utf8)
            }
        }
        bytes.append(fieldSeparator)
        return textLength
    }

    // MARK: - Queries

    /// A query in the form the index compares.
    struct Query: Equatable {
        var keywords: Bool
        /// Folded query (plain) or its tokens (keywords), as UTF-8.
        var needles: [[UInt8]]
        /// For a query of digits and punctuation only: its digits, matched against phone fields too.
        var digits: [UInt8]?
        /// For such a query written as a number (national form with a trunk prefix, `00` international
        /// prefix): the digits of its E.164 form when they differ from `digits`; a row matches them too.
        var international: [UInt8]? = nil
        var matchesEverything: Bool { needles.isEmpty && digits == nil }
    }

    /// The digits of the E.164 form of a query typed as people type numbers ("020 7946 0140" in GB,
    /// "01 99 00 03 88" in FR, "0033 1 99 00 03 88" anywhere): the number read with `region` by
    /// libphonenumber, else, for a leading `00` (the international prefix of most of the world), read as
    /// "+" and what follows; nil when it is no number or its digits are the query's own.
    static func internationalDigits(of text: String, region: String) -> [UInt8]? {
        let digits = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
        // Written with "+", its digits already are those of E.164.
        guard digits.count >= 4, !text.contains("+") else { return nil }
        let normalizer = PhoneNormalizer.shared
        var e164 = normalizer.e164(text, region: region)
        if e164 == nil, digits.starts(with: [0x30, 0x30]) {
            e164 = normalizer.e164("+" + String(decoding: digits.dropFirst(2), as: UTF8.self), region: "ZZ")
        }
        guard let e164 else { return nil }
        let result = Array(e164.utf8.dropFirst())
        return result == digits ? nil : result
    }

    func parse(_ text: String, keywords: Bool) -> Query {
        if SearchFolding.isHangulInitialsQuery(text) {
            let jamo = text.unicodeScalars.filter { !$0.properties.isWhitespace }
            let s = String(String.UnicodeScalarView(jamo))
            return Query(keywords: keywords, needles: [Array(s.utf8)], digits: nil)
        }
        let folded = folding?.fold(text) ?? SearchFolding.foldLatin1(text) ?? text.lowercased()
        let hasLetters = text.unicodeScalars.contains { $0.properties.isAlphabetic }
        let digitBytes = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
        let digits = !hasLetters && !digitBytes.isEmpty ? Array(digitBytes) : nil
        // Read as a number once per search (not per row).
        let international = digits == nil ? nil : Self.internationalDigits(of: text, region: region)
        if folded.isEmpty {
            return Query(keywords: keywords, needles: [], digits: digits, international: international)
        }
        if !keywords && text.contains("@") {
            // An email address: compare as written (emails are indexed lowercased, not folded).
            let raw = text.trimmingCharacters(in: .whitespaces).lowercased()
            return Query(keywords: false, needles: [Array(raw.utf8)], digits: nil)
        }
        let needles = keywords ? folded.split(separator: " ").map { Array($0.utf8) } : [Array(folded.utf8)]
        return Query(keywords: keywords, needles: needles, digits: digits, international: international)
    }

    /// True when every row matching `narrower` also matches `wider` (so `wider`'s result can be filtered).
    static func narrows(_ narrower: Query, _ wider: Query) -> Bool {
        guard narrower.keywords == wider.keywords else { return false }
        if wider.matchesEverything { return true }
        if let wd = wider.digits {
            // Digit queries: the new digits must extend the old ones, and the text must as well.
            guard let nd = narrower.digits, contains(nd, wd) else { return false }
        }
        if let ni = narrower.international {
            // Rows found through the number's E.164 digits must have been found by the wider query too.
            guard let wi = wider.international, contains(ni, wi) else { return false }
        }
        if narrower.keywords {
            // Each old token must be a prefix of the new token at the same place; new tokens may be added.
            guard narrower.needles.count >= wider.needles.count else { return false }
            for (n, w) in zip(narrower.needles, wider.needles) where !n.starts(with: w) { return false }
            return true
        }
        guard let n = narrower.needles.first else { return wider.needles.isEmpty }
        guard let w = wider.needles.first else { return true }
        return contains(n, w)
    }

    static func contains(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if b.isEmpty { return true }
        if b.count > a.count { return false }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                find(pb.baseAddress!, pb.count, in: pa.baseAddress!, pa.count, atTokenStart: false)
            }
        }
    }

    func search(_ text: String, keywords: Bool, previous: SearchResult?) -> SearchResult {
        let query = parse(text, keywords: keywords)
        let rowCount = offsets.count - 1
        var numbers: [Int32]
        if query.matchesEverything {
            numbers = Array(0..<Int32(rowCount))
        } else if let previous, let previousQuery = previous.parsed, Self.narrows(query, previousQuery) {
            // The rows holding the query's letter pairs: the answer, or candidates fewer than the previous one.
            if let pairs = pairCandidates(query), pairs.exact || pairs.rows.count < previous.rowNumbers.count {
                numbers = pairs.exact ? pairs.rows : filter(pairs.rows, query)
            } else {
                numbers = filter(previous.rowNumbers, query)
            }
        } else if let pairs = pairCandidates(query) {
            numbers = pairs.exact ? pairs.rows : filter(pairs.rows, query)
        } else {
            numbers = scanAll(query)
        }
        // A query with Han also finds the names whose Han is kept as written (Japanese names): its Han
        // compared as typed, the rest folded. Such a result is not refined by the next keystroke.
        if let folding, SearchFolding.containsHan(text) {
            let kept = folding.foldKeepingHan(text)
            let asWritten = Query(
                keywords: keywords,
                needles: keywords ? kept.split(separator: " ").map { Array($0.utf8) } : [Array(kept.utf8)],
                digits: nil)
            numbers = Self.union(numbers, scanAll(asWritten))
            return SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: nil)
        }
        return SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: query)
    }

    /// The rows of two results in list order (both are ascending), each once.
    static func union(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                out.append(a[i])
                i += 1
            } else {
                if i < a.count && a[i] == b[j] { i += 1 }
                out.append(b[j])
                j += 1
            }
        }
        return out
    }

    /// Groups result rows (in list order) into runs of the same section. Rows are in section order, so
    /// each run's end is found by galloping and halving (a million-row result in a few hundred looks).
    func sectionRuns(_ numbers: [Int32]) -> [RowSection] {
        var sections: [RowSection] = []
        var start = 0
        let count = numbers.count
        while start < count {
            let s = sectionOfRow[Int(numbers[start])]
            func inRun(_ position: Int) -> Bool { sectionOfRow[Int(numbers[position])] == s }
            // The run holds start..<low+1 and not high (or high is the end).
            var low = start
            var step = 1
            while low + step < count && inRun(low + step) {
                low += step
                step *= 2
            }
            var high = min(count, low + step)
            while high - low > 1 {
                let mid = (low + high) / 2
                if inRun(mid) { low = mid } else { high = mid }
            }
            sections.append(RowSection(title: sectionTitles[Int(s)], range: start..<high))
            start = high
        }
        return sections
    }

    /// Full scan over every row: the row masks rule most rows out with two AND operations; only rows
    /// that may match are searched byte by byte.
    func scanAll(_ query: Query) -> [Int32] {
        matching(count: offsets.count - 1, candidates: nil, query)
    }

    /// The rows among `count` positions (the row at position i is `candidates[i]`, or i without
    /// candidates) that match, in order. Large scans are split across the cores; each part is searched on
    /// its own and the parts joined.
    func matching(count: Int, candidates: UnsafeBufferPointer<Int32>?, _ query: Query) -> [Int32] {
        let prefilter = Prefilter(query)
        let parts = count >= Self.parallelThreshold ? min(ProcessInfo.processInfo.activeProcessorCount, 8) : 1
        let partSize = (count + parts - 1) / max(parts, 1)
        // Needles flattened into one buffer, so the per-row loop touches no Swift arrays (no retains).
        var needleBytes: [UInt8] = []
        var needleSpans: [(start: Int, count: Int, digitsOnly: Bool)] = []
        for needle in query.needles {
            needleSpans.append((needleBytes.count, needle.count, needle.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }))
            needleBytes.append(contentsOf: needle)
        }
        let digits = query.digits ?? []
        let international = query.international ?? []
        return haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                masks.withUnsafeBufferPointer { masks in
                    textLengths.withUnsafeBufferPointer { text in
                        needleBytes.withUnsafeBufferPointer { nb in
                            needleSpans.withUnsafeBufferPointer { spans in
                                digits.withUnsafeBufferPointer { db in
                                    international.withUnsafeBufferPointer { ib in
                                        let matcher = RowMatcher(
                                            hay: hay.baseAddress!, off: off, text: text, masks: masks, needles: nb,
                                            spans: spans, digits: query.digits == nil ? nil : db,
                                            international: query.international == nil ? nil : ib,
                                            keywords: query.keywords, prefilter: prefilter, candidates: candidates)
                                        if parts == 1 { return matcher.scan(0..<count) }
                                        let results = PartResults(parts)
                                        // The parts only read immutable buffers and write their own result slot.
                                        nonisolated(unsafe) let shared = matcher
                                        DispatchQueue.concurrentPerform(iterations: parts) { p in
                                            results.set(
                                                p, shared.scan(p * partSize..<min(count, (p + 1) * partSize)))
                                        }
                                        return results.joined()
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Everything one scan reads, as raw buffers.
    struct RowMatcher {
        let hay: UnsafePointer<UInt8>
        let off: UnsafeBufferPointer<Int32>
        let text: UnsafeBufferPointer<Int32>
        let masks: UnsafeBufferPointer<UInt64>
        let needles: UnsafeBufferPointer<UInt8>
        let spans: UnsafeBufferPointer<(start: Int, count: Int, digitsOnly: Bool)>
        let digits: UnsafeBufferPointer<UInt8>?
        /// The digits of the query's E.164 form (``Query/international``).
        let international: UnsafeBufferPointer<UInt8>?
        let keywords: Bool
        let prefilter: Prefilter
        let candidates: UnsafeBufferPointer<Int32>?

        func scan(_ range: Range<Int>) -> [Int32] {
            var result: [Int32] = []
            // Room for every row when the mask alone answers (a one-letter query matches most rows).
            if prefilter.maskIsAnswer { result.reserveCapacity(range.count) }
            for i in range {
                let r = candidates.map { Int($0[i]) } ?? i
                if prefilter.mayMatch(r, masks: masks) && (prefilter.maskIsAnswer || matches(r)) {
                    result.append(Int32(r))
                }
            }
            return result
        }

        @inline(__always)
        func matches(_ row: Int) -> Bool {
            let start = hay + Int(off[row])
            let length = Int(off[row &+ 1] &- off[row])
            if let digits, SearchIndex.find(digits.baseAddress!, digits.count, in: start, length, atTokenStart: false) {
                return true
            }
            if let international,
                SearchIndex.find(
                    international.baseAddress!, international.count, in: start, length, atTokenStart: false)
            {
                return true
            }
            if spans.isEmpty { return digits == nil }
            let textLength = Int(text[row])
            for span in spans {
                let within = span.digitsOnly ? length : textLength
                if !SearchIndex.find(
                    needles.baseAddress! + span.start, span.count, in: start, within, atTokenStart: keywords)
                {
                    return false
                }
            }
            return true
        }
    }

    /// Scans longer than this many rows run in parallel parts.
    static let parallelThreshold = 150_000

    /// Results of parallel parts, each written once by its own part.
    final class PartResults: Sendable {
        private let parts: Mutex<[[Int32]]>
        init(_ count: Int) { parts = Mutex(Array(repeating: [], count: count)) }
        func set(_ i: Int, _ value: [Int32]) { parts.withLock { $0[i] = value } }
        /// The parts in order, copied part by part (not element by element).
        func joined() -> [Int32] {
            parts.withLock { parts in
                var out: [Int32] = []
                out.reserveCapacity(parts.reduce(0) { $0 + $1.count })
                for part in parts { out.append(contentsOf: part) }
                return out
            }
        }
    }

    /// The masks a row must have for a query to match it.
    struct Prefilter {
        /// Bytes, token-start bytes, byte pairs (as in a row's mask words).
        var required: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var digits: (UInt64, UInt64)?
        var international: (UInt64, UInt64)?
        /// A single letter or digit: the mask is exact, no byte search needed.
        var maskIsAnswer: Bool

        init(_ query: Query) {
            for needle in query.needles {
                let m = SearchIndex.mask(of: needle)
                required.0 |= m.0
                required.1 |= m.1
                // First bytes of keyword tokens must start a token of the row.
                if query.keywords, let first = needle.first {
                    let (w, bit) = SearchIndex.maskBit(first)
                    if w == 0 { required.2 |= bit } else { required.3 |= bit }
                }
                var previous: UInt8?
                let digitsOnly = needle.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                for b in needle where !digitsOnly {
                    if let p = previous {
                        let (w, bit) = SearchIndex.pairBit(p, b)
                        if w == 0 { required.4 |= bit } else { required.5 |= bit }
                    }
                    previous = b
                }
            }
            digits = query.digits.map(SearchIndex.mask(of:))
            international = query.international.map(SearchIndex.mask(of:))
            maskIsAnswer =
                query.digits == nil && query.needles.count == 1 && query.needles[0].count == 1
                && SearchIndex.hasExactBit(query.needles[0][0])
        }

        /// Checks the planes the query needs (a plain one-letter query reads only the byte plane).
        @inline(__always)
        func mayMatch(_ r: Int, masks: UnsafeBufferPointer<UInt64>) -> Bool {
            let rows2 = masks.count / 3
            let m0 = masks[2 &* r]
            let m1 = masks[2 &* r &+ 1]
            if m0 & required.0 == required.0 && m1 & required.1 == required.1
                && (required.2 | required.3 == 0
                    || (masks[rows2 &+ 2 &* r] & required.2 == required.2
                        && masks[rows2 &+ 2 &* r &+ 1] & required.3 == required.3))
                && (required.4 | required.5 == 0
                    || (masks[2 &* rows2 &+ 2 &* r] & required.4 == required.4
                        && masks[2 &* rows2 &+ 2 &* r &+ 1] & required.5 == required.5))
            {
                return true
            }
            if let d = digits, m0 & d.0 == d.0 && m1 & d.1 == d.1 { return true }
            if let d = international { return m0 & d.0 == d.0 && m1 & d.1 == d.1 }
            return false
        }
    }

    func filter(_ candidates: [Int32], _ query: Query) -> [Int32] {
        candidates.withUnsafeBufferPointer { c in matching(count: c.count, candidates: c, query) }
    }

    /// Token boundaries for keyword search: field starts, spaces, and the `.`/`@`/`+` of emails.
    @inline(__always)
    static func isBoundary(_ byte: UInt8) -> Bool {
        byte == fieldSeparator || byte == 0x20 || byte == 0x2E || byte == 0x40 || byte == 0x2B || byte == 0x2D
            || byte == 0x5F
    }

    /// Whether the needle occurs in the row (at a token start when asked). Eight positions at a time: a
    /// word of the row is compared with the needle's first byte and the word one byte on with its second
    /// (exact per-byte equality, no borrow between bytes), and only positions where both agree are looked
    /// at; the last positions one by one. Rows are short, so this inline loop beats `memchr`/`memcmp`.
    @inline(__always)
    static func find(
        _ needle: UnsafePointer<UInt8>, _ count: Int, in start: UnsafePointer<UInt8>, _ length: Int, atTokenStart: Bool
    ) -> Bool {
        guard count > 0 else { return true }
        guard count <= length else { return false }
        let first = needle[0]
        let last = length - count
        @inline(__always) func matchesAt(_ i: Int) -> Bool {
            guard !atTokenStart || i == 0 || isBoundary(start[i - 1]) else { return false }
            var j = 1
            while j < count && start[i + j] == needle[j] { j += 1 }
            return j == count
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each byte of `w` that equals the byte whose every copy is `pattern`.
        @inline(__always) func equalBytes(_ w: UInt64, _ pattern: UInt64) -> UInt64 {
            let x = w ^ pattern
            return ~(((x & low7) &+ low7) | x | low7)
        }
        let firstPattern = UInt64(first) &* ones
        let secondPattern = count > 1 ? UInt64(needle[1]) &* ones : 0
        let raw = UnsafeRawPointer(start)
        var i = 0
        // Positions i…i+7 are all ≤ last, so the words at i and i+1 are inside the row.
        while i + 7 <= last {
            var hits = equalBytes(
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)), firstPattern)
            if count > 1 && hits != 0 {
                hits &= equalBytes(
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 1, as: UInt64.self)), secondPattern)
            }
            while hits != 0 {
                if matchesAt(i + hits.trailingZeroBitCount >> 3) { return true }
                hits &= hits &- 1
            }
            i += 8
        }
        while i <= last {
            if start[i] == first && matchesAt(i) { return true }
            i += 1
        }
        return false
    }
}

/// Keys of an index: an array built in this process, or a slice of a saved list's memory-mapped file
/// (kept mapped by `owner`).
struct KeyBuffer<Element>: @unchecked Sendable {
    private let array: [Element]
    private let mapped: UnsafeBufferPointer<Element>?
    private let owner: AnyObject?

    init(_ array: [Element]) {
        self.array = array
        mapped = nil
        owner = nil
    }

    init(mapped: UnsafeBufferPointer<Element>, owner: AnyObject) {
        array = []
        self.mapped = mapped
        self.owner = owner
    }

    var count: Int { mapped?.count ?? array.count }

    subscript(i: Int) -> Element { mapped.map { $0[i] } ?? array[i] }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if let mapped { return try body(mapped) }
        return try array.withUnsafeBufferPointer(body)
    }
}
