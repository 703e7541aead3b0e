import Synchronization

/// Asks a running `Outbox.send` to stop: the message in flight is finished (its outcome journaled), no
/// further message is started, and `send` returns a summary with `interrupted` set. Safe to call from any
/// thread, e.g. a signal watcher.
///
/// ```swift
/// let stop = OutboxStop()
/// // on SIGINT: stop.request()
/// let summary = try outbox.send(using: smtp, stop: stop)
/// if summary.interrupted { print("\(summary.remaining) left; run again to resume") }
/// ```
public final class OutboxStop: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    /// Requests the stop (idempotent).
    public func request() { flag.store(true, ordering: .sequentiallyConsistent) }
    /// Whether a stop was requested.
    public var isRequested: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
