/// What the user found out about an uncertain message (see `Outbox.settle(_:as:)`).
public enum OutboxSettlement: String, Sendable, CaseIterable {
    /// It did arrive (e.g. the recipient or the server's log has it): mark it sent.
    case sent
    /// It did not arrive: queue it again; the next run sends it.
    case resend
}

/// What `Outbox.settle(_:as:)` did with a list of ids: those settled, and those refused (unknown, or not
/// uncertain) with the reason.
public struct OutboxSettleResult: Sendable, Equatable {
    public struct Refusal: Sendable, Equatable {
        public var id: String
        public var error: ComposerError
    }
    public var settled: [String] = []
    public var refused: [Refusal] = []
}
