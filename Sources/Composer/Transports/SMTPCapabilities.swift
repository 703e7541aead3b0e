import Foundation

/// What an SMTP server offers in its reply to EHLO (RFC 5321 §4.1.1.1): the service extensions, with the
/// message size limit of `SIZE` (RFC 1870) read out.
///
/// ```swift
/// let caps = SMTPCapabilities(ehloReply: ["mail.example.com", "SIZE 10240000", "8BITMIME", "AUTH PLAIN LOGIN"])
/// caps.sizeLimit            // 10240000
/// caps.extensions           // ["SIZE 10240000", "8BITMIME", "AUTH PLAIN LOGIN"]
/// caps.offers("8bitmime")   // true
/// ```
public struct SMTPCapabilities: Sendable, Hashable {
    /// The extension lines of the reply, as the server wrote them (keyword and parameters), in order.
    public var extensions: [String]

    /// The reply's lines after the code (`250-` / `250 `); the first names the server, the others are
    /// extensions.
    public init(ehloReply lines: [String]) {
        extensions = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether the server offers the extension with this keyword (case-insensitive).
    public func offers(_ keyword: String) -> Bool { parameters(of: keyword) != nil }

    /// The parameters after `keyword` (empty when it has none), or nil when the server does not offer it.
    public func parameters(of keyword: String) -> String? {
        let wanted = keyword.uppercased()
        for line in extensions {
            let word = line.prefix { $0 != " " }
            if word.uppercased() == wanted { return line.dropFirst(word.count).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// The largest message the server takes, in bytes: `SIZE n` with n > 0. Nil without `SIZE`, or with
    /// `SIZE` alone or `SIZE 0` (RFC 1870: no fixed limit).
    public var sizeLimit: Int? {
        guard let text = parameters(of: "SIZE"), let n = Int(text), n > 0 else { return nil }
        return n
    }
}

/// Collects the reply to the last EHLO a transaction sent (libcurl says EHLO again after STARTTLS: the
/// later reply replaces the earlier).
struct EHLOReplyReader {
    private var reading = false
    private var lines: [String] = []
    /// The complete reply to the last EHLO.
    private(set) var capabilities: SMTPCapabilities?

    /// A command line the client sent.
    mutating func sent(_ text: String) {
        if text.uppercased().hasPrefix("EHLO") {
            reading = true
            lines = []
        }
    }

    /// Reply text the client read (one or more lines).
    mutating func received(_ text: String) {
        guard reading else { return }
        for line in text.split(whereSeparator: \.isNewline) {
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, bytes[0] == UInt8(ascii: "2") else {
                reading = false
                return
            }
            lines.append(bytes.count > 4 ? String(line.dropFirst(4)) : "")
            if bytes.count == 3 || bytes[3] != UInt8(ascii: "-") {
                reading = false
                capabilities = SMTPCapabilities(ehloReply: lines)
                return
            }
        }
    }
}
