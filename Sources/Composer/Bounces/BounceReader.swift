import Foundation

/// What one received message says about a recipient: a delivery failed for good (a hard bounce), failed
/// for now (a soft bounce: not suppressed), or the recipient asked to be unsubscribed.
public struct BounceNotice: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// `Action: failed` with a 5.x.x status (RFC 3464): the address does not take mail.
        case hardBounce = "bounce"
        /// `Action: delayed`, or failed with a 4.x.x status: may work later; not suppressed.
        case softBounce = "soft-bounce"
        /// A request to the unsubscribe address (RFC 2369 `mailto:`, or RFC 8058's request stored as mail).
        case unsubscribe
    }
    public var address: String
    public var kind: Kind
    /// The enhanced status code (`5.1.1`), when the report has one.
    public var status: String?
    /// The server's words (`Diagnostic-Code`), or how the notice was found.
    public var detail: String

    /// Whether the address goes on the suppression list (a hard bounce or an unsubscribe).
    public var suppresses: Bool { kind != .softBounce }

    public init(address: String, kind: Kind, status: String? = nil, detail: String = "") {
        self.address = address
        self.kind = kind
        self.status = status
        self.detail = detail
    }

    public var description: String {
        "\(address): \(kind.rawValue)\(status.map { " \($0)" } ?? "")\(detail.isEmpty ? "" : " (\(detail))")"
    }
}

/// Reads delivery status notifications (RFC 3464: `multipart/report; report-type=delivery-status`, one
/// `Final-Recipient`/`Action`/`Status` group per recipient) and unsubscribe requests that arrive as mail.
///
/// A report without `Final-Recipient` names its recipient through the address it was delivered to, when
/// that is a VERP address of ``returnPath`` (``VERP``). An unsubscribe request is a message to
/// ``unsubscribeAddress`` (or its `+detail` form): the recipient is the one a token in it names
/// (``tokens``: the per-recipient tokens of the campaign's unsubscribe links), else a VERP-encoded detail,
/// else the sender of the request.
///
/// ```swift
/// let reader = BounceReader(returnPath: "bounces@sender.example", unsubscribeAddress: "unsubscribe@sender.example")
/// let message = try Data(contentsOf: URL(fileURLWithPath: "Mail/bounces/new/1767225600.M1P42.host"))
/// for notice in reader.notices(in: [UInt8](message)) where notice.suppresses { print(notice) }
/// ```
public struct BounceReader: Sendable {
    public var returnPath: String?
    public var unsubscribeAddress: String?
    /// Unsubscribe tokens and the address each stands for.
    public var tokens: [String: String]

    public init(returnPath: String? = nil, unsubscribeAddress: String? = nil, tokens: [String: String] = [:]) {
        self.returnPath = returnPath
        self.unsubscribeAddress = unsubscribeAddress
        self.tokens = tokens
    }

    /// What `message` (a whole RFC 5322 message) says; nothing for a message that is neither a delivery
    /// report nor an unsubscribe request.
    public func notices(in message: [UInt8]) -> [BounceNotice] {
        let mail = ReceivedMail(message[...])
        if let request = unsubscribe(mail) { return [request] }
        guard mail.mediaType == "multipart/report" else { return [] }
        let parts = mail.leafParts()
        guard
            let report = parts.first(where: {
                ["message/delivery-status", "message/global-delivery-status"].contains($0.mediaType)
            })
        else { return [] }
        let envelopeRecipient = deliveredTo(mail).flatMap { address in
            returnPath.flatMap { VERP.recipient(in: address, returnPath: $0) }
        }
        return Self.recipientGroups(report.body).compactMap { fields in
            notice(fields, envelopeRecipient: envelopeRecipient)
        }
    }

