/// Percent-encoding shared by `mailto:` and `sms:` (UTF-8, RFC 3986).
enum Percent {
    /// RFC 3986 unreserved characters plus those RFC 6068 lets stand in an addr-spec / hfvalue.
    static func isSafe(_ b: UInt8, extra: String) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
            || b == 0x5F || b == 0x7E || extra.utf8.contains(b)
    }

    static func encode(_ s: String, extra: String = "") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if isSafe(b, extra: extra) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(MIME.hexDigits[Int(b >> 4)])
                out.append(MIME.hexDigits[Int(b & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; the bytes must form UTF-8. `offset` is the column of `s` inside `uri`.
    static func decode(_ s: Substring, uri: String, offset: Int) throws -> String {
        var out: [UInt8] = []
        let bytes = Array(s.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) else {
                    throw ComposerError.invalidURI(
                        uri, reason: "column \(offset + i + 1): expected %XX (two hex digits)")
                }
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw ComposerError.invalidURI(uri, reason: "column \(offset + 1): percent-encoded bytes are not UTF-8")
        }
        return text
    }

    /// Splits `scheme:path?query` and returns (path, [(name, value, column)]) with columns 1-based.
    static func split(_ uri: String, scheme: String) throws -> (
        path: Substring, pathColumn: Int, fields: [(Substring, Substring, Int)]
    ) {
        let prefix = scheme + ":"
        guard uri.utf8.count >= prefix.utf8.count, uri.prefix(prefix.count).lowercased() == prefix else {
            throw ComposerError.invalidURI(uri, reason: "column 1: expected '\(prefix)'")
        }
        let rest = uri.dropFirst(prefix.count)
        var column = prefix.count
        let path: Substring
        var fields: [(Substring, Substring, Int)] = []
        if let q = rest.firstIndex(of: "?") {
            path = rest[..<q]
            column += path.count + 1
            for field in rest[rest.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false) {
                guard let eq = field.firstIndex(of: "=") else {
                    throw ComposerError.invalidURI(uri, reason: "column \(column + 1): expected name=value")
                }
                fields.append(
                    (
                        field[..<eq], field[field.index(after: eq)...],
                        column + field.distance(from: field.startIndex, to: eq) + 1
                    ))
                column += field.count + 1
            }
        } else {
            path = rest
        }
        return (path, prefix.count, fields)
    }
}

/// A `mailto:` URI (RFC 6068): several recipients, cc/bcc, subject, body (line breaks as `%0D%0A`),
/// UTF-8 percent-encoding. Builds from and turns back into a `MailDraft`.
///
/// ```swift
/// let uri = try MailtoURI(parsing: "mailto:a@example.com,b@example.com?subject=Gr%C3%BC%C3%9Fe&body=Hi%0D%0Athere")
/// uri.to        // ["a@example.com", "b@example.com"]
/// uri.subject   // "Grüße"
/// MailtoURI(draft: draft).string
/// ```
public struct MailtoURI: Sendable, Hashable {
    public var to: [String]
    public var cc: [String]
    public var bcc: [String]
    public var subject: String?
    public var body: String?
    /// Other header fields (`in-reply-to`, `keywords`, …) in order.
    public var otherFields: [MailHeader]

    public init(
        to: [String] = [], cc: [String] = [], bcc: [String] = [], subject: String? = nil, body: String? = nil,
        otherFields: [MailHeader] = []
    ) {
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
        self.otherFields = otherFields
    }

    /// The recipients, subject and text body of a draft (HTML and attachments cannot travel in a URI).
    public init(draft: MailDraft) {
        self.init(
            to: draft.to.map(\.asciiAddress), cc: draft.cc.map(\.asciiAddress), bcc: draft.bcc.map(\.asciiAddress),
            subject: draft.subject.isEmpty ? nil : draft.subject, body: draft.textBody.isEmpty ? nil : draft.textBody)
    }

    /// Parses a `mailto:` URI; addresses are checked like `MailAddress`.
    /// - Throws: `ComposerError.invalidURI` (with the column) or `.invalidAddress`.
    public init(parsing uri: String) throws {
        let (path, pathColumn, fields) = try Percent.split(uri, scheme: "mailto")
        self.init()
        func addresses(_ s: Substring, column: Int) throws -> [String] {
            guard !s.isEmpty else { return [] }
            return try Percent.decode(s, uri: uri, offset: column).split(separator: ",").map {
                let a = $0.trimmingCharacters(in: .whitespaces)
                _ = try MailAddress(parsing: a)
                return a
            }
        }
        to = try addresses(path, column: pathColumn)
        for (name, value, column) in fields {
            let key = try Percent.decode(name, uri: uri, offset: column - name.count - 1).lowercased()
            switch key {
            case "to": to += try addresses(value, column: column)
            case "cc": cc += try addresses(value, column: column)
            case "bcc": bcc += try addresses(value, column: column)
            case "subject": subject = try Percent.decode(value, uri: uri, offset: column)
            case "body": body = try Percent.decode(value, uri: uri, offset: column)
            default:
                otherFields.append(MailHeader(name: key, value: try Percent.decode(value, uri: uri, offset: column)))
            }
        }
    }

    /// The URI text. Line breaks in the body become `%0D%0A`.
    public var string: String {
        let addrExtra = "!$'*+@"
        var s = "mailto:" + to.map { Percent.encode($0, extra: addrExtra) }.joined(separator: ",")
        var fields: [String] = []
        if !cc.isEmpty { fields.append("cc=" + cc.map { Percent.encode($0, extra: addrExtra) }.joined(separator: ",")) }
        if !bcc.isEmpty {
            fields.append("bcc=" + bcc.map { Percent.encode($0, extra: addrExtra) }.joined(separator: ","))
        }
        if let subject { fields.append("subject=" + Percent.encode(subject)) }
        if let body {
            let crlf = String(decoding: MIME.normalizedLines(body), as: UTF8.self)
            fields.append("body=" + Percent.encode(crlf))
        }
        for f in otherFields { fields.append(Percent.encode(f.name) + "=" + Percent.encode(f.value)) }
        if !fields.isEmpty { s += "?" + fields.joined(separator: "&") }
        return s
    }

    /// Header fields a `mailto:` URI may set on a draft; others (`from`, `sender`, `received`, …) are
    /// ignored, as RFC 6068 section 7 advises for fields that could mislead or harm.
    public static let safeFields: Set<String> = ["in-reply-to", "references", "keywords", "comments"]

    /// A draft with these recipients, subject and body (`\r\n` in the body becomes `\n`) and the
    /// `safeFields` among the other fields.
    public func draft(from sender: MailAddress? = nil) throws -> MailDraft {
        MailDraft(
            from: sender, to: try to.map { try MailAddress(parsing: $0) },
            cc: try cc.map { try MailAddress(parsing: $0) },
            bcc: try bcc.map { try MailAddress(parsing: $0) }, subject: subject ?? "",
            textBody: (body ?? "").replacingOccurrences(of: "\r\n", with: "\n"),
            extraHeaders: otherFields.filter { Self.safeFields.contains($0.name.lowercased()) })
    }
}

/// An `sms:` URI (RFC 5724): one or more E.164 recipients and an optional body.
///
/// ```swift
/// let uri = try SMSURI(draft: MessageDraft(recipients: ["+15555550123", "+15555550124"], body: "Hi 👋"))
/// uri.string   // "sms:+15555550123,+15555550124?body=Hi%20%F0%9F%91%8B"
/// ```
public struct SMSURI: Sendable, Hashable {
    public var recipients: [String]
    public var body: String?

    /// Checks every recipient is E.164.
    public init(recipients: [String], body: String? = nil) throws {
        for r in recipients { try E164.check(r) }
        self.recipients = recipients
        self.body = body
    }

    public init(draft: MessageDraft) throws {
        try self.init(recipients: draft.recipients, body: draft.body.isEmpty ? nil : draft.body)
    }

    /// Parses an `sms:` URI. Visual separators (`-`, `.`, `(`, `)`) in numbers are dropped.
    public init(parsing uri: String) throws {
        let (path, pathColumn, fields) = try Percent.split(uri, scheme: "sms")
        var recipients: [String] = []
        var column = pathColumn
        for raw in path.split(separator: ",", omittingEmptySubsequences: false) {
            let decoded = try Percent.decode(raw, uri: uri, offset: column)
            // RFC 5724 allows ;-parameters after a number; none is defined for us to honour, so drop them.
            let number = decoded.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .filter { !"-.()".contains($0) }
            guard (try? E164.check(number)) != nil else {
                throw ComposerError.invalidURI(
                    uri, reason: "column \(column + 1): expected a global number like +15555550123")
            }
            recipients.append(number)
            column += raw.count + 1
        }
        var body: String?
        for (name, value, column) in fields where name.lowercased() == "body" {
            body = try Percent.decode(value, uri: uri, offset: column)
        }
        try self.init(recipients: recipients, body: body)
    }

    public var string: String {
        var s = "sms:" + recipients.joined(separator: ",")
        if let body { s += "?body=" + Percent.encode(body) }
        return s
    }

    public var draft: MessageDraft { MessageDraft(recipients: recipients, body: body ?? "") }
}

enum E164 {
    static func check<S: StringProtocol>(_ number: S) throws {
        let u = Array(number.utf8)
        guard u.count >= 3, u.count <= 16, u[0] == UInt8(ascii: "+"), u[1] != UInt8(ascii: "0"),
            u.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw ComposerError.invalidPhoneNumber(String(number)) }
    }
}
