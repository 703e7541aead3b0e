internal import CCurl
import Foundation

/// One SMTP transaction as libcurl runs it: the envelope, the message, the timeouts, TLS and credentials.
/// Policy (what TLS a server needs, whether credentials may go in clear text) is the caller's; this says
/// only what libcurl is told.
package struct SMTPRequest {
    /// What libcurl is told about STARTTLS (`CURLOPT_USE_SSL`).
    package enum StartTLS: Sendable {
        /// Not said (an `smtps://` URL: TLS from the start).
        case unset
        /// Plain SMTP.
        case off
        /// STARTTLS when the server offers it.
        case optional
        /// STARTTLS or fail.
        case required
    }

    package var url: String
    package var sender = ""
    package var recipients: [String] = []
    package var message: [UInt8] = []
    /// A refused recipient does not end the transaction: the accepted ones get the message.
    package var partial = false
    /// Only libcurl's connection phase (greeting, EHLO, STARTTLS, AUTH), no message.
    package var connectOnly = false
    package var connectTimeout: Double
    /// How long a reply to a command, and to the end of the message, may take (seconds; 0: no limit).
    package var commandTimeout: Double
    package var dataTimeout: Double
    package var startTLS: StartTLS
    /// `host:port:addresses` (`CURLOPT_RESOLVE`): the only addresses the host is reached at.
    package var resolve: String?
    package var caFile: String?
    package var user: String?
    package var password: String?
    /// `AUTH=MECH`.
    package var loginOptions: String?

    package init(
        url: String, connectTimeout: Double, commandTimeout: Double, dataTimeout: Double, startTLS: StartTLS
    ) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.dataTimeout = dataTimeout
        self.startTLS = startTLS
    }
}

/// Follows a transaction's command lines and replies (the EHLO reply, STARTTLS, AUTH): called from
/// libcurl's callbacks during ``SMTPLink/perform(_:observer:onCommit:)``.
package protocol SMTPObserver: AnyObject {
    /// A command line the client sent.
    func sent(_ line: String)
    /// Reply text the client read (one or more lines).
    func received(_ text: String)
}

/// What one SMTP transaction came to, as libcurl reported it.
package struct SMTPOutcome {
    /// How libcurl failed, when it did.
    package enum Failure: Sendable, Equatable {
        /// The server refused the login.
        case loginDenied
        /// STARTTLS was required and could not be had.
        case startTLSFailed
        /// TLS failed (certificate, handshake, cipher).
        case tls
        /// Anything else (connection, timeout, a refused command).
        case other
    }

    /// Nil when libcurl completed the transaction.
    package var failure: Failure?
    /// libcurl's code for the failure.
    package var code = 0
    /// libcurl's text for the failure, and the detail it wrote (errno numbers in words).
    package var text = ""
    package var detail = ""
    /// The last SMTP reply code libcurl read (0: none).
    package var responseCode = 0
    /// The timeout (seconds) that ran out, when a reply did not come in time.
    package var timedOut: Double?
    /// Whether the last bytes of the message were handed over (the final "." follows), and what `onCommit`
    /// threw then (the transaction was stopped).
    package var committed = false
    package var commitError: (any Error)?
    /// The first reply after the commit point: the server's verdict on the message.
    package var replyAfterCommit = ""
    /// The first 4xx/5xx reply of the transaction.
    package var failureReply = ""
    /// The recipients refused at RCPT, with the reply code and `<address>: reply`.
    package var refused: [String: (code: Int, reply: String)] = [:]
}

