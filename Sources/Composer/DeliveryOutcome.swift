/// How a delivery ended, as a program's exit status would say it.
public enum DeliveryOutcome: Sendable, Hashable {
    /// Everything was sent, saved or handed over (or skipped as already done).
    case complete
    /// Something failed, was refused, is deferred (resume later) or uncertain (settle it).
    case incomplete
    /// A stop was requested; `DeliverySummary.remaining` messages wait for the resume.
    case interrupted
}
