/// RFC 2045 quoted-printable on CRLF-normalized input: lines ≤ 76 octets with soft breaks, trailing
/// whitespace encoded, `=XX` never split.
enum QuotedPrintable {
    static func append(_ body: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + body.count + body.count / 4)
        walk(body) { b, literal, softBreak in
            if softBreak {
                out.append(61)
                out.append(13)
                out.append(10)
            }
            if literal {
                out.append(b)
            } else {
                out.append(61)
                out.append(MIME.hexDigits[Int(b >> 4)])
                out.append(MIME.hexDigits[Int(b & 15)])
            }
        } lineBreak: {
            out.append(13)
            out.append(10)
        }
    }

    /// The length `append` would produce, without producing it.
    static func encodedLength(_ body: [UInt8]) -> Int {
        var n = 0
        walk(body) { _, literal, softBreak in
            n += (literal ? 1 : 3) + (softBreak ? 3 : 0)
        } lineBreak: {
            n += 2
        }
        return n
    }

    /// Drives encoding: for each input octet, whether it stays literal and whether a soft break precedes it.
    @inline(__always)
    static func walk(_ body: [UInt8], octet: (UInt8, Bool, Bool) -> Void, lineBreak: () -> Void) {
        var lineLength = 0
        var i = 0
        let n = body.count
        while i < n {
            let b = body[i]
            if b == 13 && i + 1 < n && body[i + 1] == 10 {
                lineBreak()
                lineLength = 0
                i += 2
                continue
            }
            let atLineEnd = i + 1 == n || (body[i + 1] == 13 && i + 2 < n && body[i + 2] == 10)
            let literal: Bool
            if b == 0x20 || b == 0x09 {
                literal = !atLineEnd
            } else {
                literal = b >= 33 && b <= 126 && b != 61
            }
            let cost = literal ? 1 : 3
            // Keep room for a soft break '=' unless this is the last thing on the line.
            let limit = atLineEnd ? 76 : 75
            let soft = lineLength + cost > limit
            if soft { lineLength = 0 }
            octet(b, literal, soft)
            lineLength += cost
            i += 1
        }
    }
}
