/// What `Outbox.enqueueOnce` did: queued the drafts into an empty outbox, found it already holding
/// messages (a resume) and queued nothing, or was stopped before the drafts were queued.
public enum OutboxQueueing: Sendable {
    case queued(EnqueueResult)
    /// The outbox held `count` messages already; the drafts were not queued again.
    case resumed(count: Int)
    /// A stop was requested (`OutboxStop`) before every draft was queued: none is, and the message files
    /// written for them were removed again. The outbox is as it was.
    case interrupted
}

/// Messages queued by `Outbox.enqueue`, and the drafts that could not be written (with their index).
public struct EnqueueResult: Sendable {
    public struct Rejected: Sendable, Equatable {
        public var index: Int
        public var error: ComposerError
    }
    public var ids: [String]
    public var rejected: [Rejected]
}
