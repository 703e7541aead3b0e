/// Delivers raw messages to an envelope; what the outbox drives. A transport of its own (a web API, a
/// queue) conforms to this and, through ``DeliveryTransport``, becomes a ``DeliveryTarget``; it says how
/// its failures count with ``classify(_:afterCommit:)``.
public protocol EnvelopeTransport: Sendable {
    /// Delivers `message` from `sender` to `recipients` (ASCII addr-specs). `onCommit` is called right
    /// before the transport does the step after which the message may have been accepted (for SMTP: before
    /// the final `.` of DATA); a crash before it means nothing was delivered. After it, only the receiver's
    /// own verdict may be thrown as `.smtp` / `.sendmail`; losing track of the message (drop, timeout,
    /// killed program) must be `.deliveryUncertain`, which an outbox never retries by itself.
    func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)

    /// ``deliver(_:from:to:onCommit:)`` to every recipient the receiver accepts: returns those it refused,
    /// each with its reply (classified by ``classify(_:afterCommit:)``); the others got the message. When it
    /// refused every recipient nothing was handed over (`onCommit` was not called). The default delivers to
    /// all or none, as ``deliver(_:from:to:onCommit:)``.
    func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError]

    /// How `error`, a failure of this transport for one message or one recipient (`afterCommit`: it came
    /// after `onCommit`), counts for the outbox: retried later, final, uncertain (never retried by itself),
    /// or the transport's own configuration (the run stops). The default is ``DeliveryFailure/init(_:afterCommit:)``.
    func classify(_ error: ComposerError, afterCommit: Bool) -> DeliveryFailure
}

extension EnvelopeTransport {
    public func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError] {
        try deliver(message, from: sender, to: recipients, onCommit: onCommit)
        return [:]
    }

    public func classify(_ error: ComposerError, afterCommit: Bool) -> DeliveryFailure {
        DeliveryFailure(error, afterCommit: afterCommit)
    }
}

/// How a transport's failure counts for the outbox (``EnvelopeTransport/classify(_:afterCommit:)``).
public enum DeliveryFailure: Sendable, Equatable {
    /// A retry later may succeed: the message (or recipient) is deferred and retried with backoff.
    case transient
    /// The receiver's final no: the message (or recipient) failed.
    case permanent
    /// It may have been delivered: recorded as uncertain, never retried by itself.
    case uncertain
    /// The transport itself cannot work (credentials, TLS, no program): the run stops, the message stays.
    case configuration

    /// The rule for any transport: configuration errors (``ComposerError/isConfigurationError``) stop the
    /// run; `.deliveryUncertain`, and after the commit point anything but a receiver's own verdict
    /// (`.smtp`, `.sendmail`, `.smsProgram`), is uncertain; else ``ComposerError/isTransient`` decides.
    ///
    /// ```swift
    /// DeliveryFailure(.smtp(code: 451, message: "try later"), afterCommit: false)   // .transient
    /// ```
    public init(_ error: ComposerError, afterCommit: Bool) {
        if error.isConfigurationError {
            self = .configuration
            return
        }
        switch error {
        case .deliveryUncertain: self = .uncertain
        case .smtp, .sendmail, .smsProgram: self = error.isTransient ? .transient : .permanent
        default: self = afterCommit ? .uncertain : error.isTransient ? .transient : .permanent
        }
    }
}
