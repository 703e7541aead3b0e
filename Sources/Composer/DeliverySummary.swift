/// The counts of one delivery or one outbox run (`Outbox.send`): drafts refused before sending count as
/// failed.
///
/// ```swift
/// let summary = try delivery.deliver(batch, outbox: OutboxLocation.new(in: folder))
/// switch summary.outcome {
/// case .complete: print("done: \(summary.sent) sent")
/// case .incomplete: print("\(summary.failed) failed, \(summary.deferred) deferred, \(summary.uncertain) uncertain")
/// case .interrupted: print("\(summary.remaining) left; resume the outbox")
/// }
/// ```
public struct DeliverySummary: Sendable, Hashable {
    public var sent = 0
    /// Saved as files or handed over as URIs.
    public var saved = 0
    public var failed = 0
    /// Not sent: dry run, or already sent or failed before this run.
    public var skipped = 0
    public var deferred = 0
    /// Uncertain messages: those of this run plus those left by earlier runs (not sent again).
    public var uncertain = 0
    /// True when an outbox run stopped early on `OutboxStop.request()`.
    public var interrupted = false
    /// Messages not sent by an interrupted run: those still queued or deferred in the outbox, or, when it
    /// stopped before queueing, the mail drafts that were not queued.
    public var remaining = 0
    /// Messages of the outbox left queued because this run had no transport for their kind (text messages
    /// without an SMS program, mail without a mail server).
    public var notCarried = 0
    /// Text messages sent through the SMS program (also in `sent`) and their SMS segments.
    public var textsSent = 0
    public var textSegments = 0
    /// Recipients the server refused for good (5xx at RCPT) while others of the same message got it.
    public var refusedRecipients: [String] = []
    /// Recipients still deferred (4xx at RCPT) of messages that others got: the next run sends to them alone.
    public var deferredRecipients = 0
    /// Copies of sent mail saved to the Sent folder (`Delivery.sentFolder`) by this run, and why each
    /// other one could not be (a later run of the outbox saves it).
    /// Messages left queued because the daily cap (`OutboxPolicy.dailyCap`) was reached: a run on a later
    /// day sends them.
    public var capped = 0
    public var copiesSaved = 0
    public var copyProblems: [String] = []

    public init() {}

    /// Adds the counts of another delivery.
    public mutating func add(_ other: DeliverySummary) {
        sent += other.sent
        saved += other.saved
        failed += other.failed
        skipped += other.skipped
        deferred += other.deferred
        uncertain += other.uncertain
        interrupted = interrupted || other.interrupted
        remaining += other.remaining
        notCarried += other.notCarried
        textsSent += other.textsSent
        textSegments += other.textSegments
        refusedRecipients += other.refusedRecipients
        deferredRecipients += other.deferredRecipients
        capped += other.capped
        copiesSaved += other.copiesSaved
        copyProblems += other.copyProblems
    }

    /// `.interrupted` when stopped, else `.incomplete` when anything failed, is deferred or uncertain.
    public var outcome: DeliveryOutcome {
        if interrupted { return .interrupted }
        return failed > 0 || deferred > 0 || uncertain > 0 || notCarried > 0 || !refusedRecipients.isEmpty
            || deferredRecipients > 0 || !copyProblems.isEmpty || capped > 0
            ? .incomplete : .complete
    }
}
