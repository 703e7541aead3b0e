import CCurl
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
        /// The libcurl easy handle (nil until the first delivery, and after a failure closed it).
        var handle: CurlHandle?
        /// The socket of the connection libcurl keeps open between messages (-1: none yet).
        var socket: Int32 = -1
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

    deinit {
        connection.withLock { if let handle = $0.handle { curl_easy_cleanup(handle.pointer) } }
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
            if connection.handle == nil { connection.handle = curl_easy_init().map(CurlHandle.init) }
            guard let curl = connection.handle?.pointer else {
                throw ComposerError.mailUnavailable(reason: "curl_easy_init failed")
            }
            curl_easy_reset(curl)
            return try withoutActuallyEscaping(onCommit) { (onCommit) throws(ComposerError) in
                try perform(
                    curl, connection: &connection, message: message, from: sender, to: recipients,
                    onCommit: onCommit, partial: partial)
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
            if connection.handle == nil { connection.handle = curl_easy_init().map(CurlHandle.init) }
            guard let curl = connection.handle?.pointer else {
                throw ComposerError.mailUnavailable(reason: "curl_easy_init failed")
            }
            curl_easy_reset(curl)
            _ = try perform(
                curl, connection: &connection, message: [], from: "", to: [], onCommit: {}, connectOnly: true)
            // A connect-only handle carries no transfer: close it; a delivery opens its own connection.
            if connection.handle != nil {
                curl_easy_cleanup(curl)
                connection.handle = nil
                connection.socket = -1
            }
            return connection.session
                ?? SMTPSessionReport(capabilities: SMTPCapabilities(ehloReply: []), tls: .none)
        }
    }

    /// One transaction on `curl`, the handle of `connection` (which the caller holds locked); closing the
    /// handle clears `connection.handle`.
    private func perform(
        _ curl: UnsafeMutableRawPointer, connection: inout Connection, message: [UInt8], from sender: String,
        to recipients: [String], onCommit: @escaping () throws -> Void, partial: Bool = false,
        connectOnly: Bool = false
    ) throws(ComposerError) -> [String: ComposerError] {
        let context = TransferContext(
            data: message, commandTimeout: configuration.commandTimeout, dataTimeout: configuration.dataTimeout,
            onCommit: onCommit)
        context.socket = connection.socket
        let c = configuration
        defer {
            connection.socket = connection.handle == nil ? -1 : context.socket
            if let capabilities = context.ehlo.capabilities {
                connection.capabilities = capabilities
                connection.session = SMTPSessionReport(
                    capabilities: capabilities,
                    tls: c.isImplicitTLS ? .implicit : context.session.startedTLS ? .startTLS : .none,
                    authentication: context.session.acceptedMechanism)
            }
        }
        // Credentials never travel in clear text: AUTH waits for TLS unless the rule allows it here. A server
        // let off because it is on the loopback interface is reached only at the addresses that were judged.
        var credentialsNeedTLS = false
        var pinned: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(pinned) }
        if c.username != nil && !c.isImplicitTLS && c.plaintextAuth != .allowed {
            let peers = c.plaintextAuth == .loopbackOnly ? c.resolvePeers() : []
            credentialsNeedTLS = c.credentialsNeedTLS(peers: peers)
            let (host, port) = c.hostAndPort
            if !credentialsNeedTLS && !peers.contains(host) {
                let addresses = peers.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
                pinned = curl_slist_append(nil, "\(host):\(port):\(addresses)")
            }
        }
        let ctx = Unmanaged.passUnretained(context).toOpaque()
        var recipientList: UnsafeMutablePointer<curl_slist>?
        for r in recipients { recipientList = curl_slist_append(recipientList, "<\(r)>") }
        defer { curl_slist_free_all(recipientList) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        var setupError: CURLcode = CURLE_OK
        func check(_ code: CURLcode) { if code != CURLE_OK && setupError == CURLE_OK { setupError = code } }
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { eb in
            check(ccurl_setopt_string(curl, CURLOPT_URL, c.url))
            if connectOnly {
                // Greeting, EHLO, STARTTLS and AUTH are libcurl's connection phase for SMTP.
                check(ccurl_setopt_long(curl, CURLOPT_CONNECT_ONLY, 1))
            } else {
                check(ccurl_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(sender)>"))
                check(ccurl_setopt_slist(curl, CURLOPT_MAIL_RCPT, recipientList))
                // A refused recipient (a Cc, a Bcc) does not sink the others: the accepted ones get it.
                if partial { check(ccurl_setopt_long(curl, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1)) }
                check(ccurl_setopt_long(curl, CURLOPT_UPLOAD, 1))
                check(ccurl_setopt_long(curl, CURLOPT_INFILESIZE_LARGE, message.count))
                check(ccurl_setopt_read_function(curl, transferRead))
                check(ccurl_setopt_pointer(curl, CURLOPT_READDATA, ctx))
            }
            check(ccurl_setopt_debug_function(curl, transferDebug))
            check(ccurl_setopt_pointer(curl, CURLOPT_DEBUGDATA, ctx))
            check(ccurl_setopt_long(curl, CURLOPT_VERBOSE, 1))
            check(ccurl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, eb.baseAddress))
            check(ccurl_setopt_long(curl, CURLOPT_NOSIGNAL, 1))
            check(ccurl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(c.connectTimeout)))
            // No limit on the whole transaction: the reply after DATA may take minutes. Replies are timed by
            // the progress callback (command vs. end-of-data timeout); libcurl's own per-reply limit (whole
            // seconds) is only a backstop behind it.
            check(ccurl_setopt_long(curl, CURLOPT_TIMEOUT_MS, 0))
            let backstop = Int(min(max(c.commandTimeout, c.dataTimeout, 1), 86_400).rounded(.up)) + 2
            check(ccurl_setopt_long(curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, backstop))
            check(ccurl_setopt_long(curl, CURLOPT_NOPROGRESS, 0))
            check(ccurl_setopt_xferinfo_function(curl, transferProgress))
            check(ccurl_setopt_pointer(curl, CURLOPT_XFERINFODATA, ctx))
            check(ccurl_setopt_sockopt_function(curl, transferSocket))
            check(ccurl_setopt_pointer(curl, CURLOPT_SOCKOPTDATA, ctx))
            if let pinned { check(ccurl_setopt_slist(curl, CURLOPT_RESOLVE, pinned)) }
            if credentialsNeedTLS {
                check(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
            } else if !c.isImplicitTLS {
                switch c.startTLS {
                case .off: check(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_NONE.rawValue)))
                case .optional: check(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_TRY.rawValue)))
                case .required: check(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
                }
            }
            if let caFile = c.caFile { check(ccurl_setopt_string(curl, CURLOPT_CAINFO, caFile)) }
            if let user = c.username { check(ccurl_setopt_string(curl, CURLOPT_USERNAME, user)) }
            if let password = c.password { check(ccurl_setopt_string(curl, CURLOPT_PASSWORD, password)) }
            if let mech = c.authMechanism {
                check(ccurl_setopt_string(curl, CURLOPT_LOGIN_OPTIONS, "AUTH=\(mech.rawValue)"))
            }
            guard setupError == CURLE_OK else { return setupError }
            return curl_easy_perform(curl)
        }
        if let thrown = context.commitError {
            // The outbox's journal could not record the commit point: stop, nothing was completed.
            curl_easy_cleanup(curl)
            connection.handle = nil
            throw thrown as? ComposerError ?? ComposerError.io(path: "journal", message: "\(thrown)")
        }
        let refused = context.refusedRecipients.mapValues {
            ComposerError.smtp(code: $0.code, message: $0.reply)
        }
        if code == CURLE_OK { return refused }
        var response = 0
        _ = ccurl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &response)
        var detail = Self.plainWords(errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        if let timedOut = context.timedOut { detail = "no reply within \(Self.seconds(timedOut)) s" }
        let curlText = String(cString: curl_easy_strerror(code))
        // A failed transaction may leave the connection in an unknown state: start afresh next time.
        curl_easy_cleanup(curl)
        connection.handle = nil
        // Every recipient refused at RCPT: nothing was handed over; each refusal is the answer.
        if !context.committed && !recipients.isEmpty && recipients.allSatisfy({ refused[$0] != nil }) {
            return refused
        }
        if context.committed {
            // The message was handed over. Only the server's reply to the final "." says what became of it;
            // without one (dropped, reset, timed out) it may be stored already: uncertain, never retried.
            let reply = context.replyAfterCommit
            if let first = reply.utf8.first, first == UInt8(ascii: "2") { return refused }
            if let replyCode = Int(reply.prefix(3)), replyCode >= 400 {
                throw ComposerError.smtp(code: replyCode, message: reply)
            }
            throw ComposerError.deliveryUncertain(
                reason: "no reply after the end of the message (\(detail.isEmpty ? curlText : detail))")
        }
        if response < 400, let code = Int(context.failureReply.prefix(3)), code >= 400 { response = code }
        let text = detail.isEmpty ? curlText : "\(curlText): \(detail)"
        if code == CURLE_LOGIN_DENIED {
            throw ComposerError.authenticationFailed(
                code: response, message: context.failureReply.isEmpty ? text : context.failureReply)
        }
        let tlsCodes: [CURLcode] = [
            CURLE_USE_SSL_FAILED, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
        ]
        if code == CURLE_USE_SSL_FAILED && credentialsNeedTLS && c.startTLS != .required {
            throw ComposerError.credentialsNeedTLS(server: c.url)
        }
        if tlsCodes.contains(code) {
            throw ComposerError.tls(code: Int(code.rawValue), message: text)
        }
        if response >= 400 {
            throw ComposerError.smtp(
                code: response, message: context.failureReply.isEmpty ? detail : context.failureReply)
        }
        throw ComposerError.network(code: Int(code.rawValue), message: text)
    }
}

