/// Everything `Outbox.status()` knows.
public struct OutboxStatus: Sendable {
    public var items: [OutboxItem]
    /// Message files with no journal entry (left by a crash while queueing); never sent.
    public var orphans: [String]
    /// Journal lines cut short by a crash (ignored).
    public var tornLines: Int

    /// How many messages are in `state`.
    public func count(_ state: OutboxState) -> Int { items.reduce(0) { $0 + ($1.state == state ? 1 : 0) } }
}
