import Collation
import Foundation

/// Building the index: a row's fields as bytes and its row masks.
extension SearchIndex {
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
}
