import Foundation

/// Where an outbox delivery keeps its messages.
public enum OutboxLocation: Sendable, Hashable {
    /// True for ``new(in:)``: the batch is queued into it (a resume queues nothing).
    public var isNew: Bool {
        if case .new = self { return true }
        return false
    }

    /// A new folder in `parent`, named by `Outbox.defaultName(for:)` (`outbox-YYYYMMDD-HHMMSS`, then `-2`, …):
    /// never an existing one, so two runs never share an outbox.
    case new(in: URL)
    /// An existing outbox folder (explicit resume): what it holds is sent, nothing is queued again. A folder
    /// whose queueing was cut short before the journal was written is filled.
    case resume(URL)
}
