/// A way drafts leave: written at once (files, URIs, a Maildir, an mbox) or sent through an ``Outbox``
/// (SMTP, sendmail). The six built-in ones are the ``DeliveryTarget`` factories; a transport of one's own
/// conforms to this (and, to be sent through an outbox, to ``EnvelopeTransport``, with its own failure
/// classification) and is a target as `DeliveryTarget(MyTransport())`: nothing else switches on the kind.
///
/// ```swift
/// struct Pigeon: DeliveryTransport, EnvelopeTransport {
///     var via: String { "pigeon://loft" }
///     var carriesMail: Bool { true }
///     var needsOutbox: Bool { true }
///     func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport { self }
///     func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
///         throws(ComposerError) {}
/// }
/// let delivery = Delivery(target: DeliveryTarget(Pigeon()))
/// ```
public protocol DeliveryTransport: Sendable {
    /// What the mail goes through: the server's URL, the program's path, the folder or file (empty when
    /// nothing is named, as for draft files and URIs).
    var via: String { get }
    /// What stands for this transport in a batch's identity (default: ``via``).
    var identity: String { get }
    /// Whether mail can go this way (judged without connecting).
    var carriesMail: Bool { get }
    /// Whether text messages can go this way without an SMS program (default: false).
    var carriesTexts: Bool { get }
    /// True when the mail goes through an ``Outbox``, sent by ``envelopeTransport()`` (default: false:
    /// ``deliverNow(_:maxMessageSize:events:)`` writes it at once).
    var needsOutbox: Bool { get }
    /// Checks, before anything is rendered, what can be checked without sending (default: nothing).
    func prepare() throws(ComposerError)
    /// Tries what this transport would use, without sending anything; one line for each thing checked
    /// (default: ``prepare()``, nothing said).
    func check() throws(ComposerError) -> [String]
    /// Writes `batch` at once, each message no larger than `maxMessageSize` bytes: a `saved` or `uri` event
    /// per message, `refused` for those that cannot be written (default: every message refused, for a
    /// transport that sends through an outbox).
    func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    /// What an outbox sends the mail with.
    /// - Throws: `ComposerError.mailUnavailable` when this transport cannot send (default: it writes at
    ///   once), or when what it needs is missing.
    func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport
    /// The largest message the receiver takes, asked before a new batch is queued (SMTP's `SIZE`); nil when
    /// it announces none or cannot be asked now (default: nil).
    func sizeLimit() -> Int?
}

extension DeliveryTransport {
    public var identity: String { via }
    public var carriesTexts: Bool { false }
    public var needsOutbox: Bool { false }
    public func prepare() throws(ComposerError) {}

    public func check() throws(ComposerError) -> [String] {
        try prepare()
        return []
    }

    public func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
        var summary = DeliverySummary()
        let mail = ComposerError.mailUnavailable(reason: "\(via) sends through an outbox")
        for item in batch.mail {
            events(.refused(label: item.label, key: item.key, error: mail))
            summary.failed += 1
        }
        let texts = ComposerError.messagingUnavailable(reason: "\(via) carries mail only")
        for item in batch.messages {
            events(.refused(label: item.label, key: item.key, error: texts))
            summary.failed += 1
        }
        return summary
    }

    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        throw .mailUnavailable(reason: "an outbox sends through SMTP or sendmail, not to files or URIs")
    }

    public func sizeLimit() -> Int? { nil }
}
