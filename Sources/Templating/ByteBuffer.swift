import Support

/// The renderer's output: Support's growable buffer (`CheckedBuffer`) of bytes, with the renderer's
/// escaping writers, which write through a pointer (no per-append checks of uniqueness or generic sequence
/// copying). The one owner of its memory: freed when the renderer lets go.
final class ByteBuffer {
    private var storage: CheckedBuffer<UInt8>

    init(capacity: Int = 1024) {
        storage = CheckedBuffer(capacity: max(capacity, 64))
    }

    deinit { storage.deallocate() }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    var capacityBytes: Int { storage.capacity }
    var bytes: UnsafeBufferPointer<UInt8> { storage.all }
    var array: [UInt8] { Array(storage.all) }
    var last: UInt8? { storage.isEmpty ? nil : storage[storage.count - 1] }

    @inline(__always) func reserve(_ extra: Int) {
        storage.reserveCapacity(storage.count &+ extra)
    }

    @inline(__always) func append(_ byte: UInt8) {
        storage.append(byte)
    }

    @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends with `& < > " '` written as entities.
    @inline(__always) func appendHTMLEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        storage.append(upTo: n &* 6) { start in
            var o = start
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
            return o - start
        }
    }

    /// Appends with every byte but RFC 3986's unreserved ones (`A–Z a–z 0–9 - . _ ~`) written as `%XX`
    /// (upper-case hex, UTF-8 bytes): a value that fits any part of a URI and ends none.
    func appendPercentEncoded(_ bytes: UnsafeBufferPointer<UInt8>) {
        let hex = Array("0123456789ABCDEF".utf8)
        storage.append(upTo: bytes.count &* 3) { start in
            var o = start
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
            return o - start
        }
    }

    /// Writes the decimal digits of `n` (and a leading '-') into the next `total` bytes.
    @inline(__always) func writeDigits(n: inout UInt, total: Int, negative: Bool) {
        var value = n
        storage.append(upTo: total) { start in
            var i = total
            repeat {
                i &-= 1
                start[i] = UInt8(truncatingIfNeeded: 0x30 &+ value % 10)
                value /= 10
            } while value > 0
            if negative { start[0] = 0x2D }
            return total
        }
        n = value
    }

    func reset() { storage.removeAll() }

    /// Replaces everything from `start` on.
    func replace(from start: Int, with bytes: [UInt8]) {
        storage.removeLast(storage.count - start)
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