/// An SMTP connection through libcurl: one easy handle, kept open between transactions (libcurl reuses the
/// connection), closed after a failure. One transaction at a time (its owner's lock).
package final class SMTPLink: @unchecked Sendable {
    // @unchecked: libcurl lets a handle change threads if one thread at a time uses it (its owner's lock).
    private var handle: UnsafeMutableRawPointer?
    /// The socket of the connection libcurl keeps open (-1: none), shut down when a reply times out.
    private var socket: Int32 = -1

    package init() {}

    deinit { close() }

    /// Hangs up: the next transaction connects afresh.
    package func close() {
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
        socket = -1
    }

    /// Runs `request` on this connection (opening one when there is none). `onCommit` runs once, before
    /// the message's last bytes are handed over (after which the server may accept it); what it throws
    /// stops the transaction. A failed transaction closes the connection.
    /// - Throws: `CurlTransferError.unavailable` when libcurl cannot make a handle.
    package func perform(
        _ request: SMTPRequest, observer: any SMTPObserver, onCommit: @escaping () throws -> Void
    ) throws(CurlTransferError) -> SMTPOutcome {
        if handle == nil { handle = curl_easy_init() }
        guard let curl = handle else { throw .unavailable("curl_easy_init failed") }
        curl_easy_reset(curl)
        let context = SMTPTransferContext(request: request, observer: observer, onCommit: onCommit)
        context.socket = socket
        defer { socket = handle == nil ? -1 : context.socket }
        let code = withExtendedLifetime(context) { set(curl, request, context: context) }
        var outcome = SMTPOutcome(
            committed: context.committed, commitError: context.commitError,
            replyAfterCommit: context.replyAfterCommit, failureReply: context.failureReply,
            refused: context.refused)
        outcome.timedOut = context.timedOut
        if context.commitError != nil {
            close()
            return outcome
        }
        guard code != CURLE_OK else { return outcome }
        var response = 0
        _ = ccurl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &response)
        outcome.responseCode = response
        outcome.code = Int(code.rawValue)
        outcome.text = String(cString: curl_easy_strerror(code))
        outcome.detail = CurlLibrary.plainWords(
            context.errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let tlsCodes: [CURLcode] = [
            CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CONNECT_ERROR,
            CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
        ]
        outcome.failure =
            code == CURLE_LOGIN_DENIED
            ? .loginDenied : code == CURLE_USE_SSL_FAILED ? .startTLSFailed : tlsCodes.contains(code) ? .tls : .other
        // A failed transaction may leave the connection in an unknown state: start afresh next time.
        close()
        return outcome
    }

    /// Sets the options of `request` on `curl` and performs it: the first option libcurl refused, else the
    /// transfer's code.
    private func set(_ curl: UnsafeMutableRawPointer, _ request: SMTPRequest, context: SMTPTransferContext)
        -> CURLcode
    {
        let ctx = Unmanaged.passUnretained(context).toOpaque()
        var recipientList: UnsafeMutablePointer<curl_slist>?
        for r in request.recipients { recipientList = curl_slist_append(recipientList, "<\(r)>") }
        defer { curl_slist_free_all(recipientList) }
        var pinned: UnsafeMutablePointer<curl_slist>?
        if let resolve = request.resolve { pinned = curl_slist_append(nil, resolve) }
        defer { curl_slist_free_all(pinned) }
        return context.errorBuffer.withUnsafeMutableBufferPointer { eb in
            var codes = [ccurl_setopt_string(curl, CURLOPT_URL, request.url)]
            if request.connectOnly {
                // Greeting, EHLO, STARTTLS and AUTH are libcurl's connection phase for SMTP.
                codes.append(ccurl_setopt_long(curl, CURLOPT_CONNECT_ONLY, 1))
            } else {
                codes += [
                    ccurl_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(request.sender)>"),
                    ccurl_setopt_slist(curl, CURLOPT_MAIL_RCPT, recipientList),
                ]
                if request.partial { codes.append(ccurl_setopt_long(curl, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1)) }
                codes += [
                    ccurl_setopt_long(curl, CURLOPT_UPLOAD, 1),
                    ccurl_setopt_long(curl, CURLOPT_INFILESIZE_LARGE, request.message.count),
                    ccurl_setopt_read_function(curl, smtpRead), ccurl_setopt_pointer(curl, CURLOPT_READDATA, ctx),
                ]
            }
            codes += [
                ccurl_setopt_debug_function(curl, smtpDebug), ccurl_setopt_pointer(curl, CURLOPT_DEBUGDATA, ctx),
                ccurl_setopt_long(curl, CURLOPT_VERBOSE, 1),
                // No stall limit: the reply after DATA may take minutes. Replies are timed by the progress
                // callback (command vs. end-of-data timeout).
                CurlLibrary.setLimits(
                    curl, errorBuffer: eb.baseAddress, connectTimeout: request.connectTimeout, stallTimeout: nil),
                // No limit on the whole transaction; libcurl's own per-reply limit (whole seconds) is only a
                // backstop behind the progress callback.
                ccurl_setopt_long(curl, CURLOPT_TIMEOUT_MS, 0),
                ccurl_setopt_long(
                    curl, CURLOPT_SERVER_RESPONSE_TIMEOUT,
                    Int(min(max(request.commandTimeout, request.dataTimeout, 1), 86_400).rounded(.up)) + 2),
                ccurl_setopt_long(curl, CURLOPT_NOPROGRESS, 0),
                ccurl_setopt_xferinfo_function(curl, smtpProgress),
                ccurl_setopt_pointer(curl, CURLOPT_XFERINFODATA, ctx),
                ccurl_setopt_sockopt_function(curl, smtpSocket), ccurl_setopt_pointer(curl, CURLOPT_SOCKOPTDATA, ctx),
            ]
            if let pinned { codes.append(ccurl_setopt_slist(curl, CURLOPT_RESOLVE, pinned)) }
            let useSSL: curl_usessl? =
                switch request.startTLS {
                case .unset: nil
                case .off: CURLUSESSL_NONE
                case .optional: CURLUSESSL_TRY
                case .required: CURLUSESSL_ALL
                }
            if let useSSL { codes.append(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(useSSL.rawValue))) }
            codes.append(
                CurlLibrary.setTLSAndCredentials(
                    curl, caFile: request.caFile, user: request.user, password: request.password))
            if let options = request.loginOptions {
                codes.append(ccurl_setopt_string(curl, CURLOPT_LOGIN_OPTIONS, options))
            }
            let failed = CurlLibrary.firstFailure(codes)
            guard failed == CURLE_OK else { return failed }
            return curl_easy_perform(curl)
        }
    }
}

