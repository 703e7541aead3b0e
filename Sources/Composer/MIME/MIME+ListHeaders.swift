// List-Unsubscribe (RFC 2369) and one-click unsubscription (RFC 8058)
extension MIME {
    /// The schemes a `List-Unsubscribe` URI may have: a web page (or one-click POST target) or a mail.
    static let unsubscribeSchemes: Set<String> = ["https", "http", "mailto"]

    /// `uri` as it goes between `<` and `>`: its scheme checked, then every octet a URI cannot hold (space,
    /// controls, non-ASCII as UTF-8, `<>"`, `,`, which RFC 2369 says must be encoded, and a `%` that does not
    /// start an escape such as `%20`) percent-encoded.
    static func listURI(_ uri: String) throws -> String {
        try checkHeaderInput(uri, field: "List-Unsubscribe")
        guard let colon = uri.firstIndex(of: ":"),
            unsubscribeSchemes.contains(uri[..<colon].lowercased()), uri.index(after: colon) < uri.endIndex
        else {
            throw ComposerError.invalidURI(uri, reason: "List-Unsubscribe takes https:, http: or mailto: URIs")
        }
        var out: [UInt8] = []
        let bytes = Array(uri.utf8)
        func isHex(_ i: Int) -> Bool {
            guard i < bytes.count else { return false }
            let b = bytes[i] | 0x20  // letters lowercased, digits unchanged
            return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66)
        }
        for (i, b) in bytes.enumerated() {
            let strayPercent = b == UInt8(ascii: "%") && !(isHex(i + 1) && isHex(i + 2))
            if b <= 0x20 || b >= 0x7F || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                || b == UInt8(ascii: "\"") || b == UInt8(ascii: ",") || strayPercent
            {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 15)])
            } else {
                out.append(b)
            }
        }
        // A header line holds at most 998 octets (RFC 5322 2.1.1); a URI is never folded inside.
        guard out.count <= 900 else {
            throw ComposerError.invalidURI(uri, reason: "longer than 900 octets, too long for a header line")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `List-Unsubscribe: <uri>, <uri>` folded between URIs, and `List-Unsubscribe-Post` when one is
    /// `https:` (RFC 8058 allows one-click only for HTTPS). Nothing for an empty list.
    static func appendListUnsubscribe(_ uris: [String], to out: inout [UInt8]) throws {
        guard !uris.isEmpty else { return }
        let encoded = try uris.map(listURI)
        out.append(contentsOf: "List-Unsubscribe:".utf8)
        var folder = Folder(lineLength: "List-Unsubscribe:".utf8.count)
        for (n, uri) in encoded.enumerated() {
            let token = Array(("<" + uri + ">" + (n == encoded.count - 1 ? "" : ",")).utf8)
            // A URI is never broken; a long first one starts on the next line rather than pass 78 octets.
            if n == 0 && folder.lineLength + 1 + token.count > 78 { folder.fold(to: &out) }
            folder.append(token, to: &out)
        }
        out.append(contentsOf: crlf)
        if encoded.contains(where: { $0.lowercased().hasPrefix("https:") }) {
            out.append(contentsOf: "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n".utf8)
        }
    }
}
