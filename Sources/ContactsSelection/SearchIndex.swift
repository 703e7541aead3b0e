import Collation
import ContactsCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every row's search keys packed into one byte buffer, in list order. Fields of a row are separated by
/// 0x01: the folded display name ("zhang wei"), its compact form ("zhangwei"), Han initials ("zw"),
/// Hangul initial consonants ("ㅇㅅㅇ"), folded sort name, nickname and organization, lowercased emails,
/// and phone digits (as written, E.164 and national). A keystroke is then a `memmem` over bytes.
final class SearchIndex: Sendable {
    struct Fields {
        var contact: Contact
        var displayName: String
        var sortName: String
        var phones: [PhoneKey]
    }

    static let fieldSeparator: UInt8 = 0x01

    let haystack: [UInt8]
    /// `rows + 1` offsets into `haystack`.
    let offsets: [Int32]
    let sectionOfRow: [UInt16]
    let sectionTitles: [String]
    let folding: SearchFolding
    /// Per row, `maskStride` words: a 128-bit set of the bytes the row contains, of the bytes that start
    /// a token, and of its byte pairs (hashed). A scan tests these first and touches the row's bytes only
    /// when they can match; for a one-byte query of a letter or digit the byte set alone is the answer.
    let masks: [UInt64]
    static let maskStride = 6
    /// Per row, the length of its text part: letters never need to look at the phone digits after it.
    let textLengths: [Int32]

