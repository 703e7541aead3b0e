import Foundation
import Synchronization

/// Scanning rows: the row-mask prefilter, parallel parts and the byte search.
extension SearchIndex {
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
