import Foundation
import Support

/// Writes a `MailDraft` as an RFC 5322 / MIME message, on bytes.
///
/// - CRLF line ends; header lines folded at 78 octets, encoded-word lines at 76, body lines at 76.
/// - `Date`, `Message-ID`, `MIME-Version`; non-ASCII display names, subjects and extra header values as
///   RFC 2047 encoded-words (B or Q, whichever is shorter; ≤ 75 characters each; a UTF-8 sequence is never
///   split across words); names with specials become quoted-strings.
/// - Bodies in UTF-8: 7bit when plain short-lined ASCII without "=_" (the start of every boundary), else
///   quoted-printable or base64, whichever is smaller. Text + HTML make `multipart/alternative`; attachments make `multipart/mixed` with RFC 2231
///   file names.
/// - CR, LF or NUL in any header input is refused (`ComposerError.headerInjection`): no header can be
///   injected; writer-owned header names cannot be overridden through `extraHeaders`.
///
/// ```swift
/// let draft = MailDraft(from: try MailAddress(address: "a@example.com"),
///                       to: [try MailAddress(name: "Zoë", address: "z@example.org")],
///                       subject: "Grüße", textBody: "Hallo!\n")
/// let eml: [UInt8] = try MIMEWriter().write(draft)
/// ```
public struct MIMEWriter: Sendable {
    /// Write a `Bcc` header (for saved drafts). Messages handed to servers never carry one.
    public var includeBcc: Bool

    /// The most bytes a written message may have (nil: no limit); beyond it `write` throws
    /// `ComposerError.messageTooLarge`.
    public var maxMessageSize: Int?

    /// A writer; `includeBcc` for drafts saved to disk, `maxMessageSize` to refuse larger messages.
    public init(includeBcc: Bool = false, maxMessageSize: Int? = nil) {
        self.includeBcc = includeBcc
        self.maxMessageSize = maxMessageSize
    }

