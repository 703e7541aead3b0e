import Synchronization

/// How far a long step has come, shared between the threads doing it and the one showing it: the workers
/// ``expect(_:)`` their amount of work (bytes, for a reader) as they learn it and ``advance(by:)`` as they
/// finish parts of it; a progress bar reads ``fraction``. Lock-free, so workers may advance it from every
/// core; they advance it by parts (a piece of a file, a file of a folder), never per byte.
///
/// ```swift
/// let progress = WorkProgress()
/// progress.expect(1_000)
/// progress.advance(by: 250)
/// progress.fraction   // 0.25
/// ```
public final class WorkProgress: Sendable {
    private let doneUnits = Atomic<Int>(0)
    private let totalUnits = Atomic<Int>(0)

    /// A step whose amount of work is not known yet.
    public init() {}

    /// Adds `units` to the amount of work the step will do.
    public func expect(_ units: Int) {
        totalUnits.add(units, ordering: .relaxed)
    }

    /// Counts `units` more of the work as done.
    public func advance(by units: Int) {
        doneUnits.add(units, ordering: .relaxed)
    }

    /// The units done so far.
    public var done: Int { doneUnits.load(ordering: .relaxed) }

    /// The units expected so far (0: not known).
    public var total: Int { totalUnits.load(ordering: .relaxed) }

    /// The part done, 0…1; nil while the amount of work is not known.
    public var fraction: Double? {
        let total = total
        guard total > 0 else { return nil }
        return min(1, Double(done) / Double(total))
    }
}
