/// A progress event of a run (for a progress bar).
public struct OutboxProgress: Sendable {
    public var item: OutboxItem
    public var done: Int
    public var total: Int
}