    /// Renders `draft` as a complete message.
    /// - Parameters:
    ///   - draft: the message: addresses, subject, bodies, attachments.
    ///   - date: the `Date` header (defaults to now).
    ///   - messageID: `<id@domain>` to use instead of a generated one.
    public func write(_ draft: MailDraft, date: Date = Date(), messageID: String? = nil) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + draft.textBody.utf8.count * 2 + (draft.htmlBody?.utf8.count ?? 0) * 2)
        try write(draft, into: &out, date: date, messageID: messageID)
        if let maxMessageSize, out.count > maxMessageSize {
            throw ComposerError.messageTooLarge(size: out.count, limit: maxMessageSize)
        }
        return out
    }

    /// Appends the rendered message to `out` (lets a batch reuse one buffer).
    public func write(_ draft: MailDraft, into out: inout [UInt8], date: Date = Date(), messageID: String? = nil)
        throws
    {
        guard let from = draft.from else { throw ComposerError.missingField("from") }
        guard !draft.to.isEmpty || !draft.cc.isEmpty || !draft.bcc.isEmpty else {
            throw ComposerError.missingField("to")
        }
        try MIME.checkHeaderInput(draft.subject, field: "subject")
        var (r1, r2) = MIME.uniqueRandom()
        if let messageID {
            // A given Message-ID makes the whole message reproducible: the boundary derives from it. (Any
            // value is safe: every boundary starts with "=_", which no body contains — QP writes "=" as
            // "=3D", base64 has no "_", and a body with "=_" is never sent as 7bit; see is7bitSafe.)
            r2 = messageID.fnv1a64
        }

        // Date, Message-ID, MIME-Version
        out.append(contentsOf: "Date: ".utf8)
        MIME.appendDate(date, to: &out)
        out.append(contentsOf: MIME.crlf)
        out.append(contentsOf: "Message-ID: ".utf8)
        if let messageID {
            try MIME.checkHeaderInput(messageID, field: "message-id")
            guard messageID.hasPrefix("<"), messageID.hasSuffix(">"), messageID.contains("@"),
                messageID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { throw ComposerError.invalidHeaderName(messageID, reason: "a Message-ID looks like <id@domain>") }
            out.append(contentsOf: messageID.utf8)
        } else {
            out.append(UInt8(ascii: "<"))
            MIME.appendHex(UInt64(max(0, date.timeIntervalSince1970 * 1000)), to: &out)
            out.append(UInt8(ascii: "."))
            MIME.appendHex(r1, to: &out)
            out.append(UInt8(ascii: "@"))
            let domain = from.asciiAddress.split(separator: "@").last.map(String.init) ?? "localhost"
            out.append(contentsOf: (domain.hasPrefix("[") ? "composer.invalid" : domain).utf8)
            out.append(UInt8(ascii: ">"))
        }
        out.append(contentsOf: MIME.crlf)
        MIME.appendAddressField("From", [from], to: &out)
        if !draft.replyTo.isEmpty { MIME.appendAddressField("Reply-To", draft.replyTo, to: &out) }
        if !draft.to.isEmpty { MIME.appendAddressField("To", draft.to, to: &out) }
        if !draft.cc.isEmpty { MIME.appendAddressField("Cc", draft.cc, to: &out) }
        if includeBcc && !draft.bcc.isEmpty { MIME.appendAddressField("Bcc", draft.bcc, to: &out) }
        MIME.appendUnstructured("Subject", draft.subject, to: &out)
        if let locale = draft.locale {
            out.append(contentsOf: "Content-Language: ".utf8)
            out.append(contentsOf: try MIME.languageTag(locale).utf8)
            out.append(contentsOf: MIME.crlf)
        }
        var seenSingletons = Set<String>()
        for header in draft.extraHeaders {
            let lower = try MIME.checkExtraHeaderName(header.name)
            if MIME.singletonExtra.contains(lower), !seenSingletons.insert(lower).inserted {
                throw ComposerError.invalidHeaderName(header.name, reason: "may occur only once")
            }
            try MIME.checkHeaderInput(header.value, field: header.name)
            MIME.appendUnstructured(header.name, header.value, to: &out)
        }
        try MIME.appendListUnsubscribe(draft.listUnsubscribe, to: &out)
        out.append(contentsOf: "MIME-Version: 1.0\r\n".utf8)

        for attachment in draft.attachments + draft.inlineImages {
            try MIME.checkHeaderInput(attachment.filename, field: "attachment filename")
            try MIME.checkMediaType(attachment.mediaType)
            if let id = attachment.contentID {
                guard !id.isEmpty, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3C && $0 != 0x3E }) else {
                    throw ComposerError.invalidHeaderName("Content-ID", reason: "'\(id)' is not a content id")
                }
            }
        }
        let inline = draft.htmlBody == nil ? [] : draft.inlineImages.filter { $0.contentID != nil }
        var boundaryIndex = 0
        func nextBoundary() -> [UInt8] {
            var b = Array("=_".utf8)
            MIME.appendHex(r2, to: &b)
            b.append(UInt8(ascii: "."))
            MIME.appendHex(UInt64(boundaryIndex), to: &b)
            boundaryIndex += 1
            return b
        }
        let text = MIME.normalizedLines(draft.textBody)
        let html = draft.htmlBody.map(MIME.normalizedLines)

        func writeAlternative(_ out: inout [UInt8]) {
            if let html {
                let boundary = nextBoundary()
                MIME.appendMultipartHeader("alternative", boundary: boundary, to: &out)
                out.append(contentsOf: MIME.crlf)
                MIME.appendBoundary(boundary, to: &out)
                MIME.appendTextPart(text, subtype: "plain", to: &out)
                out.append(contentsOf: MIME.crlf)
                MIME.appendBoundary(boundary, to: &out)
                MIME.appendTextPart(html, subtype: "html", to: &out)
                out.append(contentsOf: MIME.crlf)
                MIME.appendBoundary(boundary, closing: true, to: &out)
            } else {
                MIME.appendTextPart(text, subtype: "plain", to: &out)
            }
        }

        // The text and HTML, and the images the HTML shows, as one `multipart/related` (RFC 2387).
        func writeBodyEntity(_ out: inout [UInt8]) throws(ComposerError) {
            guard !inline.isEmpty else { return writeAlternative(&out) }
            let boundary = nextBoundary()
            MIME.appendMultipartHeader("related", boundary: boundary, to: &out)
            out.append(contentsOf: MIME.crlf)
            MIME.appendBoundary(boundary, to: &out)
            writeAlternative(&out)
            out.append(contentsOf: MIME.crlf)
            for image in inline {
                MIME.appendBoundary(boundary, to: &out)
                try MIME.appendAttachment(image, to: &out)
                out.append(contentsOf: MIME.crlf)
            }
            MIME.appendBoundary(boundary, closing: true, to: &out)
        }

        if draft.attachments.isEmpty {
            try writeBodyEntity(&out)
        } else {
            let boundary = nextBoundary()
            MIME.appendMultipartHeader("mixed", boundary: boundary, to: &out)
            out.append(contentsOf: MIME.crlf)
            MIME.appendBoundary(boundary, to: &out)
            try writeBodyEntity(&out)
            out.append(contentsOf: MIME.crlf)
            for attachment in draft.attachments {
                MIME.appendBoundary(boundary, to: &out)
                try MIME.appendAttachment(attachment, to: &out)
                out.append(contentsOf: MIME.crlf)
            }
            MIME.appendBoundary(boundary, closing: true, to: &out)
        }
    }
}
