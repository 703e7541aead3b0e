import Foundation
import Synchronization

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

    /// A writer; `includeBcc` for drafts saved to disk.
    public init(includeBcc: Bool = false) {
        self.includeBcc = includeBcc
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
            r2 = messageID.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
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
        out.append(contentsOf: "MIME-Version: 1.0\r\n".utf8)

        for attachment in draft.attachments {
            try MIME.checkHeaderInput(attachment.filename, field: "attachment filename")
            try MIME.checkMediaType(attachment.mediaType)
        }
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

        func writeBodyEntity(_ out: inout [UInt8]) {
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

        if draft.attachments.isEmpty {
            writeBodyEntity(&out)
        } else {
            let boundary = nextBoundary()
            MIME.appendMultipartHeader("mixed", boundary: boundary, to: &out)
            out.append(contentsOf: MIME.crlf)
            MIME.appendBoundary(boundary, to: &out)
            writeBodyEntity(&out)
            out.append(contentsOf: MIME.crlf)
            for attachment in draft.attachments {
                MIME.appendBoundary(boundary, to: &out)
                MIME.appendAttachment(attachment, to: &out)
                out.append(contentsOf: MIME.crlf)
            }
            MIME.appendBoundary(boundary, closing: true, to: &out)
        }
    }
}

/// Byte-level building blocks of the writer (internal; tested through `MIMEWriter` and directly).
enum MIME {
    static let crlf: [UInt8] = [13, 10]
    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    static let lowerHex: [UInt8] = Array("0123456789abcdef".utf8)
    static let reserved: Set<String> = [
        "date", "from", "sender", "reply-to", "to", "cc", "bcc", "message-id", "subject", "mime-version",
        "content-type", "content-transfer-encoding", "content-disposition", "content-language", "content-id",
        "return-path", "received",
    ]
    static let singletonExtra: Set<String> = ["in-reply-to", "references", "organization"]

    /// A process-wide random seed (one getrandom call) and a counter: Message-IDs and boundaries are unique
    /// within the process and unpredictable across processes, without a system call per message.
    static let seed: (UInt64, UInt64) = {
        var g = SystemRandomNumberGenerator()
        return (g.next(), g.next())
    }()
    static let counter = Atomic<UInt64>(0)

    static func uniqueRandom() -> (UInt64, UInt64) {
        let n = counter.add(1, ordering: .relaxed).newValue
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // mix is a bijection, so distinct counters give distinct values for a given seed.
        return (mix(seed.0 ^ n), mix(seed.1 &+ n))
    }

    static func checkHeaderInput(_ value: String, field: String) throws {
        for b in value.utf8 where b == 13 || b == 10 || b == 0 {
            throw ComposerError.headerInjection(field: field)
        }
    }

