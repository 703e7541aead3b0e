/// Delivers raw messages to an envelope; what the outbox drives.
public protocol EnvelopeTransport: Sendable {
    /// Delivers `message` from `sender` to `recipients` (ASCII addr-specs). `onCommit` is called right
    /// before the transport does the step after which the message may have been accepted (for SMTP: before
    /// the final `.` of DATA); a crash before it means nothing was delivered. After it, only the receiver's
    /// own verdict may be thrown as `.smtp` / `.sendmail`; losing track of the message (drop, timeout,
    /// killed program) must be `.deliveryUncertain`, which an outbox never retries by itself.
    func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)

    /// ``deliver(_:from:to:onCommit:)`` to every recipient the receiver accepts: returns those it refused,
    /// each with its reply (a 4xx is ``ComposerError/isTransient``); the others got the message. When it
    /// refused every recipient nothing was handed over (`onCommit` was not called). The default delivers to
    /// all or none, as ``deliver(_:from:to:onCommit:)``.
    func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError]
}

extension EnvelopeTransport {
    public func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError] {
        try deliver(message, from: sender, to: recipients, onCommit: onCommit)
        return [:]
    }
}
