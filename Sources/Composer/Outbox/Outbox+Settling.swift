import Foundation

// Settling: what the user found out about uncertain messages
extension Outbox {
    /// Records what the user found out about the uncertain message `id`: `.sent` marks it sent, `.resend`
    /// queues it again for the next `send`. Only uncertain messages can be settled.
    ///
    /// ```swift
    /// for item in try outbox.status().items where item.state == .uncertain {
    ///     let arrived = false   // what the recipient's mailbox (or the server's log) shows
    ///     try outbox.settle(item.id, as: arrived ? .sent : .resend)
    /// }
    /// ```
    /// - Throws: `ComposerError.journal` naming the message when it is unknown or not uncertain;
    ///   `ComposerError.io` when the outbox is in use or the journal cannot be written.
    public func settle(_ id: String, as settlement: OutboxSettlement) throws {
        if let refused = try settle([id], as: settlement).refused.first { throw refused.error }
    }

    /// Settles several uncertain messages at once (under one lock): each id that is unknown or not
    /// uncertain is refused with the reason, the others are settled.
    ///
    /// ```swift
    /// let result = try outbox.settle(["000017", "000042"], as: .resend)
    /// for r in result.refused { print(r.id, r.error) }
    /// ```
    /// - Throws: `ComposerError.io` when the outbox is in use or the journal cannot be written (the ids
    ///   before the failing one are settled), `ComposerError.journal` when it cannot be read.
    public func settle(_ ids: [String], as settlement: OutboxSettlement) throws(ComposerError) -> OutboxSettleResult {
        do {
            let lock = try acquireLock()
            defer { releaseLock(lock) }
            var items: [String: OutboxItem] = [:]
            for item in try journal.replay().items { items[item.id] = item }
            var result = OutboxSettleResult()
            for id in ids {
                guard var item = items[id] else {
                    result.refused.append(
                        .init(
                            id: id,
                            error: .journal(path: directory.path, line: 0, message: "no message \(id) in this outbox")))
                    continue
                }
                guard item.state == .uncertain else {
                    result.refused.append(
                        .init(
                            id: id,
                            error: .journal(
                                path: directory.path, line: 0,
                                message: "message \(id) is \(item.state.rawValue), not uncertain")))
                    continue
                }
                try journal.record(settlement == .sent ? .settledSent : .settledResend, item)
                item.state = settlement == .sent ? .sent : .queued
                items[id] = item
                result.settled.append(id)
            }
            return result
        } catch {
            throw ComposerError(error, path: journalPath)
        }
    }
}