    init(rows: [Fields], sectionOfRow: [UInt16], sectionTitles: [String]) throws {
        folding = try SearchFolding()
        self.sectionOfRow = sectionOfRow
        self.sectionTitles = sectionTitles
        // Fold in parallel chunks, each with its own transliterators (they are not thread-safe).
        let chunkCount = rows.count >= 20_000 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) : 1
        let chunkSize = (rows.count + chunkCount - 1) / max(chunkCount, 1)
        nonisolated(unsafe) var chunks = [[UInt8]](repeating: [], count: chunkCount)
        nonisolated(unsafe) var chunkOffsets = [[Int32]](repeating: [], count: chunkCount)
        nonisolated(unsafe) var chunkTextLengths = [[Int32]](repeating: [], count: chunkCount)
        let mainFolding = folding
        nonisolated(unsafe) var failure: Error?
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let lower = chunk * chunkSize
            let upper = min(rows.count, lower + chunkSize)
            guard lower < upper else { return }
            do {
                let local = chunk == 0 ? mainFolding : try SearchFolding()
                var bytes: [UInt8] = []
                bytes.reserveCapacity((upper - lower) * 48)
                var offs: [Int32] = []
                offs.reserveCapacity(upper - lower)
                var textLengths: [Int32] = []
                textLengths.reserveCapacity(upper - lower)
                for i in lower..<upper {
                    offs.append(Int32(truncatingIfNeeded: bytes.count))
                    textLengths.append(Self.append(rows[i], folding: local, to: &bytes))
                }
                lock.withLock {
                    chunks[chunk] = bytes
                    chunkOffsets[chunk] = offs
                    chunkTextLengths[chunk] = textLengths
                }
            } catch {
                lock.withLock { failure = error }
            }
        }
        if let failure { throw failure }
        var haystack: [UInt8] = []
        haystack.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        var offsets: [Int32] = []
        offsets.reserveCapacity(rows.count + 1)
        for (bytes, offs) in zip(chunks, chunkOffsets) {
            let base = Int32(haystack.count)
            for o in offs { offsets.append(base + o) }
            haystack.append(contentsOf: bytes)
        }
        offsets.append(Int32(haystack.count))
        masks = Self.buildMasks(haystack, offsets)
        self.haystack = haystack
        self.offsets = offsets
        textLengths = chunkTextLengths.flatMap { $0 }
    }

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

    static func buildMasks(_ haystack: [UInt8], _ offsets: [Int32]) -> [UInt64] {
        let rows = offsets.count - 1
        var masks = [UInt64](repeating: 0, count: rows * maskStride)
        haystack.withUnsafeBufferPointer { hay in
            masks.withUnsafeMutableBufferPointer { out in
                for r in 0..<rows {
                    var m: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
                    var previous: UInt8 = fieldSeparator
                    for i in Int(offsets[r])..<Int(offsets[r + 1]) {
                        let b = hay[i]
                        let (w, bit) = maskBit(b)
                        if w == 0 { m.0 |= bit } else { m.1 |= bit }
                        if isBoundary(previous) && !isBoundary(b) {
                            if w == 0 { m.2 |= bit } else { m.3 |= bit }
                        }
                        let (pw, pbit) = pairBit(previous, b)
                        if pw == 0 { m.4 |= pbit } else { m.5 |= pbit }
                        previous = b
                    }
                    let base = r * maskStride
                    out[base] = m.0
                    out[base + 1] = m.1
                    out[base + 2] = m.2
                    out[base + 3] = m.3
                    out[base + 4] = m.4
                    out[base + 5] = m.5
                }
            }
        }
        return masks
    }

    /// The mask a row must contain for `needle` to occur in it.
    static func mask(of needle: [UInt8]) -> (UInt64, UInt64) {
        var m0: UInt64 = 0, m1: UInt64 = 0
        for b in needle {
            let (w, bit) = maskBit(b)
            if w == 0 { m0 |= bit } else { m1 |= bit }
        }
        return (m0, m1)
    }

    /// Appends a row's fields; returns the length of its text part (everything before the phone digits).
    @discardableResult
    static func append(_ row: Fields, folding: SearchFolding, to bytes: inout [UInt8]) -> Int32 {
        let rowStart = bytes.count
        func field(_ s: String) {
            guard !s.isEmpty else { return }
            bytes.append(fieldSeparator)
            bytes.append(contentsOf: s.utf8)
        }
        let keys = folding.keys(for: row.displayName)
        field(keys.folded)
        if keys.tokens.count > 1 && !keys.initials.isEmpty { field(keys.compact) }
        field(keys.initials)
        field(keys.hangulInitials)
        let c = row.contact
        if row.sortName != row.displayName {
            let sortKeys = folding.keys(for: row.sortName)
            field(sortKeys.folded)
            field(sortKeys.hangulInitials)
        }
        if !c.nickname.isEmpty { field(folding.fold(c.nickname)) }
        if !c.organization.isEmpty { field(folding.fold(c.organization)) }
        for email in c.emails { field(email.value.lowercased()) }
        let textLength = Int32(bytes.count - rowStart + 1)  // with the separator that ends the text part
        for phone in row.phones {
            for digits in phone.searchDigits { field(digits) }
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
        var matchesEverything: Bool { needles.isEmpty && digits == nil }
    }

    func parse(_ text: String, keywords: Bool) -> Query {
        if SearchFolding.isHangulInitialsQuery(text) {
            let jamo = text.unicodeScalars.filter { !$0.properties.isWhitespace }
            let s = String(String.UnicodeScalarView(jamo))
            return Query(keywords: keywords, needles: [Array(s.utf8)], digits: nil)
        }
        let folded = folding.fold(text)
        let hasLetters = text.unicodeScalars.contains { $0.properties.isAlphabetic }
        let digitBytes = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
        let digits = !hasLetters && !digitBytes.isEmpty ? Array(digitBytes) : nil
        if folded.isEmpty { return Query(keywords: keywords, needles: [], digits: digits) }
        if !keywords && text.contains("@") {
            // An email address: compare as written (emails are indexed lowercased, not folded).
            let raw = text.trimmingCharacters(in: .whitespaces).lowercased()
            return Query(keywords: false, needles: [Array(raw.utf8)], digits: nil)
        }
        let needles = keywords ? folded.split(separator: " ").map { Array($0.utf8) } : [Array(folded.utf8)]
        return Query(keywords: keywords, needles: needles, digits: digits)
    }

    /// True when every row matching `narrower` also matches `wider` (so `wider`'s result can be filtered).
    static func narrows(_ narrower: Query, _ wider: Query) -> Bool {
        guard narrower.keywords == wider.keywords else { return false }
        if wider.matchesEverything { return true }
        if let wd = wider.digits {
            // Digit queries: the new digits must extend the old ones, and the text must as well.
            guard let nd = narrower.digits, contains(nd, wd) else { return false }
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
        return a.withUnsafeBufferPointer { pa in find(b, in: pa.baseAddress!, pa.count, atTokenStart: false) }
    }

    func search(_ text: String, keywords: Bool, previous: SearchResult?) -> SearchResult {
        let query = parse(text, keywords: keywords)
        let rowCount = offsets.count - 1
        var numbers: [Int32]
        if query.matchesEverything {
            numbers = Array(0..<Int32(rowCount))
        } else if let previous, let previousQuery = previous.parsed, Self.narrows(query, previousQuery) {
            numbers = filter(previous.rowNumbers, query)
        } else {
            numbers = scanAll(query)
        }
        return SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: query)
    }

    /// Groups result rows (in list order) into runs of the same section.
    func sectionRuns(_ numbers: [Int32]) -> [RowSection] {
        var sections: [RowSection] = []
        var start = 0
        while start < numbers.count {
            let s = sectionOfRow[Int(numbers[start])]
            var end = start + 1
            while end < numbers.count && sectionOfRow[Int(numbers[end])] == s { end += 1 }
            sections.append(RowSection(title: sectionTitles[Int(s)], range: start..<end))
            start = end
        }
        return sections
    }

    /// Full scan over every row: the row masks rule most rows out with two AND operations; only rows
    /// that may match are searched byte by byte.
    func scanAll(_ query: Query) -> [Int32] {
        let rowCount = offsets.count - 1
        let prefilter = Prefilter(query)
        var result: [Int32] = []
        haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                masks.withUnsafeBufferPointer { masks in
                    for r in 0..<rowCount where prefilter.mayMatch(r, masks: masks) {
                        if prefilter.maskIsAnswer || rowMatches(r, query, hay: hay, off: off) { result.append(Int32(r)) }
                    }
                }
            }
        }
        return result
    }

    /// The masks a row must have for a query to match it.
    struct Prefilter {
        /// Bytes, token-start bytes, byte pairs (as in a row's mask words).
        var required: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var digits: (UInt64, UInt64)?
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
                for b in needle {
                    if let p = previous {
                        let (w, bit) = SearchIndex.pairBit(p, b)
                        if w == 0 { required.4 |= bit } else { required.5 |= bit }
                    }
                    previous = b
                }
            }
            digits = query.digits.map(SearchIndex.mask(of:))
            maskIsAnswer = query.digits == nil && query.needles.count == 1 && query.needles[0].count == 1
                && SearchIndex.hasExactBit(query.needles[0][0])
        }

        @inline(__always)
        func mayMatch(_ r: Int, masks: UnsafeBufferPointer<UInt64>) -> Bool {
            let base = r &* SearchIndex.maskStride
            let m0 = masks[base], m1 = masks[base &+ 1]
            if m0 & required.0 == required.0 && m1 & required.1 == required.1
                && masks[base &+ 2] & required.2 == required.2 && masks[base &+ 3] & required.3 == required.3
                && masks[base &+ 4] & required.4 == required.4 && masks[base &+ 5] & required.5 == required.5
            {
                return true
            }
            if let d = digits { return m0 & d.0 == d.0 && m1 & d.1 == d.1 }
            return false
        }
    }

    func filter(_ candidates: [Int32], _ query: Query) -> [Int32] {
        let prefilter = Prefilter(query)
        return haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                masks.withUnsafeBufferPointer { masks in
                    candidates.filter { r in
                        let row = Int(r)
                        guard prefilter.mayMatch(row, masks: masks) else { return false }
                        return prefilter.maskIsAnswer || rowMatches(row, query, hay: hay, off: off)
                    }
                }
            }
        }
    }

    @inline(__always)
    func rowMatches(_ row: Int, _ query: Query, hay: UnsafeBufferPointer<UInt8>, off: UnsafeBufferPointer<Int32>) -> Bool {
        let start = hay.baseAddress! + Int(off[row])
        let length = Int(off[row + 1] - off[row])
        if let digits = query.digits, Self.find(digits, in: start, length, atTokenStart: false) {
            return true
        }
        if query.needles.isEmpty { return query.digits == nil }
        let textLength = Int(textLengths[row])
        for needle in query.needles {
            let isDigits = needle.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            if !Self.find(needle, in: start, isDigits ? length : textLength, atTokenStart: query.keywords) { return false }
        }
        return true
    }

    /// Token boundaries for keyword search: field starts, spaces, and the `.`/`@`/`+` of emails.
    @inline(__always)
    static func isBoundary(_ byte: UInt8) -> Bool {
        byte == fieldSeparator || byte == 0x20 || byte == 0x2E || byte == 0x40 || byte == 0x2B || byte == 0x2D || byte == 0x5F
    }

    /// Whether `needle` occurs in the row (at a token start when asked). Rows are short, so a plain
    /// inline loop beats calling `memchr`/`memcmp` per row.
    @inline(__always)
    static func find(_ needle: [UInt8], in start: UnsafePointer<UInt8>, _ length: Int, atTokenStart: Bool) -> Bool {
        needle.withUnsafeBufferPointer { n in
            let count = n.count
            guard count > 0 else { return true }
            guard count <= length else { return false }
            let first = n[0]
            var i = 0
            let last = length - count
            while i <= last {
                if start[i] == first && (!atTokenStart || i == 0 || isBoundary(start[i - 1])) {
                    var j = 1
                    while j < count && start[i + j] == n[j] { j += 1 }
                    if j == count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