extension SMTPTransport {
    static func milliseconds(_ seconds: Double) -> Int { CurlLibrary.milliseconds(seconds) }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// ``CurlLibrary/plainWords(_:)``.
    static func plainWords(_ detail: String) -> String { CurlLibrary.plainWords(detail) }
}

private let transferProgress: ccurl_xferinfo_callback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let limit = context.committed ? context.dataTimeout : context.commandTimeout
    guard limit.isFinite, limit > 0 else { return 0 }
    let waited = Double(DispatchTime.now().uptimeNanoseconds - context.lastActivity.uptimeNanoseconds) / 1e9
    if waited > limit {
        context.timedOut = limit
        if context.socket >= 0 { shutdown(context.socket, Int32(SHUT_RDWR)) }
        return 1  // abort: CURLE_ABORTED_BY_CALLBACK
    }
    return 0
}

private let transferSocket: ccurl_sockopt_callback = { userdata, socket, _ in
    if let userdata { Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue().socket = socket }
    return 0  // CURL_SOCKOPT_OK
}

private let transferRead: ccurl_read_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    context.lastActivity = .now()
    let room = size * count
    let remaining = context.data.count - context.offset
    let n = min(room, remaining)
    // libcurl stops reading once it has the declared size and then sends the end-of-data ".": the point
    // after which the server may accept. Commit before handing over the last bytes.
    if context.offset + n == context.data.count && !context.committed {
        context.committed = true
        do { try context.onCommit() } catch {
            context.commitError = error
            return Int(CURL_READFUNC_ABORT)
        }
    }
    guard n > 0 else { return 0 }
    context.data.withUnsafeBytes { raw in
        UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + context.offset, byteCount: n)
    }
    context.offset += n
    return n
}

