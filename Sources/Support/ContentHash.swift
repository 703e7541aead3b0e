import Foundation

/// XXH64 (Yann Collet's xxHash, 64-bit, seed 0): a non-cryptographic hash of bytes at memory speed
/// (four independent multiply chains over 32-byte stripes). Fed in pieces of any size, it gives the value
/// of the whole input at once, as the reference implementation does. A checksum, not a cryptographic hash:
/// it tells a changed file or a damaged index, not a forged one.
///
/// ```swift
/// var hash = ContentHash()
/// hash.add(Array("abc".utf8))
/// hash.value   // 0x44BC2CF5AD770999
/// ```
package struct ContentHash: Sendable {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var v1: UInt64 = p1 &+ p2
    private var v2: UInt64 = p2
    private var v3: UInt64 = 0
    private var v4: UInt64 = 0 &- p1
    /// Bytes added so far.
    private var length: UInt64 = 0
    /// Bytes of an unfinished stripe (fewer than 32).
    private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var pendingCount = 0

    package init() {}

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    /// Adds bytes.
    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let n = bytes.count
        length &+= UInt64(n)
        var i = 0
        if pendingCount > 0 {
            let take = min(32 - pendingCount, n)
            withUnsafeMutableBytes(of: &pending) { p in
                p.baseAddress!.advanced(by: pendingCount).copyMemory(from: base, byteCount: take)
            }
            pendingCount += take
            i = take
            guard pendingCount == 32 else { return }
            withUnsafeBytes(of: pending) { stripes(UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
            pendingCount = 0
        }
        let whole = (n - i) / 32 * 32
        if whole > 0 { stripes(UnsafeRawBufferPointer(start: base + i, count: whole)) }
        i += whole
        if i < n {
            withUnsafeMutableBytes(of: &pending) { p in
                p.baseAddress!.copyMemory(from: base + i, byteCount: n - i)
            }
            pendingCount = n - i
        }
    }

    /// Adds bytes.
    package mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    /// Adds a number (its 8 bytes, little-endian).
    package mutating func add(_ word: UInt64) { withUnsafeBytes(of: word.littleEndian) { add($0) } }

    /// Whole 32-byte stripes (`bytes.count` is a multiple of 32), in one loop over registers.
    private mutating func stripes(_ bytes: UnsafeRawBufferPointer) {
        var (a, b, c, d) = (v1, v2, v3, v4)
        var i = 0
        let n = bytes.count
        while i < n {
            a = Self.round(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            b = Self.round(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)))
            c = Self.round(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)))
            d = Self.round(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)))
            i += 32
        }
        (v1, v2, v3, v4) = (a, b, c, d)
    }

    /// The hash of everything added.
    package var value: UInt64 {
        var h: UInt64
        if length >= 32 {
            h = Self.rotl(v1, 1) &+ Self.rotl(v2, 7) &+ Self.rotl(v3, 12) &+ Self.rotl(v4, 18)
            h = Self.merge(h, v1)
            h = Self.merge(h, v2)
            h = Self.merge(h, v3)
            h = Self.merge(h, v4)
        } else {
            h = Self.p5
        }
        h &+= length
        withUnsafeBytes(of: pending) { raw in
            let tail = UnsafeRawBufferPointer(rebasing: raw[0..<pendingCount])
            var i = 0
            while i + 8 <= tail.count {
                let k = Self.round(0, UInt64(littleEndian: tail.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                h = Self.rotl(h ^ k, 27) &* Self.p1 &+ Self.p4
                i += 8
            }
            if i + 4 <= tail.count {
                let k = UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
                h = Self.rotl(h ^ (k &* Self.p1), 23) &* Self.p2 &+ Self.p3
                i += 4
            }
            while i < tail.count {
                h = Self.rotl(h ^ (UInt64(tail[i]) &* Self.p5), 11) &* Self.p1
                i += 1
            }
        }
        h ^= h >> 33
        h &*= Self.p2
        h ^= h >> 29
        h &*= Self.p3
        h ^= h >> 32
        return h
    }

    /// The hash of every byte of the open file `fd` from its current offset to its end, read in 1 MiB
    /// pieces, and the number of bytes read; nil with `errno` set when a read fails.
    ///
    /// ```swift
    /// let fd = open("book.vcf", O_RDONLY)
    /// let (hash, bytes) = ContentHash.ofFile(fd)!
    /// ```
    package static func ofFile(_ fd: Int32) -> (hash: UInt64, bytes: UInt64)? {
        var hasher = ContentHash()
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let got = read(fd, buffer, size)
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { return (hasher.value, hasher.length) }
            hasher.add(UnsafeRawBufferPointer(start: buffer, count: got))
        }
    }
}
