// Attachments (RFC 2183 + RFC 2231)
extension MIME {
    static func isAttributeChar(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || "!#$&+-.^_`|~".utf8.contains(b)
    }

    static func appendAttachment(_ attachment: Attachment, to out: inout [UInt8]) {
        let name = attachment.filename
        let plain =
            !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        let label = MediaType.label(attachment.mediaType, data: attachment.data)
        out.append(contentsOf: "Content-Type: ".utf8)
        out.append(contentsOf: label.type.utf8)
        if let charset = label.charset {
            out.append(contentsOf: "; charset=".utf8)
            out.append(contentsOf: charset.utf8)
        }
        if plain {
            out.append(contentsOf: ";\r\n name=\"".utf8)
            out.append(contentsOf: name.utf8)
            out.append(UInt8(ascii: "\""))
        }
        out.append(contentsOf: crlf)
        out.append(contentsOf: "Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment".utf8)
        if plain {
            out.append(contentsOf: ";\r\n filename=\"".utf8)
            out.append(contentsOf: name.utf8)
            out.append(UInt8(ascii: "\""))
        } else if !name.isEmpty {
            // RFC 2231 extended value, split into continuations of ≤ 78-octet lines, never inside a %XX.
            var pieces: [[UInt8]] = []
            var current: [UInt8] = Array("UTF-8''".utf8)
            for b in name.utf8 {
                let encodedLength = isAttributeChar(b) ? 1 : 3
                if current.count + encodedLength > 56 {
                    pieces.append(current)
                    current = []
                }
                if isAttributeChar(b) {
                    current.append(b)
                } else {
                    current.append(UInt8(ascii: "%"))
                    current.append(hexDigits[Int(b >> 4)])
                    current.append(hexDigits[Int(b & 15)])
                }
            }
            pieces.append(current)
            if pieces.count == 1 {
                out.append(contentsOf: ";\r\n filename*=".utf8)
                out.append(contentsOf: pieces[0])
            } else {
                for (i, piece) in pieces.enumerated() {
                    out.append(contentsOf: ";\r\n filename*\(i)*=".utf8)
                    out.append(contentsOf: piece)
                }
            }
        }
        out.append(contentsOf: "\r\n\r\n".utf8)
        Base64.appendLines(attachment.data, to: &out)
    }
}