    private func notice(_ fields: [String: String], envelopeRecipient: String?) -> BounceNotice? {
        guard let address = fields["final-recipient"].flatMap(ReceivedMail.bareAddress) ?? envelopeRecipient,
            let action = fields["action"]?.lowercased()
        else { return nil }
        let status = fields["status"].map { String($0.prefix { !$0.isWhitespace && $0 != "(" }) }
        let detail = fields["diagnostic-code"].map { Self.withoutType($0) } ?? ""
        switch action.prefix(while: { $0.isLetter }) {
        case "failed":
            let soft = status?.hasPrefix("4.") ?? false
            return BounceNotice(
                address: address, kind: soft ? .softBounce : .hardBounce, status: status, detail: detail)
        case "delayed":
            return BounceNotice(address: address, kind: .softBounce, status: status, detail: detail)
        default:
            return nil  // delivered, relayed, expanded
        }
    }

    /// `smtp; 550 5.1.1 …` → `550 5.1.1 …`.
    private static func withoutType(_ value: String) -> String {
        guard let semicolon = value.firstIndex(of: ";") else { return value }
        return value[value.index(after: semicolon)...].trimmingCharacters(in: .whitespaces)
    }

    /// The per-recipient field groups of a delivery-status body (the first group is per message): fields
    /// by lower-cased name, continuation lines joined.
    static func recipientGroups(_ body: ArraySlice<UInt8>) -> [[String: String]] {
        var groups: [[String: String]] = []
        var current: [String: String] = [:]
        var last: String?
        let text = String(decoding: body, as: UTF8.self)
        // CRLF is one Character: split on every line end.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !current.isEmpty { groups.append(current) }
                current = [:]
                last = nil
            } else if line.first == " " || line.first == "\t", let name = last {
                current[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                if current[name] == nil {
                    current[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                last = name
            }
        }
        if !current.isEmpty { groups.append(current) }
        return Array(groups.dropFirst())
    }

    /// The envelope recipient of a received message (what a delivery agent records), else `To`.
    private func deliveredTo(_ mail: ReceivedMail) -> String? {
        for field in ["Delivered-To", "X-Original-To", "Envelope-To", "To"] {
            if let value = mail.header(field), let address = ReceivedMail.bareAddress(value) { return address }
        }
        return nil
    }

    private func unsubscribe(_ mail: ReceivedMail) -> BounceNotice? {
        guard let unsubscribeAddress, let (local, domain) = Self.split(unsubscribeAddress) else { return nil }
        var detail: String?
        var matched = false
        for field in ["Delivered-To", "X-Original-To", "To"] {
            guard let value = mail.header(field) else { continue }
            for item in value.split(separator: ",") {
                guard let address = ReceivedMail.bareAddress(String(item)), let (l, d) = Self.split(address),
                    d.lowercased() == domain.lowercased()
                else { continue }
                if l.lowercased() == local.lowercased() {
                    matched = true
                } else if l.lowercased().hasPrefix(local.lowercased() + "+") {
                    matched = true
                    detail = String(l.dropFirst(local.count + 1))
                }
            }
            if matched { break }
        }
        guard matched else { return nil }
        let subject = mail.header("Subject") ?? ""
        let text = [detail ?? "", subject, String(decoding: mail.body.prefix(65_536), as: UTF8.self)]
        if !tokens.isEmpty {
            for piece in text {
                for word in piece.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
                    if let address = tokens[String(word)] {
                        return BounceNotice(address: address, kind: .unsubscribe, detail: "token in the request")
                    }
                }
            }
        }
        if let detail, let equals = detail.lastIndex(of: "="), equals != detail.startIndex,
            detail.index(after: equals) != detail.endIndex
        {
            let address = String(detail[..<equals]) + "@" + String(detail[detail.index(after: equals)...])
            return BounceNotice(address: address, kind: .unsubscribe, detail: "address in the request's recipient")
        }
        guard let from = mail.header("From").flatMap(ReceivedMail.bareAddress) else { return nil }
        return BounceNotice(address: from, kind: .unsubscribe, detail: "sender of the request")
    }

    private static func split(_ address: String) -> (String, String)? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        return (String(address[..<at]), String(address[address.index(after: at)...]))
    }
}