private let transferDebug: ccurl_debug_callback = { _, type, data, size, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    if type == CURLINFO_HEADER_OUT || type == CURLINFO_DATA_OUT { context.lastActivity = .now() }
    if type == CURLINFO_HEADER_OUT, let data {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
        if line.prefix(8).uppercased() == "RCPT TO:", let open = line.firstIndex(of: "<"),
            let close = line[open...].firstIndex(of: ">")
        {
            context.pendingRecipient = String(line[line.index(after: open)..<close])
        }
        context.ehlo.sent(line)
        context.session.sent(line)
    }
    guard type == CURLINFO_HEADER_IN, let data else { return 0 }
    context.lastActivity = .now()
    let raw = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    context.ehlo.received(raw)
    context.session.received(raw)
    if let recipient = context.pendingRecipient, let code = Int(raw.prefix(3)) {
        if code >= 400 {
            let reply = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            context.refusedRecipients[recipient] = (code, "<\(recipient)>: \(reply)")
        }
        context.pendingRecipient = nil
    }
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if !text.isEmpty {
        context.lastReply = text
        if context.committed && context.replyAfterCommit.isEmpty { context.replyAfterCommit = text }
        if context.failureReply.isEmpty, let first = text.utf8.first,
            first == UInt8(ascii: "4") || first == UInt8(ascii: "5")
        {
            context.failureReply = text
        }
    }
    return 0
}