    /// Returns the lowercased name, or throws when it is not a field name or belongs to the writer.
    static func checkExtraHeaderName(_ name: String) throws -> String {
        try checkHeaderInput(name, field: "header name")
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: ":") }) else {
            throw ComposerError.invalidHeaderName(name, reason: "expected printable ASCII without ':' or spaces")
        }
        guard name.utf8.count <= 76 else {
            throw ComposerError.invalidHeaderName(name, reason: "longer than 76 characters")
        }
        let lower = name.lowercased()
        if reserved.contains(lower) {
            throw ComposerError.invalidHeaderName(name, reason: "written by the composer from the draft's fields")
        }
        return lower
    }

    static func checkMediaType(_ type: String) throws {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let tspecials = Set("()<>@,;:\\\"/[]?=".utf8)
        guard parts.count == 2,
            parts.allSatisfy({ p in
                !p.isEmpty && p.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !tspecials.contains($0) }
            })
        else { throw ComposerError.invalidMediaType(type) }
    }

    /// A BCP 47 tag (Apple `_` separators accepted and mapped to `-`).
    static func languageTag(_ locale: String) throws -> String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            subtags.allSatisfy({ s in
                (1...8).contains(s.count) && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            })
        else { throw ComposerError.invalidLocale(locale) }
        return tag
    }

    static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        var started = false
        for shift in stride(from: 60, through: 0, by: -4) {
            let d = Int((value >> UInt64(shift)) & 0xF)
            if d != 0 || started || shift == 0 {
                out.append(lowerHex[d])
                started = true
            }
        }
    }

    // MARK: Date (RFC 5322 3.3), UTC

    static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func appendDate(_ date: Date, to out: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86_400
        var rem = seconds % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        let weekday = Int(((days % 7) + 7) % 7)
        // civil_from_days (H. Hinnant)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        func two(_ v: Int64) {
            out.append(UInt8(48 + v / 10))
            out.append(UInt8(48 + v % 10))
        }
        out.append(contentsOf: dayNames[weekday].utf8)
        out.append(contentsOf: ", ".utf8)
        two(day)
        out.append(0x20)
        out.append(contentsOf: monthNames[Int(month) - 1].utf8)
        out.append(0x20)
        if year >= 1000 && year <= 9999 {
            two(year / 100)
            two(year % 100)
        } else {
            out.append(contentsOf: String(year).utf8)
        }
        out.append(0x20)
        two(rem / 3600)
        out.append(UInt8(ascii: ":"))
        two((rem % 3600) / 60)
        out.append(UInt8(ascii: ":"))
        two(rem % 60)
        out.append(contentsOf: " +0000".utf8)
    }

    // MARK: Header folding

    /// Appends tokens separated by single spaces, folding (CRLF SP) before a token that would pass 78.
    struct Folder {
        var lineLength: Int
        var hasToken = false
        /// Just folded: the continuation line's leading space is already written.
        var atLineStart = false
        /// The current line holds an encoded-word, so it must stay ≤ 76 octets (RFC 2047 2).
        var lineHasEncodedWord = false

        mutating func append(_ token: some Collection<UInt8>, encodedWord: Bool = false, to out: inout [UInt8]) {
            if atLineStart {
                atLineStart = false
            } else {
                let limit = (lineHasEncodedWord || encodedWord) ? 76 : 78
                if hasToken && lineLength + 1 + token.count > limit {
                    out.append(contentsOf: crlf)
                    lineLength = 0
                    lineHasEncodedWord = false
                }
                out.append(0x20)
                lineLength += 1
            }
            out.append(contentsOf: token)
            lineLength += token.count
            hasToken = true
            if encodedWord { lineHasEncodedWord = true }
        }

        /// Room left on the current line for an encoded-word (such lines stay ≤ 76 octets).
        var roomForEncodedWord: Int { atLineStart ? 76 - lineLength : 76 - lineLength - 1 }

        mutating func fold(to out: inout [UInt8]) {
            out.append(contentsOf: crlf)
            out.append(0x20)
            lineLength = 1
            atLineStart = true
            lineHasEncodedWord = false
        }
    }

    // MARK: RFC 2047 encoded-words

    static func isQSafe(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x21 || b == 0x2A
            || b == 0x2B || b == 0x2D || b == 0x2F
    }

    static func qLength(_ b: UInt8) -> Int { (isQSafe(b) || b == 0x20) ? 1 : 3 }

    /// Appends `text` as encoded-words (B or Q, whichever is shorter overall), folding between words.
    /// Words end only on UTF-8 sequence boundaries.
    ///
    /// With `preferSingle` (display names), text that fits one word is never split: Python's `email`
    /// package inserts a space between adjacent encoded-words in a phrase, against RFC 2047 6.2.
    static func appendEncodedWords(
        _ text: Substring.UTF8View, preferSingle: Bool = false, folder: inout Folder, to out: inout [UInt8]
    ) {
        let bytes = Array(text)
        var qTotal = 0
        for b in bytes { qTotal += qLength(b) }
        let bTotal = (bytes.count + 2) / 3 * 4
        let useQ = qTotal <= bTotal
        if preferSingle && min(qTotal, bTotal) + 12 <= 75 && !folder.atLineStart
            && min(qTotal, bTotal) + 12 > folder.roomForEncodedWord
        {
            folder.fold(to: &out)
        }
        let prefix: [UInt8] = Array((useQ ? "=?UTF-8?Q?" : "=?UTF-8?B?").utf8)
        var i = 0
        var word: [UInt8] = []
        word.reserveCapacity(75)
        while i < bytes.count {
            var room = min(75, folder.roomForEncodedWord)
            if room < 20 && !folder.atLineStart {
                folder.fold(to: &out)
                room = 75
            }
            let payloadRoom = room - 12
            // Take whole UTF-8 sequences while they fit.
            var j = i
            var used = 0
            while j < bytes.count {
                let len = utf8SequenceLength(bytes[j])
                let end = min(j + len, bytes.count)
                var cost = 0
                if useQ {
                    for k in j..<end { cost += qLength(bytes[k]) }
                    if used + cost > payloadRoom { break }
                    used += cost
                } else {
                    let newCount = j + (end - j) - i
                    if (newCount + 2) / 3 * 4 > payloadRoom { break }
                }
                j = end
            }
            if j == i { j = min(i + utf8SequenceLength(bytes[i]), bytes.count) }  // never happens with room ≥ 20
            word.removeAll(keepingCapacity: true)
            word.append(contentsOf: prefix)
            if useQ {
                for k in i..<j {
                    let b = bytes[k]
                    if b == 0x20 {
                        word.append(UInt8(ascii: "_"))
                    } else if isQSafe(b) {
                        word.append(b)
                    } else {
                        word.append(UInt8(ascii: "="))
                        word.append(hexDigits[Int(b >> 4)])
                        word.append(hexDigits[Int(b & 15)])
                    }
                }
            } else {
                Base64.append(bytes[i..<j], to: &word)
            }
            word.append(contentsOf: "?=".utf8)
            folder.append(word, encodedWord: true, to: &out)
            i = j
        }
    }

    @inline(__always) static func utf8SequenceLength(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1
    }

    /// Unstructured field (Subject, extra headers): plain folded ASCII words when that is lossless, else
    /// encoded-words.
    static func appendUnstructured(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ":"))
        var folder = Folder(lineLength: name.utf8.count + 1)
        if value.isEmpty {
            out.append(contentsOf: crlf)
            return
        }
        if isPlainFoldable(value.utf8) {
            var start = value.utf8.startIndex
            let u = value.utf8
            var idx = start
            while idx < u.endIndex {
                if u[idx] == 0x20 {
                    folder.append(u[start..<idx], to: &out)
                    start = u.index(after: idx)
                }
                idx = u.index(after: idx)
            }
            folder.append(u[start..<u.endIndex], to: &out)
        } else {
            appendEncodedWords(value[...].utf8, folder: &folder, to: &out)
        }
        out.append(contentsOf: crlf)
    }

    /// Printable ASCII, single spaces between words, no leading/trailing space, no word longer than 70
    /// octets, nothing that looks like an encoded-word.
    static func isPlainFoldable(_ u: String.UTF8View) -> Bool {
        var previous: UInt8 = 0x20
        var wordLength = 0
        var first = true
        for b in u {
            if b == 0x20 {
                if previous == 0x20 { return false }  // leading space or a run of spaces
                wordLength = 0
            } else {
                guard b > 0x20 && b < 0x7F else { return false }
                if b == UInt8(ascii: "?") && previous == UInt8(ascii: "=") { return false }
                wordLength += 1
                if wordLength > 70 { return false }
            }
            previous = b
            first = false
        }
        return !first && previous != 0x20
    }

    // MARK: Addresses

    static func appendAddressField(_ name: String, _ list: [MailAddress], to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ":"))
        var folder = Folder(lineLength: name.utf8.count + 1)
        var token: [UInt8] = []
        for (n, address) in list.enumerated() {
            let last = n == list.count - 1
            if let display = address.name {
                appendPhrase(display, folder: &folder, to: &out)
                token.removeAll(keepingCapacity: true)
                token.append(UInt8(ascii: "<"))
                token.append(contentsOf: address.asciiAddress.utf8)
                token.append(UInt8(ascii: ">"))
            } else {
                token.removeAll(keepingCapacity: true)
                token.append(contentsOf: address.asciiAddress.utf8)
            }
            if !last { token.append(UInt8(ascii: ",")) }
            folder.append(token, to: &out)
        }
        out.append(contentsOf: crlf)
    }

    /// A display name: atoms as they are, other printable ASCII as a quoted-string, anything else as
    /// encoded-words. Leading and trailing white space carries no meaning in a phrase and is dropped (mail
    /// readers disagree on keeping it).
    static func appendPhrase(_ rawName: String, folder: inout Folder, to out: inout [UInt8]) {
        let first = rawName.unicodeScalars.first
        let last = rawName.unicodeScalars.last
        let name =
            (first?.properties.isWhitespace ?? false) || (last?.properties.isWhitespace ?? false)
            ? rawName.trimmingCharacters(in: .whitespaces) : rawName
        if name.isEmpty {
            folder.append("\"\"".utf8, to: &out)
            return
        }
        let u = name.utf8
        var allAtext = true
        var printable = true
        var previous: UInt8 = 0x20
        for b in u {
            if b == 0x20 {
                if previous == 0x20 { allAtext = false }
            } else if b < 0x20 || b >= 0x7F {
                printable = false
                allAtext = false
                break
            } else if !AddrSpec.isAtext(b) {
                allAtext = false
            }
            if b == UInt8(ascii: "?") && previous == UInt8(ascii: "=") { printable = false }
            previous = b
        }
        if previous == 0x20 { allAtext = false }
        if allAtext && printable && u.count <= 70 {
            for word in name.split(separator: " ") { folder.append(word.utf8, to: &out) }
        } else if printable && u.count <= 60 {
            var quoted: [UInt8] = [UInt8(ascii: "\"")]
            for b in u {
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { quoted.append(UInt8(ascii: "\\")) }
                quoted.append(b)
            }
            quoted.append(UInt8(ascii: "\""))
            folder.append(quoted, to: &out)
        } else {
            appendEncodedWords(name[...].utf8, preferSingle: true, folder: &folder, to: &out)
        }
    }

    // MARK: Bodies

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

    // MARK: Attachments (RFC 2183 + RFC 2231)

    static func isAttributeChar(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || "!#$&+-.^_`|~".utf8.contains(b)
    }

    static func appendAttachment(_ attachment: Attachment, to out: inout [UInt8]) {
        let name = attachment.filename
        let plain =
            !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        out.append(contentsOf: "Content-Type: ".utf8)
        out.append(contentsOf: attachment.mediaType.utf8)
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

/// RFC 2045 quoted-printable on CRLF-normalized input: lines ≤ 76 octets with soft breaks, trailing
/// whitespace encoded, `=XX` never split.
enum QuotedPrintable {
    static func append(_ body: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + body.count + body.count / 4)
        walk(body) { b, literal, softBreak in
            if softBreak {
                out.append(61)
                out.append(13)
                out.append(10)
            }
            if literal {
                out.append(b)
            } else {
                out.append(61)
                out.append(MIME.hexDigits[Int(b >> 4)])
                out.append(MIME.hexDigits[Int(b & 15)])
            }
        } lineBreak: {
            out.append(13)
            out.append(10)
        }
    }

    /// The length `append` would produce, without producing it.
    static func encodedLength(_ body: [UInt8]) -> Int {
        var n = 0
        walk(body) { _, literal, softBreak in
            n += (literal ? 1 : 3) + (softBreak ? 3 : 0)
        } lineBreak: {
            n += 2
        }
        return n
    }

    /// Drives encoding: for each input octet, whether it stays literal and whether a soft break precedes it.
    @inline(__always)
    static func walk(_ body: [UInt8], octet: (UInt8, Bool, Bool) -> Void, lineBreak: () -> Void) {
        var lineLength = 0
        var i = 0
        let n = body.count
        while i < n {
            let b = body[i]
            if b == 13 && i + 1 < n && body[i + 1] == 10 {
                lineBreak()
                lineLength = 0
                i += 2
                continue
            }
            let atLineEnd = i + 1 == n || (body[i + 1] == 13 && i + 2 < n && body[i + 2] == 10)
            let literal: Bool
            if b == 0x20 || b == 0x09 {
                literal = !atLineEnd
            } else {
                literal = b >= 33 && b <= 126 && b != 61
            }
            let cost = literal ? 1 : 3
            // Keep room for a soft break '=' unless this is the last thing on the line.
            let limit = atLineEnd ? 76 : 75
            let soft = lineLength + cost > limit
            if soft { lineLength = 0 }
            octet(b, literal, soft)
            lineLength += cost
            i += 1
        }
    }
}

/// RFC 4648 base64.
enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encodedLength(_ count: Int, lineBreaks: Bool) -> Int {
        let chars = (count + 2) / 3 * 4
        return lineBreaks ? chars + (chars + 75) / 76 * 2 : chars
    }

    static func append<C: Collection<UInt8>>(_ data: C, to out: inout [UInt8]) where C.Index == Int {
        var i = data.startIndex
        let end = data.endIndex
        while i + 2 < end {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(alphabet[Int((v >> 6) & 63)])
            out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = end - i
        if rest == 1 {
            let v = UInt32(data[i]) << 16
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(61)
            out.append(61)
        } else if rest == 2 {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(alphabet[Int((v >> 6) & 63)])
            out.append(61)
        }
    }

    /// Base64 in 76-character lines, each ending in CRLF.
    static func appendLines(_ data: [UInt8], to out: inout [UInt8]) {
        var i = 0
        while i < data.count {
            let end = min(i + 57, data.count)
            append(data[i..<end], to: &out)
            out.append(13)
            out.append(10)
            i = end
        }
    }
}
