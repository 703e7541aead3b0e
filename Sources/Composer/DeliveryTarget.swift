import Foundation

/// Where a batch of drafts goes: draft files, `mailto:`/`sms:` URIs, a Maildir or an mbox (written at once),
/// or a mail server (SMTP or a local sendmail) through an `Outbox` — or any ``DeliveryTransport`` of one's
/// own.
///
/// ```swift
/// var smtp = try SMTPConfiguration(url: "smtp://mail.example.com:587")
/// smtp.startTLS = .required
/// let target = DeliveryTarget.smtp(smtp)
/// let files = DeliveryTarget.files(URL(fileURLWithPath: "drafts"))
/// var mta = SendmailTransport(path: "/usr/sbin/sendmail"); mta.timeout = 120
/// let local = DeliveryTarget.sendmail(mta)
/// ```
public struct DeliveryTarget: Sendable {
    /// The transport the drafts go through.
    public var transport: any DeliveryTransport

    /// A target of `transport`.
    public init(_ transport: any DeliveryTransport) { self.transport = transport }

    /// One `.eml` per mail draft and `messages.sms.txt` (one `sms:` URI a line) in the folder (`FileTransport`).
    public static func files(_ directory: URL) -> DeliveryTarget { DeliveryTarget(FileTransport(directory: directory)) }
    /// A `mailto:` or `sms:` URI per draft, handed to the caller (nothing is written).
    public static var uris: DeliveryTarget { DeliveryTarget(URIEvents()) }
    /// An SMTP server, through an outbox.
    public static func smtp(_ configuration: SMTPConfiguration) -> DeliveryTarget { DeliveryTarget(configuration) }
    /// A local sendmail program, through an outbox.
    public static func sendmail(_ transport: SendmailTransport) -> DeliveryTarget { DeliveryTarget(transport) }
    /// A Maildir folder (`MaildirTransport`): every mail draft written into `new/` at once.
    public static func maildir(_ directory: URL) -> DeliveryTarget {
        DeliveryTarget(MaildirTransport(directory: directory))
    }
    /// An mbox file (`MboxTransport`, mboxrd): every mail draft appended at once, under the file's lock.
    public static func mbox(_ file: URL) -> DeliveryTarget { DeliveryTarget(MboxTransport(file: file)) }

    /// True for the targets that deliver through an `Outbox` (SMTP and sendmail: mail only).
    public var needsOutbox: Bool { transport.needsOutbox }

    /// What the mail goes through: the SMTP URL, the sendmail program's path, the Maildir or mbox (empty
    /// for files and URIs).
    public var via: String { transport.via }

    /// Checks, before anything is rendered, what can be checked without sending: for files, that the
    /// folder is one or can be made (``FileTransport/checkDirectory()``). Other targets are checked when
    /// they are used.
    ///
    /// ```swift
    /// try DeliveryTarget.files(URL(fileURLWithPath: "drafts")).prepare()
    /// ```
    public func prepare() throws(ComposerError) { try transport.prepare() }

    /// The transport an outbox sends with.
    /// - Throws: `ComposerError.mailUnavailable` for files and URIs (nothing to send with), when the sendmail
    ///   program is not executable, or when libcurl cannot be initialized.
    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        try transport.envelopeTransport()
    }
}
