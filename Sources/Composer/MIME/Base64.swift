/// RFC 4648 base64.
enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encodedLength(_ count: Int, lineBreaks: Bool) -> Int {
        let chars = (count + 2) / 3 * 4
        return lineBreaks ? chars + (chars + 75) / 76 * 2 : chars
    }

    static func append<C: Collection<UInt8>>(_ data: C, to out: inout [UInt8]) where C.Index == Int {
        var i = data.startIndex
        let end = data.endIndex
        while i + 2 < end {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(alphabet[Int((v >> 6) & 63)])
            out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = end - i
        if rest == 1 {
            let v = UInt32(data[i]) << 16
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(61)
            out.append(61)
        } else if rest == 2 {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(alphabet[Int((v >> 6) & 63)])
            out.append(61)
        }
    }

    /// Base64 in 76-character lines, each ending in CRLF.
    static func appendLines<C: Collection<UInt8>>(_ data: C, to out: inout [UInt8]) where C.Index == Int {
        var i = data.startIndex
        while i < data.endIndex {
            let end = min(i + 57, data.endIndex)
            append(data[i..<end], to: &out)
            out.append(13)
            out.append(10)
            i = end
        }
    }

    /// Base64 in 76-character lines, each ending in CRLF, written through pointers into room made once
    /// (an attachment of megabytes: no per-byte append).
    static func appendLines(_ data: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard let input = data.baseAddress, !data.isEmpty else { return }
        let start = out.count
        let count = data.count
        out.append(contentsOf: repeatElement(0, count: encodedLength(count, lineBreaks: true)))
        alphabet.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { buffer in
                let bytes = input.assumingMemoryBound(to: UInt8.self)
                var o = buffer.baseAddress! + start
                var i = 0
                while i < count {
                    let lineEnd = min(i + 57, count)
                    while i + 2 < lineEnd {
                        let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                        o[0] = table[Int(v >> 18)]
                        o[1] = table[Int((v >> 12) & 63)]
                        o[2] = table[Int((v >> 6) & 63)]
                        o[3] = table[Int(v & 63)]
                        o += 4
                        i += 3
                    }
                    let rest = lineEnd - i
                    if rest > 0 {
                        let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                        o[0] = table[Int(v >> 18)]
                        o[1] = table[Int((v >> 12) & 63)]
                        o[2] = rest == 2 ? table[Int((v >> 6) & 63)] : 61
                        o[3] = 61
                        o += 4
                        i = lineEnd
                    }
                    o[0] = 13
                    o[1] = 10
                    o += 2
                }
            }
        }
    }
}
