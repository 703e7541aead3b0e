import Foundation

/// Letter-pair bitsets: the rows that hold each pair of letters a–z, a query's candidates without a scan.
extension SearchIndex {
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
}
