import Foundation

/// How an outbox run retries and paces deliveries.
///
/// ```swift
/// var policy = OutboxPolicy()
/// policy.messagesPerMinute = 30
/// policy.maxAttempts = 4; policy.backoff = 5   // 5 s, 10 s, 20 s between tries
/// ```
public struct OutboxPolicy: Sendable, Hashable {
    /// Tries per message within one run for transient failures (4xx, network); then it stays deferred for
    /// a later resume.
    public var maxAttempts = 5
    /// Seconds before the first retry; doubled for each further retry, capped at `maxBackoff`.
    public var backoff: Double = 2
    public var maxBackoff: Double = 300
    /// At most this many delivery attempts start per minute (nil: no limit).
    public var messagesPerMinute: Double?
    /// Re-send messages whose outcome is unknown (a crash after the server may have accepted them). Off by
    /// default: that can deliver them twice.
    public var resendUncertain = false
    /// Keep retrying transient failures (connection refused, no such host, 4xx) past `maxAttempts`, with
    /// the backoff, as long as the next try starts before this moment: a run that waits for the server to
    /// be back (`contacts outbox send --wait`). Permanent failures (5xx) are final at once, as always.
    ///
    /// ```swift
    /// var policy = OutboxPolicy()
    /// policy.retryUntil = Date().addingTimeInterval(3600)   // keep trying for an hour
    /// ```
    public var retryUntil: Date?
    /// At most this many messages sent from the outbox in any 24 hours (its journal's `sent` records): a
    /// run stops cleanly when it is reached, leaving the rest queued for a run on a later day
    /// (`DeliverySummary.capped`). Nil: no cap.
    public var dailyCap: Int?
    /// Up to this many seconds more, at random, before each delivery attempt (after the rate's interval),
    /// so the sends do not come like clockwork. Nil or 0: none.
    public var jitter: Double?

    /// Defaults: 5 attempts per run, backoff 2 s doubling up to 300 s, no rate limit.
    public init() {}

    /// A policy with `maxAttempts` tries per message and run, a first `backoff` of that many seconds
    /// (doubled for each further retry, capped at 300 s or at `backoff` when that is longer) and at most
    /// `messagesPerMinute` attempts starting per minute.
    ///
    /// ```swift
    /// let policy = OutboxPolicy(maxAttempts: 2, backoff: 0.5, messagesPerMinute: 1.0 / 60)  // 1 per hour
    /// ```
    public init(maxAttempts: Int = 5, backoff: Double = 2, messagesPerMinute: Double? = nil) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.maxBackoff = max(maxBackoff, backoff)
        self.messagesPerMinute = messagesPerMinute
    }
}
