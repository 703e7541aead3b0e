// Bodies: line ends, transfer encodings, text and multipart entities (RFC 2045, 2046)
extension MIME {
    /// UTF-8 bytes with every line break (CRLF, CR, LF) turned into CRLF.
    static func normalizedLines(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        var previousCR = false
        for b in text.utf8 {
            if b == 13 {
                out.append(13)
                out.append(10)
                previousCR = true
                continue
            }
            if b == 10 {
                if !previousCR {
                    out.append(13)
                    out.append(10)
                }
                previousCR = false
                continue
            }
            previousCR = false
            out.append(b)
        }
        return out
    }

    /// 7bit when ASCII without NUL, lines ≤ 76 octets, and no "=_" — the start of every boundary this
    /// writer makes, so that no body line can ever be read as a delimiter (such a body goes out as
    /// quoted-printable, where "=" is "=3D").
    static func is7bitSafe(_ body: [UInt8]) -> Bool {
        var lineLength = 0
        var previous: UInt8 = 0
        for b in body {
            defer { previous = b }
            if b >= 0x80 || b == 0 { return false }
            if previous == UInt8(ascii: "=") && b == UInt8(ascii: "_") { return false }
            if b == 13 { continue }
            if b == 10 {
                lineLength = 0
                continue
            }
            lineLength += 1
            if lineLength > 76 { return false }
        }
        return true
    }

    enum TransferEncoding: String {
        case sevenBit = "7bit"
        case quotedPrintable = "quoted-printable"
        case base64
    }

    /// The smallest transfer encoding for a CRLF-normalized body: 7bit when allowed, else quoted-printable
    /// or base64.
    static func chooseEncoding(_ body: [UInt8]) -> TransferEncoding {
        if is7bitSafe(body) { return .sevenBit }
        return QuotedPrintable.encodedLength(body) > Base64.encodedLength(body.count, lineBreaks: true)
            ? .base64 : .quotedPrintable
    }

    static func appendTextPart(_ body: [UInt8], subtype: String, to out: inout [UInt8]) {
        let cte = chooseEncoding(body)
        out.append(contentsOf: "Content-Type: text/".utf8)
        out.append(contentsOf: subtype.utf8)
        out.append(contentsOf: "; charset=utf-8\r\nContent-Transfer-Encoding: ".utf8)
        out.append(contentsOf: cte.rawValue.utf8)
        out.append(contentsOf: "\r\n\r\n".utf8)
        switch cte {
        case .sevenBit: out.append(contentsOf: body)
        case .quotedPrintable: QuotedPrintable.append(body, to: &out)
        case .base64: Base64.appendLines(body, to: &out)
        }
    }

    static func appendMultipartHeader(_ subtype: String, boundary: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: "Content-Type: multipart/".utf8)
        out.append(contentsOf: subtype.utf8)
        out.append(contentsOf: ";\r\n boundary=\"".utf8)
        out.append(contentsOf: boundary)
        out.append(contentsOf: "\"\r\n".utf8)
    }

    static func appendBoundary(_ boundary: [UInt8], closing: Bool = false, to out: inout [UInt8]) {
        out.append(contentsOf: "--".utf8)
        out.append(contentsOf: boundary)
        if closing { out.append(contentsOf: "--".utf8) }
        out.append(contentsOf: crlf)
    }
}
