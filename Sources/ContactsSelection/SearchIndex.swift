import Collation
import ContactsCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `memmem`: the first occurrence of `needle` in `haystack`, found with `memchr` on its first byte and
/// `memcmp` on the rest (glibc's `memmem` is a GNU extension Swift does not import).
@inline(__always)
func byteSearch(_ haystack: UnsafeRawPointer?, _ count: Int, _ needle: UnsafeRawPointer?, _ needleCount: Int) -> UnsafeRawPointer? {
    guard let haystack, count >= needleCount else { return nil }
    guard let needle, needleCount > 0 else { return haystack }
    let first = Int32(needle.load(as: UInt8.self))
    var p = haystack
    var remaining = count
    while remaining >= needleCount {
        guard let hit = memchr(p, first, remaining - needleCount + 1) else { return nil }
        let found = UnsafeRawPointer(hit)
        if needleCount == 1 || memcmp(found + 1, needle + 1, needleCount - 1) == 0 { return found }
        let advance = p.distance(to: found) + 1
        p += advance
        remaining -= advance
    }
    return nil
}

/// Every row's search keys packed into one byte buffer, in list order. Fields of a row are separated by
/// 0x01: the folded display name ("zhang wei"), its compact form ("zhangwei"), Han initials ("zw"),
/// Hangul initial consonants ("ㅇㅅㅇ"), folded sort name, nickname and organization, lowercased emails,
/// and phone digits (as written, E.164 and national). A keystroke is then a `memmem` over bytes.
final class SearchIndex: Sendable {
    struct Fields {
        var contact: Contact
        var displayName: String
        var sortName: String
        var phones: [PhoneNumber]
    }

    static let fieldSeparator: UInt8 = 0x01

    let haystack: [UInt8]
    /// `rows + 1` offsets into `haystack`.
    let offsets: [Int32]
    let sectionOfRow: [UInt16]
    let sectionTitles: [String]
    let folding: SearchFolding

    init(rows: [Fields], sectionOfRow: [UInt16], sectionTitles: [String]) throws {
        folding = try SearchFolding()
        self.sectionOfRow = sectionOfRow
        self.sectionTitles = sectionTitles
        // Fold in parallel chunks, each with its own transliterators (they are not thread-safe).
        let chunkCount = rows.count >= 20_000 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) : 1
        let chunkSize = (rows.count + chunkCount - 1) / max(chunkCount, 1)
        nonisolated(unsafe) var chunks = [[UInt8]](repeating: [], count: chunkCount)
        nonisolated(unsafe) var chunkOffsets = [[Int32]](repeating: [], count: chunkCount)
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
                for i in lower..<upper {
                    offs.append(Int32(truncatingIfNeeded: bytes.count))
                    Self.append(rows[i], folding: local, to: &bytes)
                }
                lock.withLock {
                    chunks[chunk] = bytes
                    chunkOffsets[chunk] = offs
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
        self.haystack = haystack
        self.offsets = offsets
    }

    static func append(_ row: Fields, folding: SearchFolding, to bytes: inout [UInt8]) {
        func field(_ s: String) {
            guard !s.isEmpty else { return }
            bytes.append(fieldSeparator)
            bytes.append(contentsOf: s.utf8)
        }
        let keys = folding.keys(for: row.displayName)
        field(keys.folded)
        if keys.tokens.count > 1 { field(keys.compact) }
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
        for phone in row.phones {
            let raw = String(phone.raw.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
            field(raw)
            if let e164 = phone.e164 {
                let digits = String(e164.dropFirst())
                if digits != raw { field(digits) }
            }
            if phone.searchDigits != raw { field(phone.searchDigits) }
        }
        bytes.append(fieldSeparator)
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
        return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in byteSearch(pa.baseAddress, pa.count, pb.baseAddress, pb.count) != nil } }
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

    /// Full scan: the first needle is searched over the whole buffer at once; each hit is mapped to its
    /// row by walking the (sorted) offsets, then the rest of the query is checked within that row.
    func scanAll(_ query: Query) -> [Int32] {
        var result: [Int32] = []
        let rowCount = offsets.count - 1
        haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                guard let base = hay.baseAddress else { return }
                let primary = query.needles.first ?? query.digits ?? []
                primary.withUnsafeBufferPointer { needle in
                    var position = 0
                    var row = 0
                    while position < hay.count {
                        guard let hitPointer = byteSearch(base + position, hay.count - position, needle.baseAddress, needle.count) else { break }
                        let hit = base.distance(to: hitPointer.assumingMemoryBound(to: UInt8.self))
                        while row < rowCount && Int(off[row + 1]) <= hit { row += 1 }
                        if row >= rowCount { break }
                        if rowMatches(row, query, hay: hay, off: off) { result.append(Int32(row)) }
                        position = Int(off[row + 1])
                        row += 1
                    }
                }
                if query.digits != nil && !query.needles.isEmpty {
                    // Rows matched only through the digits branch (e.g. "(415) 555" vs "4155550100").
                    var merged = Set(result)
                    let digitQuery = Query(keywords: query.keywords, needles: [], digits: query.digits)
                    for row in 0..<rowCount where !merged.contains(Int32(row)) {
                        if rowMatches(row, digitQuery, hay: hay, off: off) { merged.insert(Int32(row)) }
                    }
                    result = merged.sorted()
                }
            }
        }
        return result
    }

    func filter(_ candidates: [Int32], _ query: Query) -> [Int32] {
        haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                candidates.filter { rowMatches(Int($0), query, hay: hay, off: off) }
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
        for needle in query.needles where !Self.find(needle, in: start, length, atTokenStart: query.keywords) {
            return false
        }
        return true
    }

    /// Token boundaries for keyword search: field starts, spaces, and the `.`/`@`/`+` of emails.
    @inline(__always)
    static func isBoundary(_ byte: UInt8) -> Bool {
        byte == fieldSeparator || byte == 0x20 || byte == 0x2E || byte == 0x40 || byte == 0x2B || byte == 0x2D || byte == 0x5F
    }

    @inline(__always)
    static func find(_ needle: [UInt8], in start: UnsafePointer<UInt8>, _ length: Int, atTokenStart: Bool) -> Bool {
        needle.withUnsafeBufferPointer { n in
            var from = 0
            while from < length {
                guard let p = byteSearch(start + from, length - from, n.baseAddress, n.count) else { return false }
                let at = start.distance(to: p.assumingMemoryBound(to: UInt8.self))
                if !atTokenStart || at == 0 || isBoundary(start[at - 1]) { return true }
                from = at + 1
            }
            return false
        }
    }
}
