/// Everything that can go wrong while composing or delivering a message.
///
/// Cases say what happened and where (which field, which file and line, which SMTP reply). Turning them
/// into user-facing, localized alert text is the caller's job (through the strings catalog).
///
/// ```swift
/// do { _ = try MailAddress(name: nil, address: "not an address") }
/// catch ComposerError.invalidAddress(let value, let reason) { print(value, reason) }
/// ```
public enum ComposerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The transport cannot send mail (not configured, no MTA, no network); `reason` says why.
    case mailUnavailable(reason: String)
    /// The transport cannot send text messages; `reason` says why.
    case messagingUnavailable(reason: String)
    /// An address is not a valid RFC 5322 addr-spec (or its domain is not a valid IDN).
    case invalidAddress(String, reason: String)
    /// A header input (`field`) contains CR, LF or NUL: refused so that no header can be injected.
    case headerInjection(field: String)
    /// An extra header name is not an RFC 5322 field name, or names a header the writer owns.
    case invalidHeaderName(String, reason: String)
    /// A required draft field is missing or empty (`field` names it).
    case missingField(String)
    /// An attachment's media type is not `type/subtype` made of RFC 2045 tokens.
    case invalidMediaType(String)
    /// The written message is `size` bytes, more than the `limit` a message may have (its attachments make
    /// it too large for the server or the delivery's ``Delivery/maxMessageSize``).
    case messageTooLarge(size: Int, limit: Int)
    /// The written message is `size` bytes, more than the `limit` the SMTP server at `server` announced in
    /// its EHLO reply (`SIZE`, RFC 1870): refused before it is sent, as the server would refuse it.
    case exceedsServerSize(size: Int, limit: Int, server: String)
    /// A locale is not a BCP 47 language tag.
    case invalidLocale(String)
    /// A phone number is not in E.164 form (`+` then 2–15 digits, no leading zero).
    case invalidPhoneNumber(String)
    /// A `mailto:`/`sms:` URI (or a transport URL) could not be parsed; `reason` says what was expected.
    case invalidURI(String, reason: String)
    /// The SMTP server answered with a failure reply; `code` is the reply code (4xx transient, 5xx permanent).
    case smtp(code: Int, message: String)
    /// A network failure before any SMTP reply (libcurl error `code`); transient.
    case network(code: Int, message: String)
    /// The server refused the credentials (`code` is its reply, e.g. 535). A problem of the configuration,
    /// not of any one message: an outbox run stops and leaves the messages queued.
    case authenticationFailed(code: Int, message: String)
    /// TLS could not be set up: certificate not trusted, STARTTLS required but not offered, handshake
    /// failure (libcurl error `code`). Like `authenticationFailed`, it stops an outbox run.
    case tls(code: Int, message: String)
    /// The sendmail program failed or could not be started. Exit status 75 (`EX_TEMPFAIL`) is transient.
    case sendmail(status: Int32, message: String)
    /// The SMS program exited with `status` (75, `EX_TEMPFAIL`, is transient); `message` is what it printed.
    case smsProgram(status: Int32, message: String)
    /// The transport handed the message over (SMTP's final `.` was sent, sendmail was started) and then
    /// lost track of it: connection dropped or timed out before the reply, sendmail killed. The server may
    /// or may not have accepted the message; sending it again may deliver it twice. Never retried.
    case deliveryUncertain(reason: String)
    /// A file could not be read or written.
    case io(path: String, message: String)
    /// The outbox journal is damaged at `line` (1-based), or (line 0) the outbox at `path` refuses a request
    /// about its messages; the description names a line only when there is one.
    case journal(path: String, line: Int, message: String)
    /// There is no outbox folder at `path` to resume.
    case outboxMissing(path: String)
    /// An outbox of the same batch at `path` is not settled (messages queued, deferred or uncertain, or
    /// its queueing cut short): a new outbox would send them again; it is to be resumed
    /// (``Outbox/unfinished(batch:in:)``).
    case unfinishedBatch(path: String)
    /// AUTH would have been sent in clear text: the server at `server` is not on the loopback interface (or
    /// plaintext AUTH is off even there, ``SMTPConfiguration/PlaintextAuth/never``) and offers no STARTTLS.
    /// Nothing was sent; the user name and password never left.
    case credentialsNeedTLS(server: String)
    /// What the user did wrong: delivery options that do not go together or a value one does not take
    /// (``DeliveryRequest/target(password:)``); the text names the options.
    case invalidOptions(String)

    /// Whether a retry later may succeed: SMTP 4xx replies, network failures before the message was handed
    /// over, sendmail's `EX_TEMPFAIL` (75).
    public var isTransient: Bool {
        switch self {
        case .smtp(let code, _): return (400..<500).contains(code)
        case .network: return true
        case .sendmail(let status, _), .smsProgram(let status, _): return status == 75
        default: return false
        }
    }

    /// Whether the error concerns the transport's configuration (server, credentials, TLS) rather than a
    /// message: retrying other messages cannot help until it is fixed.
    public var isConfigurationError: Bool {
        switch self {
        case .mailUnavailable, .messagingUnavailable, .authenticationFailed, .tls, .credentialsNeedTLS: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .mailUnavailable(let r): return "mail unavailable: \(r)"
        case .messagingUnavailable(let r): return "messaging unavailable: \(r)"
        case .invalidAddress(let a, let r): return "invalid address '\(a)': \(r)"
        case .headerInjection(let f): return "\(f): CR, LF or NUL is not allowed in a header field"
        case .invalidHeaderName(let n, let r): return "invalid header name '\(n)': \(r)"
        case .missingField(let f): return "\(f): required field is missing or empty"
        case .invalidMediaType(let m): return "invalid media type '\(m)': expected type/subtype"
        case .messageTooLarge(let size, let limit):
            return "the message is \(size) bytes, more than the limit of \(limit) bytes (attachments too large?)"
        case .exceedsServerSize(let size, let limit, let server):
            return "the message is \(size) bytes, more than the SIZE limit of \(limit) bytes that \(server) announces"
        case .invalidLocale(let l): return "invalid locale '\(l)': expected a BCP 47 tag such as de-CH"
        case .invalidPhoneNumber(let p): return "invalid phone number '\(p)': expected E.164 such as +15555550123"
        case .invalidURI(let u, let r): return "invalid URI '\(u)': \(r)"
        case .smtp(let c, let m): return "SMTP \(c): \(m)"
        case .network(let c, let m): return "network error \(c): \(m)"
        case .authenticationFailed(let c, let m): return "authentication failed (\(c)): \(m)"
        case .tls(let c, let m): return "TLS failed (\(c)): \(m)"
        case .sendmail(let s, let m): return "sendmail exited with \(s): \(m)"
        case .smsProgram(let s, let m): return "the SMS program exited with \(s): \(m)"
        case .deliveryUncertain(let r): return "outcome unknown (the server may have accepted the message): \(r)"
        case .io(let p, let m): return "\(p): \(m)"
        case .journal(let p, let l, let m): return l > 0 ? "\(p):\(l): \(m)" : "\(p): \(m)"
        case .outboxMissing(let p): return "\(p): no outbox here"
        case .unfinishedBatch(let p): return "\(p): an unfinished outbox of the same batch"
        case .invalidOptions(let text): return text
        case .credentialsNeedTLS(let server):
            return "\(server) offers no STARTTLS, and the password is sent only after TLS (it would travel in clear "
                + "text): use smtps://, a server with STARTTLS, or allow AUTH without TLS explicitly"
        }
    }
}

extension ComposerError {
    /// `error` itself when it is a `ComposerError`, else an `.io` error at `path` that describes it.
    init(_ error: any Error, path: String = "") {
        self = error as? ComposerError ?? .io(path: path, message: "\(error)")
    }
}
