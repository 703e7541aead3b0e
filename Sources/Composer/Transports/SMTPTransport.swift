import CurlTransfer
import Foundation
import Synchronization

/// SMTP through libcurl: `smtp://`, `smtps://`, STARTTLS (optional or required), AUTH PLAIN/LOGIN, CA file,
/// timeouts. Failures keep the server's reply code and text (`ComposerError.smtp(code:message:)`; 4xx are
/// transient). The envelope is validated before anything is sent: libcurl would pass CR/LF in a recipient
/// straight to the server.
///
/// One libcurl handle per transport keeps the connection open between messages; deliveries through one
/// transport take turns on it (the transport is `Sendable`: tasks and threads may share it).
///
/// ```swift
/// let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:2525"))
/// switch try smtp.send(draft) { case .sent: print("ok"); case .failed(let e): print(e); default: break }
/// ```
public final class SMTPTransport: MailTransport, EnvelopeTransport, Sendable {
    public let configuration: SMTPConfiguration
    /// Renders drafts for `send(_:)`; `deliver` takes bytes rendered elsewhere (an outbox's).
    public let writer: MIMEWriter
    /// The libcurl handle and its open connection: one delivery at a time uses them.
    private let connection = Mutex(Connection())

    /// What one delivery at a time may touch.
    private struct Connection {
        /// The connection libcurl keeps open between messages (closed after a failure).
        var link = SMTPLink()
        /// What the server offered in its last EHLO reply (nil before the first connection).
        var capabilities: SMTPCapabilities?
        /// What the last connection did (TLS, AUTH).
        var session: SMTPSessionReport?
    }

    /// What the server offered when this transport last connected (its EHLO reply), nil before that.
    /// A message larger than its `SIZE` is refused before it is sent (``ComposerError/exceedsServerSize(size:limit:server:)``).
    public var serverCapabilities: SMTPCapabilities? { connection.withLock { $0.capabilities } }

    /// A transport for `configuration`; connects on the first delivery.
    /// - Parameters:
    ///   - configuration: the server and how to reach it.
    ///   - writer: renders drafts for `send(_:)` (the default leaves out `Bcc`, as a sent message must).
    /// - Throws: `ComposerError.mailUnavailable` when libcurl cannot be initialized.
    public init(configuration: SMTPConfiguration, writer: MIMEWriter = MIMEWriter()) throws {
        guard CurlLibrary.isInitialized else {
            throw ComposerError.mailUnavailable(reason: "libcurl failed to initialize")
        }
        self.configuration = configuration
        self.writer = writer
    }

    /// Whether this libcurl was built with the protocol the URL needs (smtp or smtps).
    public var canSendMail: Bool { CurlLibrary.supports(configuration.isImplicitTLS ? "smtps" : "smtp") }

