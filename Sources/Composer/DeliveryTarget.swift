import Foundation

/// Where a batch of drafts goes: draft files, `mailto:`/`sms:` URIs, or a mail server (SMTP or a local
/// sendmail) through an `Outbox`.
///
/// ```swift
/// var smtp = try SMTPConfiguration(url: "smtp://mail.example.com:587")
/// smtp.startTLS = .required
/// let target = DeliveryTarget.smtp(smtp)
/// let files = DeliveryTarget.files(URL(fileURLWithPath: "drafts"))
/// var mta = SendmailTransport(path: "/usr/sbin/sendmail"); mta.timeout = 120
/// let local = DeliveryTarget.sendmail(mta)
/// ```
public enum DeliveryTarget: Sendable {
    /// One `.eml` per mail draft and `messages.sms.txt` (one `sms:` URI a line) in the folder (`FileTransport`).
    case files(URL)
    /// A `mailto:` or `sms:` URI per draft, handed to the caller (nothing is written).
    case uris
    /// An SMTP server, through an outbox.
    case smtp(SMTPConfiguration)
    /// A local sendmail program, through an outbox.
    case sendmail(SendmailTransport)
    /// A Maildir folder (`MaildirTransport`): every mail draft written into `new/` at once.
    case maildir(URL)
    /// An mbox file (`MboxTransport`, mboxrd): every mail draft appended at once, under the file's lock.
    case mbox(URL)

    /// True for SMTP and sendmail: the targets that deliver through an `Outbox` (mail only).
    public var needsOutbox: Bool {
        switch self {
        case .smtp, .sendmail: return true
        case .files, .uris, .maildir, .mbox: return false
        }
    }

    /// What the mail goes through: the SMTP URL or the sendmail program's path (empty for files and URIs).
    public var via: String {
        switch self {
        case .smtp(let c): return c.url
        case .sendmail(let t): return t.path
        case .maildir(let url), .mbox(let url): return url.path
        case .files, .uris: return ""
        }
    }

    /// Checks, before anything is rendered, what can be checked without sending: for files, that the
    /// folder is one or can be made (``FileTransport/checkDirectory()``). Other targets are checked when
    /// they are used.
    ///
    /// ```swift
    /// try DeliveryTarget.files(URL(fileURLWithPath: "drafts")).prepare()
    /// ```
    public func prepare() throws(ComposerError) {
        switch self {
        case .files(let directory), .maildir(let directory):
            try FileTransport(directory: directory).checkDirectory()
        case .mbox(let file):
            var info = stat()
            if stat(file.path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFREG else {
                    throw .io(path: file.path, message: "is not a plain file (expected an mbox file)")
                }
                guard access(file.path, W_OK) == 0 else {
                    throw .io(path: file.path, message: "cannot be written: \(AtomicFile.errnoText())")
                }
            } else {
                try FileTransport(directory: file.deletingLastPathComponent()).checkDirectory()
            }
        case .uris, .smtp, .sendmail: break
        }
    }

    /// The transport an outbox sends with.
    /// - Throws: `ComposerError.mailUnavailable` for files and URIs (nothing to send with), when the sendmail
    ///   program is not executable, or when libcurl cannot be initialized.
    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        switch self {
        case .smtp(let configuration):
            do { return try SMTPTransport(configuration: configuration) } catch let error as ComposerError {
                throw error
            } catch {
                throw .mailUnavailable(reason: "\(error)")
            }
        case .sendmail(let transport):
            guard transport.canSendMail else { throw .mailUnavailable(reason: "\(transport.path) is not executable") }
            return transport
        case .files, .uris, .maildir, .mbox:
            throw .mailUnavailable(reason: "an outbox sends through SMTP or sendmail, not to files or URIs")
        }
    }
}
