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
    /// Queued or deferred messages of a kind this run had no transport for (text messages without an SMS
    /// program, mail without a mail server): left as they are for a run that has one.
    public var notCarried = 0
    /// Text messages sent in this run (also counted in `sent`) and their SMS segments (what a carrier bills).
    public var textsSent = 0
    public var textSegments = 0
    /// Recipients the server refused for good (5xx at RCPT) while others of the same message got it.
    public var refusedRecipients: [String] = []
    /// Recipients still deferred (4xx at RCPT) of messages that others got in this run: the next run sends
    /// to them alone.
    public var deferredRecipients = 0
}

/// A progress event of a run (for a progress bar).
public struct OutboxProgress: Sendable {
    public var item: OutboxItem
    public var done: Int
    public var total: Int
}