    /// Renders and delivers `draft` (Bcc recipients only in the envelope). Delivery failures come back as
    /// `.failed`; invalid drafts throw.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard canSendMail else {
            throw ComposerError.mailUnavailable(reason: "libcurl lacks \(configuration.url.prefix { $0 != ":" })")
        }
        let bytes = try writer.write(draft)
        guard let from = draft.from else { throw ComposerError.missingField("from") }
        do {
            try deliver(bytes, from: from.asciiAddress, to: draft.envelopeRecipients, onCommit: {})
            return .sent
        } catch {
            return .failed(error)
        }
    }

    /// Checks an envelope address: a valid addr-spec in ASCII, nothing that could break the SMTP command.
    static func checkEnvelope(_ address: String) throws(ComposerError) {
        do {
            let ascii = try AddrSpec.validate(address)
            guard ascii == address else {
                throw ComposerError.invalidAddress(
                    address, reason: "envelope addresses must be ASCII (use asciiAddress)")
            }
            guard !address.contains("<"), !address.contains(">") else {
                throw ComposerError.invalidAddress(address, reason: "angle brackets in an envelope address")
            }
        } catch let e as ComposerError {
            throw e
        } catch {
            throw ComposerError.invalidAddress(address, reason: "\(error)")
        }
    }

    /// Delivers raw message bytes to an envelope after validating it; throws `.smtp(code:message:)` with the
    /// server's reply, `.network` for connection/TLS failures, `.invalidAddress`/`.headerInjection` for a bad
    /// envelope (nothing is sent then).
    public func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        // All or none: libcurl stops at the first refused recipient, whose refusal stands for the message.
        let refused = try transfer(message, from: sender, to: recipients, onCommit: onCommit, partial: false)
        if let first = recipients.first(where: { refused[$0] != nil }), let error = refused[first] { throw error }
    }

    /// Delivers to every recipient the server accepts at RCPT (libcurl goes on past a refused one): returns
    /// the refused recipients with the server's reply (`.smtp(code:message:)`, the address named in it).
    /// Every recipient refused: nothing was handed over, and each is in the result.
    public func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError] {
        try transfer(message, from: sender, to: recipients, onCommit: onCommit, partial: true)
    }

    /// One delivery; with `partial`, past refused recipients.
    private func transfer(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void, partial: Bool
    ) throws(ComposerError) -> [String: ComposerError] {
        try Self.checkEnvelope(sender)
        guard !recipients.isEmpty else { throw ComposerError.missingField("recipients") }
        for r in recipients { try Self.checkEnvelope(r) }
        return try connection.withLock { (connection) throws(ComposerError) -> [String: ComposerError] in
            // The server said how large a message it takes: a larger one is not offered to it at all. (Before
            // the first EHLO, libcurl declares the size with MAIL FROM and such a server refuses it there.)
            if let limit = connection.capabilities?.sizeLimit, message.count > limit {
                throw ComposerError.exceedsServerSize(size: message.count, limit: limit, server: configuration.url)
            }
            return try withoutActuallyEscaping(onCommit) { (onCommit) throws(ComposerError) in
                try perform(
                    connection: &connection, message: message, from: sender, to: recipients, onCommit: onCommit,
                    partial: partial)
            }
        }
    }

    /// Tries the server without sending anything: connects, reads the greeting, says EHLO, starts TLS as
    /// configured and authenticates when credentials are set, then hangs up (what a capability check needs).
    /// Returns what the server offered in its EHLO reply (its `SIZE` limit among them).
    ///
    /// ```swift
    /// let caps = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:2525")).check()
    /// print(caps.sizeLimit ?? 0, caps.extensions)
    /// ```
    /// - Throws: `.network` (no connection, no such host), `.tls`, `.authenticationFailed`, or `.smtp` with the
    ///   server's refusal.
    @discardableResult
    public func check() throws(ComposerError) -> SMTPCapabilities { try checkSession().capabilities }

    /// ``check()`` with what the connection did: whether TLS was used and AUTH accepted, and what the
    /// server offered.
    public func checkSession() throws(ComposerError) -> SMTPSessionReport {
        try connection.withLock { (connection) throws(ComposerError) -> SMTPSessionReport in
            _ = try perform(connection: &connection, message: [], from: "", to: [], onCommit: {}, connectOnly: true)
            // A connect-only handle carries no transfer: close it; a delivery opens its own connection.
            connection.link.close()
            return connection.session
                ?? SMTPSessionReport(capabilities: SMTPCapabilities(ehloReply: []), tls: .none)
        }
    }

    /// One transaction on `connection` (which the caller holds locked): the request libcurl gets (TLS
    /// and credentials by the configuration's rules), and what came of it as a `ComposerError`.
    private func perform(
        connection: inout Connection, message: [UInt8], from sender: String, to recipients: [String],
        onCommit: @escaping () throws -> Void, partial: Bool = false, connectOnly: Bool = false
    ) throws(ComposerError) -> [String: ComposerError] {
        let c = configuration
        // Credentials never travel in clear text: AUTH waits for TLS unless the rule allows it here. A server
        // let off because it is on the loopback interface is reached only at the addresses that were judged.
        var credentialsNeedTLS = false
        var request = SMTPRequest(
            url: c.url, connectTimeout: c.connectTimeout, commandTimeout: c.commandTimeout,
            dataTimeout: c.dataTimeout, startTLS: .unset)
        if c.username != nil && !c.isImplicitTLS && c.plaintextAuth != .allowed {
            let peers = c.plaintextAuth == .loopbackOnly ? c.resolvePeers() : []
            credentialsNeedTLS = c.credentialsNeedTLS(peers: peers)
            let (host, port) = c.hostAndPort
            if !credentialsNeedTLS && !peers.contains(host) {
                let addresses = peers.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
                request.resolve = "\(host):\(port):\(addresses)"
            }
        }
        if credentialsNeedTLS {
            request.startTLS = .required
        } else if !c.isImplicitTLS {
            switch c.startTLS {
            case .off: request.startTLS = .off
            case .optional: request.startTLS = .optional
            case .required: request.startTLS = .required
            }
        }
        request.sender = sender
        request.recipients = recipients
        request.message = message
        request.partial = partial
        request.connectOnly = connectOnly
        request.caFile = c.caFile
        request.user = c.username
        request.password = c.password
        request.loginOptions = c.authMechanism.map { "AUTH=\($0.rawValue)" }

        let context = TransferContext()
        defer {
            if let capabilities = context.ehlo.capabilities {
                connection.capabilities = capabilities
                connection.session = SMTPSessionReport(
                    capabilities: capabilities,
                    tls: c.isImplicitTLS ? .implicit : context.session.startedTLS ? .startTLS : .none,
                    authentication: context.session.acceptedMechanism)
            }
        }
        let outcome: SMTPOutcome
        do { outcome = try connection.link.perform(request, observer: context, onCommit: onCommit) } catch {
            throw ComposerError.mailUnavailable(reason: "\(error)")
        }
        return try Self.result(of: outcome, recipients: recipients, credentialsNeedTLS: credentialsNeedTLS, c)
    }

    /// What a transaction came to: the refused recipients when the message went (or nobody took it), else
    /// the failure, classified (server refusal, uncertain delivery, login, TLS, network).
    private static func result(
        of outcome: SMTPOutcome, recipients: [String], credentialsNeedTLS: Bool, _ c: SMTPConfiguration
    ) throws(ComposerError) -> [String: ComposerError] {
        if let thrown = outcome.commitError {
            // The outbox's journal could not record the commit point: stop, nothing was completed.
            throw thrown as? ComposerError ?? ComposerError.io(path: "journal", message: "\(thrown)")
        }
        let refused = outcome.refused.mapValues { ComposerError.smtp(code: $0.code, message: $0.reply) }
        guard let failure = outcome.failure else { return refused }
        var response = outcome.responseCode
        var detail = outcome.detail
        if let timedOut = outcome.timedOut { detail = "no reply within \(Self.seconds(timedOut)) s" }
        let curlText = outcome.text
        // Every recipient refused at RCPT: nothing was handed over; each refusal is the answer.
        if !outcome.committed && !recipients.isEmpty && recipients.allSatisfy({ refused[$0] != nil }) {
            return refused
        }
        if outcome.committed {
            // The message was handed over. Only the server's reply to the final "." says what became of it;
            // without one (dropped, reset, timed out) it may be stored already: uncertain, never retried.
            let reply = outcome.replyAfterCommit
            if let first = reply.utf8.first, first == UInt8(ascii: "2") { return refused }
            if let replyCode = Int(reply.prefix(3)), replyCode >= 400 {
                throw ComposerError.smtp(code: replyCode, message: reply)
            }
            throw ComposerError.deliveryUncertain(
                reason: "no reply after the end of the message (\(detail.isEmpty ? curlText : detail))")
        }
        if response < 400, let code = Int(outcome.failureReply.prefix(3)), code >= 400 { response = code }
        let text = detail.isEmpty ? curlText : "\(curlText): \(detail)"
        if failure == .loginDenied {
            throw ComposerError.authenticationFailed(
                code: response, message: outcome.failureReply.isEmpty ? text : outcome.failureReply)
        }
        if failure == .startTLSFailed && credentialsNeedTLS && c.startTLS != .required {
            throw ComposerError.credentialsNeedTLS(server: c.url)
        }
        if failure == .tls || failure == .startTLSFailed {
            throw ComposerError.tls(code: outcome.code, message: text)
        }
        if response >= 400 {
            throw ComposerError.smtp(
                code: response, message: outcome.failureReply.isEmpty ? detail : outcome.failureReply)
        }
        throw ComposerError.network(code: outcome.code, message: text)
    }
}

extension SMTPTransport {
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// `CurlLibrary.plainWords(_:)` (CurlTransfer).
    static func plainWords(_ detail: String) -> String { CurlLibrary.plainWords(detail) }
}