/// State shared with libcurl's callbacks during one SMTP transaction.
private final class SMTPTransferContext {
    let data: [UInt8]
    var offset = 0
    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    /// The first 4xx/5xx reply of the transaction (what the error reports; later lines are QUIT chatter).
    var failureReply = ""
    /// Set once the last bytes of the message were handed to libcurl (the final "." follows).
    var committed = false
    var commitError: (any Error)?
    /// The reply lines read after the commit point: the server's verdict on the message.
    var replyAfterCommit = ""
    /// When something last moved (a command or data sent, a reply read): replies are timed from it.
    var lastActivity = DispatchTime.now()
    let commandTimeout: Double
    let dataTimeout: Double
    /// The timeout (seconds) that ran out, if the progress callback aborted the transfer.
    var timedOut: Double?
    /// The connection's socket, to shut it down on a timeout (else libcurl would politely send QUIT and
    /// wait for the reply of the very server that stopped answering).
    var socket: Int32 = -1
    /// The recipient whose RCPT TO awaits its reply, and the recipients refused so far (reply code and text).
    var pendingRecipient: String?
    var refused: [String: (code: Int, reply: String)] = [:]
    let observer: any SMTPObserver
    let onCommit: () throws -> Void

    init(request: SMTPRequest, observer: any SMTPObserver, onCommit: @escaping () throws -> Void) {
        data = request.message
        commandTimeout = request.commandTimeout
        dataTimeout = request.dataTimeout
        self.observer = observer
        self.onCommit = onCommit
    }
}

private let smtpProgress: ccurl_xferinfo_callback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    let context = Unmanaged<SMTPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
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

private let smtpSocket: ccurl_sockopt_callback = { userdata, socket, _ in
    if let userdata { Unmanaged<SMTPTransferContext>.fromOpaque(userdata).takeUnretainedValue().socket = socket }
    return 0  // CURL_SOCKOPT_OK
}

private let smtpRead: ccurl_read_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let context = Unmanaged<SMTPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
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

private let smtpDebug: ccurl_debug_callback = { _, type, data, size, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<SMTPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
    if type == CURLINFO_HEADER_OUT || type == CURLINFO_DATA_OUT { context.lastActivity = .now() }
    if type == CURLINFO_HEADER_OUT, let data {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
        if line.prefix(8).uppercased() == "RCPT TO:", let open = line.firstIndex(of: "<"),
            let close = line[open...].firstIndex(of: ">")
        {
            context.pendingRecipient = String(line[line.index(after: open)..<close])
        }
        context.observer.sent(line)
    }
    guard type == CURLINFO_HEADER_IN, let data else { return 0 }
    context.lastActivity = .now()
    let raw = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    context.observer.received(raw)
    if let recipient = context.pendingRecipient, let code = Int(raw.prefix(3)) {
        if code >= 400 {
            let reply = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            context.refused[recipient] = (code, "<\(recipient)>: \(reply)")
        }
        context.pendingRecipient = nil
    }
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if !text.isEmpty {
        if context.committed && context.replyAfterCommit.isEmpty { context.replyAfterCommit = text }
        if context.failureReply.isEmpty, let first = text.utf8.first,
            first == UInt8(ascii: "4") || first == UInt8(ascii: "5")
        {
            context.failureReply = text
        }
    }
    return 0
}
