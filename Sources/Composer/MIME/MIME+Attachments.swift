// Attachments (RFC 2183 + RFC 2231, with the RFC 2047 `name` fallback)
extension MIME {
    static func isAttributeChar(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || "!#$&+-.^_`|~".utf8.contains(b)
    }

    /// Whether `name` can be written as a quoted-string as it is: short printable ASCII without `"` or `\`,
    /// and without `=?`, which readers would take for the start of an encoded-word (RFC 2047).
    static func isPlainFilename(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 40 else { return false }
        for (i, b) in bytes.enumerated() {
            guard b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") else { return false }
            if b == UInt8(ascii: "="), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "?") { return false }
        }
        return true
    }

    /// The RFC 2231 extended value of `name` (`UTF-8''` then %-encoded octets) in pieces of at most 56
    /// characters, each ending on a character boundary: readers decode each continuation on its own
    /// (Python's `email` does), so a UTF-8 sequence split between two would not decode.
    static func rfc2231Pieces(_ name: String) -> [[UInt8]] {
        let bytes = Array(name.utf8)
        var pieces: [[UInt8]] = []
        var current: [UInt8] = Array("UTF-8''".utf8)
        var i = 0
        while i < bytes.count {
            let end = min(i + utf8SequenceLength(bytes[i]), bytes.count)
            var encoded: [UInt8] = []
            for b in bytes[i..<end] {
                if isAttributeChar(b) {
                    encoded.append(b)
                } else {
                    encoded.append(UInt8(ascii: "%"))
                    encoded.append(hexDigits[Int(b >> 4)])
                    encoded.append(hexDigits[Int(b & 15)])
                }
            }
            if current.count + encoded.count > 56 && current.count > (pieces.isEmpty ? 7 : 0) {
                pieces.append(current)
                current = []
            }
            current.append(contentsOf: encoded)
            i = end
        }
        pieces.append(current)
        return pieces
    }

    /// The `name` parameter's value for readers that do not know RFC 2231 (as Thunderbird writes it): a
    /// quoted-string of B encoded-words, each of whole characters, one a line (` name="=?UTF-8?B?…?=`,
    /// then ` =?UTF-8?B?…?=`, the last closing the quotes): no line over 76 octets.
    static func appendEncodedNameParameter(_ name: String, to out: inout [UInt8]) {
        let bytes = Array(name.utf8)
        out.append(contentsOf: ";\r\n name=\"".utf8)
        var i = 0
        var first = true
        while i < bytes.count {
            var j = i
            while j < bytes.count {
                let end = min(j + utf8SequenceLength(bytes[j]), bytes.count)
                if end - i > 42 { break }  // 42 octets = 56 base64 characters
                j = end
            }
            if j == i { j = min(i + utf8SequenceLength(bytes[i]), bytes.count) }
            if !first { out.append(contentsOf: "\r\n ".utf8) }
            first = false
            out.append(contentsOf: "=?UTF-8?B?".utf8)
            Base64.append(bytes[i..<j], to: &out)
            out.append(contentsOf: "?=".utf8)
            i = j
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Writes the attachment's part: headers, then its content in base64 (a file is read now and let go
    /// after: ``Attachment/withBytes(_:)``).
    static func appendAttachment(_ attachment: Attachment, to out: inout [UInt8]) throws(ComposerError) {
        try attachment.withBytes { (data: UnsafeRawBufferPointer) throws(ComposerError) in
            appendAttachment(attachment, data: data, to: &out)
        }
    }

    static func appendAttachment(_ attachment: Attachment, data: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let name = attachment.filename
        let plain = isPlainFilename(name)
        let label = MediaType.label(attachment.mediaType, data: data)
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
        } else if !name.isEmpty {
            appendEncodedNameParameter(name, to: &out)
        }
        out.append(contentsOf: crlf)
        if let id = attachment.contentID {
            out.append(contentsOf: "Content-ID: <\(id)>\r\n".utf8)
        }
        out.append(contentsOf: "Content-Transfer-Encoding: base64\r\nContent-Disposition: ".utf8)
        out.append(contentsOf: (attachment.contentID == nil ? "attachment" : "inline").utf8)
        if plain {
            out.append(contentsOf: ";\r\n filename=\"".utf8)
            out.append(contentsOf: name.utf8)
            out.append(UInt8(ascii: "\""))
        } else if !name.isEmpty {
            let pieces = rfc2231Pieces(name)
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
        out.reserveCapacity(out.count + Base64.encodedLength(data.count, lineBreaks: true))
        Base64.appendLines(data, to: &out)
    }
}
