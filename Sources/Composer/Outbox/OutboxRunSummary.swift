/// What one `Outbox.send` run did.
public struct OutboxRunSummary: Sendable, Hashable {
    public var sent = 0
    public var failed = 0
    public var deferred = 0
    /// Uncertain messages: those of this run plus those left by earlier runs (not sent again).
    public var uncertain = 0
    /// Already sent or failed before this run.
    public var skipped = 0
    /// True when the run ended early because `OutboxStop.request()` was called.
    public var interrupted = false
    /// Messages still queued or deferred when an interrupted run ended (sent by the next run).
    public var remaining = 0
}

/// A progress event of a run (for a progress bar).
public struct OutboxProgress: Sendable {
    public var item: OutboxItem
    public var done: Int
    public var total: Int
}
