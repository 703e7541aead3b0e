import Foundation

/// A message as it arrives (a bounce, an unsubscribe request), read with limits for what bounce handling
/// needs: header fields (unfolded; encoded words left as they are), the body, and the parts of a
/// multipart body (at most ``maximumDepth`` levels and ``maximumParts`` parts). Line ends may be CRLF or LF.
struct ReceivedMail {
    static let maximumDepth = 8
    static let maximumParts = 200

    var headers: [(name: String, value: String)]
    var body: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        var headers: [(name: String, value: String)] = []
        var i = bytes.startIndex
        var current: (name: String, value: String)?
        while i < bytes.endIndex {
            var end = bytes[i...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let next = end < bytes.endIndex ? end + 1 : end
            if end > i && bytes[end - 1] == 0x0D { end -= 1 }
            let line = bytes[i..<end]
            i = next
            if line.isEmpty { break }
            if line.first == 0x20 || line.first == 0x09 {
                current?.value += " " + String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                continue
            }
            if let field = current { headers.append(field) }
            current = nil
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            current = (
                String(decoding: line[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased(),
                String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            )
        }
        if let field = current { headers.append(field) }
        self.headers = headers
        body = bytes[i...]
    }

    /// The first field `name` (any case).
    func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The media type, lower-cased, without parameters (`text/plain` when there is none).
    var mediaType: String {
        guard let value = header("Content-Type") else { return "text/plain" }
        return String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A parameter of `Content-Type` (`boundary`, `report-type`), unquoted.
    func contentTypeParameter(_ name: String) -> String? {
        guard let value = header("Content-Type") else { return nil }
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var v = pair[1].trimmingCharacters(in: .whitespaces)
            if v.count >= 2 && v.hasPrefix("\"") && v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
            return v
        }
        return nil
    }

    /// The parts of a multipart body, depth first (a multipart part's own parts in place of it), up to the
    /// limits; a single-part message is its own only part.
    func leafParts(depth: Int = 0) -> [ReceivedMail] {
        guard mediaType.hasPrefix("multipart/"), depth < Self.maximumDepth,
            let boundary = contentTypeParameter("boundary"),
            !boundary.isEmpty
        else { return [self] }
        var parts: [ReceivedMail] = []
        let delimiter = Array(("--" + boundary).utf8)
        var starts: [Int] = []
        var i = body.startIndex
        while i < body.endIndex {
            let lineEnd = body[i...].firstIndex(of: 0x0A) ?? body.endIndex
            if body[i..<lineEnd].starts(with: delimiter) { starts.append(i) }
            i = lineEnd < body.endIndex ? lineEnd + 1 : lineEnd
        }
        for (k, start) in starts.enumerated() where k + 1 < starts.count {
            guard let lineEnd = body[start...].firstIndex(of: 0x0A) else { break }
            var end = starts[k + 1]
            // The line break before a delimiter belongs to the delimiter.
            if end > lineEnd + 1 && body[end - 1] == 0x0A { end -= 1 }
            if end > lineEnd + 1 && body[end - 1] == 0x0D { end -= 1 }
            let part = ReceivedMail(body[(lineEnd + 1)..<max(lineEnd + 1, end)])
            parts += part.leafParts(depth: depth + 1)
            if parts.count >= Self.maximumParts { break }
        }
        return parts.isEmpty ? [self] : Array(parts.prefix(Self.maximumParts))
    }

    /// The address in a field such as `To` or `Final-Recipient: rfc822; anna@example.org` (the part inside
    /// `<…>` when there is one, after a `type;` prefix), lower-cased domain kept as written.
    static func bareAddress(_ value: String) -> String? {
        var text = Substring(value)
        if let semicolon = text.firstIndex(of: ";"), !text[..<semicolon].contains("@") {
            text = text[text.index(after: semicolon)...]
        }
        if let lt = text.lastIndex(of: "<"), let gt = text[lt...].firstIndex(of: ">") {
            text = text[text.index(after: lt)..<gt]
        }
        let address = text.trimmingCharacters(in: .whitespaces)
        guard address.contains("@"), !address.contains(where: { $0 == " " || $0 == "," }) else { return nil }
        return address
    }
}
