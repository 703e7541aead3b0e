/// The renderer's output: a growable byte buffer written through a pointer (no per-append checks of
/// uniqueness or generic sequence copying).
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }
    var capacityBytes: Int { capacity }
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
    var array: [UInt8] { Array(bytes) }
    var last: UInt8? { count > 0 ? base[count - 1] : nil }

    @inline(__always) func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count &+ extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        reserve(n)
        (base + count).update(from: source, count: n)
        count &+= n
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends with `& < > " '` written as entities.
    @inline(__always) func appendHTMLEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        reserve(n &* 6)
        var o = base + count
        for i in 0..<n {
            let b = source[i]
            // Only these five bytes are below '?' and special: & (26) < (3C) > (3E) " (22) ' (27)
            if b > 0x3E || (b != 0x26 && b != 0x3C && b != 0x3E && b != 0x22 && b != 0x27) {
                o.pointee = b
                o += 1
                continue
            }
            switch b {
            case 0x26: o.write5(0x26, 0x61, 0x6D, 0x70, 0x3B)  // &amp;
            case 0x3C: o.write4(0x26, 0x6C, 0x74, 0x3B)  // &lt;
            case 0x3E: o.write4(0x26, 0x67, 0x74, 0x3B)  // &gt;
            case 0x22: o.write6(0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B)  // &quot;
            default: o.write5(0x26, 0x23, 0x33, 0x39, 0x3B)  // &#39;
            }
        }
        count = o - base
    }

    /// Appends with every byte but RFC 3986's unreserved ones (`A–Z a–z 0–9 - . _ ~`) written as `%XX`
    /// (upper-case hex, UTF-8 bytes): a value that fits any part of a URI and ends none.
    func appendPercentEncoded(_ bytes: UnsafeBufferPointer<UInt8>) {
        let hex = Array("0123456789ABCDEF".utf8)
        reserve(bytes.count &* 3)
        var o = base + count
        for b in bytes {
            let unreserved =
                (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved {
                o.pointee = b
                o += 1
            } else {
                o.pointee = 0x25
                o[1] = hex[Int(b >> 4)]
                o[2] = hex[Int(b & 15)]
                o += 3
            }
        }
        count = o - base
    }

    /// Writes the decimal digits of `n` (and a leading '-') into `total` reserved bytes.
    @inline(__always) func writeDigits(n: inout UInt, total: Int, negative: Bool) {
        var i = count &+ total
        repeat {
            i &-= 1
            base[i] = UInt8(truncatingIfNeeded: 0x30 &+ n % 10)
            n /= 10
        } while n > 0
        if negative { base[count] = 0x2D }
        count &+= total
    }

    func reset() { count = 0 }

    /// Replaces everything from `start` on.
    func replace(from start: Int, with bytes: [UInt8]) {
        count = start
        append(bytes)
    }
}

extension UnsafeMutablePointer where Pointee == UInt8 {
    @inline(__always) mutating func write4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        self[0] = a
        self[1] = b
        self[2] = c
        self[3] = d
        self += 4
    }
    @inline(__always) mutating func write5(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8) {
        self[0] = a
        self[1] = b
        self[2] = c
        self[3] = d
        self[4] = e
        self += 5
    }
    @inline(__always) mutating func write6(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, _ f: UInt8) {
        self[0] = a
        self[1] = b
        self[2] = c
        self[3] = d
        self[4] = e
        self[5] = f
        self += 6
    }
}
