/// Where a message of the outbox stands, replayed from the journal.
public enum OutboxState: String, Sendable, Codable, CaseIterable {
    /// Written, not yet accepted by a server.
    case queued
    /// A transient failure (4xx, network); will be retried on resume.
    case deferred
    /// Handed over, then no verdict: the connection dropped or timed out after the end of the message, or
    /// the run was killed in that window. The server may have accepted it; it is never re-sent by itself.
    /// `Outbox.settle(_:as:)` records what the user found out (`.sent`, or `.resend` to queue it again).
    case uncertain
    case sent
    /// A permanent failure (5xx or invalid); reported, never retried.
    case failed
}

/// One message of the outbox.
public struct OutboxItem: Sendable, Hashable {
    /// What a message is: a mail (`messages/<id>.eml`) or a text message to one number
    /// (`messages/<id>.txt`, the body), sent through an SMS program.
    public enum Kind: String, Sendable, Hashable {
        case mail
        case text
    }

    public var id: String
    public var label: String?
    public var from: String
    public var recipients: [String]
    public var state: OutboxState
    /// Delivery attempts recorded in the journal, over all runs.
    public var attempts: Int
    /// The last SMTP reply code (or nil for none / network errors).
    public var lastCode: Int?
    public var lastError: String?
    public var kind: Kind = .mail
    /// Where each recipient stands, when the server took some and refused others (absent: queued); the
    /// message's ``state`` follows from them (``openRecipients(includingUncertain:)``).
    public var recipientStates: [String: OutboxState] = [:]
    /// The server's last refusal of each refused recipient (the address is in the text).
    public var recipientErrors: [String: String] = [:]
}
