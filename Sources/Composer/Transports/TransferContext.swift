import Foundation

/// State shared with libcurl's callbacks during one transaction.
final class TransferContext {
    let data: [UInt8]
    var offset = 0
    var lastReply = ""
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
    /// The server's reply to EHLO, when this transaction connected.
    var ehlo = EHLOReplyReader()
    /// The recipient whose RCPT TO awaits its reply, and the recipients refused so far (reply code and text).
    var pendingRecipient: String?
    var refusedRecipients: [String: (code: Int, reply: String)] = [:]
    /// STARTTLS and AUTH as they happened.
    var session = SessionTracker()
    let onCommit: () throws -> Void

    init(data: [UInt8], commandTimeout: Double, dataTimeout: Double, onCommit: @escaping () throws -> Void) {
        self.data = data
        self.commandTimeout = commandTimeout
        self.dataTimeout = dataTimeout
        self.onCommit = onCommit
    }
}
