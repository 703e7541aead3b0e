import CurlTransfer

/// What one SMTP transaction said, as it went (``SMTPLink``'s observer): the reply to the last EHLO, and
/// STARTTLS and AUTH as they happened.
final class TransferContext: SMTPObserver {
    /// The server's reply to EHLO, when this transaction connected.
    var ehlo = EHLOReplyReader()
    /// STARTTLS and AUTH as they happened.
    var session = SessionTracker()

    func sent(_ line: String) {
        ehlo.sent(line)
        session.sent(line)
    }

    func received(_ text: String) {
        ehlo.received(text)
        session.received(text)
    }
}
