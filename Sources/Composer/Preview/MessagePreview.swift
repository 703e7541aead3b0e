import Foundation

/// A written message shown as a mail reader shows it: the header fields a reader displays (encoded words
/// decoded), the text of each text part (base64 and quoted-printable decoded), and each attachment's name,
/// type and size. What `compose --preview` prints: the bytes that would be sent, read back.
///
/// ```swift
/// let bytes = try MIMEWriter().write(draft)
/// print(MessagePreview(bytes).text)
/// // From: Ada <ada@example.org>
/// // To: Zoë Zed <zoe@example.org>
/// // Subject: Grüße
/// // ── text/plain ──
/// // Hallo!
/// // ── attachment: plan.pdf (application/pdf, 2048 bytes)
/// ```
public struct MessagePreview: Sendable {
    /// The header fields a reader shows, in this order, when the message has them.
    public static let shownFields = [
        "Date", "From", "To", "Cc", "Reply-To", "Subject", "Content-Language", "List-Id", "List-Unsubscribe",
    ]

    /// The fields shown, decoded, in ``shownFields`` order.
    public private(set) var fields: [(name: String, value: String)] = []
    /// Each leaf part: its media type, its decoded text (text parts that are not attachments), or for an
    /// attachment its file name and decoded size in bytes.
    public private(set) var parts: [(type: String, text: String?, filename: String?, size: Int)] = []

    /// Reads `bytes` (a message as `MIMEWriter` writes it; at most 200 parts, 8 levels deep).
    public init(_ bytes: [UInt8]) {
        let mail = ReceivedMail(bytes[...])
        for name in Self.shownFields {
            if let value = mail.header(name) { fields.append((name, Self.decodeWords(value))) }
        }
        for part in mail.leafParts() {
            let body = Self.decodeBody(part)
            let disposition = part.header("Content-Disposition") ?? ""
            let filename =
                Self.parameter("filename", in: disposition)
                ?? Self.parameter("name", in: part.header("Content-Type") ?? "")
            if part.mediaType.hasPrefix("text/") && !disposition.lowercased().hasPrefix("attachment") && filename == nil
            {
                parts.append((part.mediaType, String(decoding: body, as: UTF8.self), nil, body.count))
            } else {
                parts.append((part.mediaType, nil, filename ?? "(no name)", body.count))
            }
        }
    }

    /// The preview as lines of text.
    public var text: String {
        var out = fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n"
        for part in parts {
            if let text = part.text {
                out += "── \(part.type) ──\n" + text + (text.hasSuffix("\n") ? "" : "\n")
            } else {
                out += "── attachment: \(part.filename ?? "") (\(part.type), \(part.size) bytes)\n"
            }
        }
        return out
    }

    /// The body of `part` with its transfer encoding undone, line ends as LF.
    static func decodeBody(_ part: ReceivedMail) -> [UInt8] {
        let encoding = (part.header("Content-Transfer-Encoding") ?? "").lowercased()
        let raw = String(decoding: part.body, as: UTF8.self)
        switch encoding {
        case "base64":
            return [UInt8](Data(base64Encoded: raw, options: .ignoreUnknownCharacters) ?? Data())
        case "quoted-printable":
            return quotedPrintableDecoded(Array(raw.replacingOccurrences(of: "\r\n", with: "\n").utf8))
        default:
            return Array(raw.replacingOccurrences(of: "\r\n", with: "\n").utf8)
        }
    }

    static func quotedPrintableDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "=") {
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A {  // soft line break
                    i += 2
                    continue
                }
                if i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                    out.append(high << 4 | low)
                    i += 3
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// `value` with its RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) decoded; the space
    /// between two encoded words goes.
    static func decodeWords(_ value: String) -> String {
        var out = ""
        var rest = Substring(value)
        var lastWasEncoded = false
        while let start = rest.range(of: "=?") {
            let before = rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            let pieces = after.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            guard pieces.count == 4, pieces[3].hasPrefix("="), let decoded = decodeWord(pieces[1], pieces[2]) else {
                out += before + "=?"
                rest = after
                lastWasEncoded = false
                continue
            }
            if !(lastWasEncoded && before.allSatisfy(\.isWhitespace)) { out += before }
            out += decoded
            rest = pieces[3].dropFirst()
            lastWasEncoded = true
        }
        return out + rest
    }

    private static func decodeWord(_ encoding: Substring, _ text: Substring) -> String? {
        switch encoding.uppercased() {
        case "B":
            return Data(base64Encoded: String(text)).map { String(decoding: $0, as: UTF8.self) }
        case "Q":
            let bytes = Array(text.replacingOccurrences(of: "_", with: " ").utf8)
            return String(decoding: quotedPrintableDecoded(bytes), as: UTF8.self)
        default:
            return nil
        }
    }

    /// A parameter of a structured field (`filename*=UTF-8''a%20b.pdf` decoded, quotes removed).
    static func parameter(_ name: String, in field: String) -> String? {
        for piece in field.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            let key = pair[0].lowercased()
            if key == name + "*", let quote = pair[1].range(of: "''") {
                return pair[1][quote.upperBound...].removingPercentEncoding
            }
            if key == name {
                var v = pair[1]
                if v.count >= 2 && v.hasPrefix("\"") && v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
                return decodeWords(v)
            }
        }
        return nil
    }
}
