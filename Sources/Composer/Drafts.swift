/// A file attached to a mail draft: bytes held in memory, or a file read only while the message is
/// written (``Attachment/init(contentsOfFile:)``), so a batch of drafts never holds every attachment.
///
/// ```swift
/// let a = Attachment(filename: "Überblick.pdf", mediaType: "application/pdf", data: bytes)
/// a.size   // bytes.count
/// ```
public struct Attachment: Sendable, Hashable {
    /// The file name shown to the recipient (any script; written with RFC 2231 and an RFC 2047 `name`).
    public var filename: String
    /// `type/subtype`, e.g. `text/vcard` or `application/pdf`.
    public var mediaType: String
    /// Where the content is.
    public var content: Content
    /// Set for an image shown inside the HTML body (`<img src="cid:ID">`, RFC 2392): the part is written
    /// inline with this `Content-ID`, inside `multipart/related` with the HTML (``MailDraft/inlineImages``).
    public var contentID: String?

    /// Where an attachment's bytes are.
    public enum Content: Sendable, Hashable {
        /// Held in memory.
        case bytes([UInt8])
        /// A file, read when the message is written; refused then if it is no longer the file attached.
        case file(AttachedFile)
    }

    /// An attachment of bytes in memory; the media type is checked when the message is written.
    public init(filename: String, mediaType: String, data: [UInt8]) {
        self.filename = filename
        self.mediaType = mediaType
        self.content = .bytes(data)
    }

    /// The content's size in bytes (before base64).
    public var size: Int {
        switch content {
        case .bytes(let bytes): return bytes.count
        case .file(let file): return file.size
        }
    }
}

/// A file attached by path: what it was when attached (size, device, inode, modification time), so that
/// writing the message later reads that file or refuses.
public struct AttachedFile: Sendable, Hashable {
    /// The path the file is read from.
    public let path: String
    /// Its size in bytes when attached.
    public let size: Int
    let device: UInt64
    let inode: UInt64
    let modified: Int64
}

/// One extra header field (`X-Campaign: spring`). Names the writer owns (From, Subject, Content-Type, …)
/// and CR/LF/NUL anywhere are refused when the message is written.
public struct MailHeader: Sendable, Hashable {
    public var name: String
    public var value: String
    /// A header field; checked when the message is written.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Checks `name` as the writer will: a field name (printable ASCII, no `:`), not one the writer
    /// makes from the draft's fields. Throws `ComposerError.invalidHeaderName` otherwise.
    public static func checkName(_ name: String) throws {
        _ = try MIME.checkExtraHeaderName(name)
    }
}

/// An e-mail ready to be written as MIME or handed to a transport (what iOS's mail compose
/// sheet, `MFMailComposeViewController`, is filled with).
///
/// ```swift
/// var draft = MailDraft(subject: "Grüße", textBody: "Hallo!")
/// draft.from = try MailAddress(name: "Anna", address: "anna@example.com")
/// draft.to = [try MailAddress(name: "Jürgen Müller, Esq.", address: "jm@example.org")]
/// let bytes = try MIMEWriter().write(draft)
/// ```
public struct MailDraft: Sendable, Hashable {
    public var from: MailAddress?
    public var to: [MailAddress]
    public var cc: [MailAddress]
    /// Envelope-only recipients; written into saved drafts, never into messages handed to a server.
    public var bcc: [MailAddress]
    public var replyTo: [MailAddress]
    public var subject: String
    public var textBody: String
    /// When set, the message is `multipart/alternative` (text first, then HTML).
    public var htmlBody: String?
    public var attachments: [Attachment]
    public var extraHeaders: [MailHeader]
    /// BCP 47 tag written as `Content-Language`.
    public var locale: String?
    /// Where the recipient can leave the mailing: `https:` and `mailto:` URIs, written as
    /// `List-Unsubscribe` (RFC 2369), with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058)
    /// when one of them is `https:`. Characters a URI cannot hold (spaces, non-ASCII, `<>",`) are
    /// percent-encoded when the message is written.
    public var listUnsubscribe: [String] = []
    /// The envelope sender (SMTP `MAIL FROM`, where bounces go) when it is not ``from``'s address: e.g. a
    /// VERP address (``VERP/envelopeSender(for:returnPath:)``). An outbox queues the message with it.
    public var envelopeSender: String?
    /// Images the HTML body shows by `cid:` (each with its ``Attachment/contentID``): written with the
    /// HTML part in `multipart/related` (RFC 2387). Without an HTML body they are not written.
    public var inlineImages: [Attachment] = []

    /// A draft; every field may be filled later. `MIMEWriter` checks what it needs (from, a recipient).
    public init(
        from: MailAddress? = nil, to: [MailAddress] = [], cc: [MailAddress] = [], bcc: [MailAddress] = [],
        replyTo: [MailAddress] = [], subject: String = "", textBody: String = "", htmlBody: String? = nil,
        attachments: [Attachment] = [], extraHeaders: [MailHeader] = [], locale: String? = nil
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.replyTo = replyTo
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.attachments = attachments
        self.extraHeaders = extraHeaders
        self.locale = locale
    }

    /// Every envelope recipient (to, cc, bcc) in ASCII form, duplicates removed, order kept.
    public var envelopeRecipients: [String] {
        var seen = Set<String>()
        return (to + cc + bcc).map(\.asciiAddress).filter { seen.insert($0.lowercased()).inserted }
    }
}

/// A text message (SMS) draft, what iOS's message compose sheet
/// (`MFMessageComposeViewController`) is filled with.
///
/// ```swift
/// let sms = MessageDraft(recipients: ["+15555550123"], body: "See you at 6")
/// let uri = try SMSURI(draft: sms).string   // "sms:+15555550123?body=See%20you%20at%206"
/// ```
public struct MessageDraft: Sendable, Hashable {
    /// E.164 numbers (`+` and digits); checked when a URI or file is made.
    public var recipients: [String]
    public var body: String
    /// A text message draft; numbers are checked when a URI or file is made.
    public init(recipients: [String], body: String) {
        self.recipients = recipients
        self.body = body
    }
}

/// What became of a draft, like the result iOS's compose sheets report (`MFMailComposeResult`,
/// `MessageComposeResult`: sent, saved, cancelled, failed).
public enum ComposeResult: Sendable, Equatable {
    /// Handed to a server or MTA that accepted it.
    case sent
    /// Written to disk (a `.eml` draft or URI file) or shown as a URI, not delivered.
    case saved
    /// The user or caller gave up before anything happened.
    case cancelled
    /// Delivery failed; the error keeps the reason (SMTP reply code, network error).
    case failed(ComposerError)
}

/// Something that can deliver or save mail drafts.
///
/// `send` throws for drafts that cannot be written at all (invalid input, transport unavailable) and
/// returns `.failed` for delivery failures, so a batch can go on with the next draft.
///
/// ```swift
/// let transport: any MailTransport = FileTransport(directory: URL(fileURLWithPath: "out"))
/// guard transport.canSendMail else { throw ComposerError.mailUnavailable(reason: "…") }
/// let result = try transport.send(draft)
/// ```
public protocol MailTransport: Sendable {
    var canSendMail: Bool { get }
    func send(_ draft: MailDraft) throws -> ComposeResult
}

/// Something that can deliver or save text-message drafts.
public protocol MessageTransport: Sendable {
    var canSendText: Bool { get }
    func send(_ draft: MessageDraft) throws -> ComposeResult
}
