import Foundation

// Sending: one run over the queued and deferred messages, journaled step by step
extension Outbox {
    /// Sleeps until `date`, in short slices so that a stop request is seen promptly.
    private func sleep(until date: Date, stop: OutboxStop?) {
        while true {
            let left = date.timeIntervalSinceNow
            if left <= 0 || stop?.isRequested == true { return }
            Thread.sleep(forTimeInterval: min(left, 0.05))
        }
    }

    /// Delivers every queued or deferred message (and uncertain ones if the policy says so), honouring the
    /// rate limit; transient failures are retried with exponential backoff up to `maxAttempts` in this run.
    /// Throws only when the outbox itself fails (journal I/O, lock) or the transport is unusable.
    ///
    /// With `stop`, a requested stop ends the run after the message in flight: its outcome is journaled,
    /// the others stay queued or deferred (`summary.remaining`) for the next run.
    ///
    /// Mail goes through `transport`, text messages through `texts` (an SMS program); messages of a kind
    /// without a transport in this run stay as they are (`summary.notCarried`).
    public func send(
        using transport: (any EnvelopeTransport)?, texts: (any EnvelopeTransport)? = nil,
        policy: OutboxPolicy = OutboxPolicy(), stop: OutboxStop? = nil, progress: ((OutboxProgress) -> Void)? = nil
    ) throws -> DeliverySummary {
        let lock = try acquireLock()
        defer { releaseLock(lock) }
        let items = try journal.replay().items
        var summary = DeliverySummary()
        var pending: [OutboxItem] = []
        for item in items {
            let carried = (item.kind == .mail ? transport : texts) != nil
            switch item.state {
            case .queued, .deferred: if carried { pending.append(item) } else { summary.notCarried += 1 }
            case .uncertain:
                if policy.resendUncertain && carried { pending.append(item) } else { summary.uncertain += 1 }
            case .sent, .failed: summary.skipped += 1
            }
        }
        let total = pending.count
        var done = 0
        var attemptsThisRun: [String: Int] = [:]
        // Messages that reached a recipient in this run (counted sent once, whatever else their
        // recipients became).
        var deliveredThisRun: Set<String> = []
        var readyAt: [String: Date] = [:]
        var lastStart: Date?
        let interval = policy.messagesPerMinute.map { $0 > 0 ? 60 / $0 : 0 } ?? 0
        var sentInWindow = policy.dailyCap == nil ? 0 : journal.sentCount(since: Date().addingTimeInterval(-86_400))

        while !pending.isEmpty {
            if stop?.isRequested == true { break }
            if let cap = policy.dailyCap, sentInWindow >= cap {
                summary.capped = pending.count
                return summary
            }
            let now = Date()
            guard let position = pending.firstIndex(where: { (readyAt[$0.id] ?? now) <= now }) else {
                let wake = pending.compactMap { readyAt[$0.id] }.min() ?? now
                sleep(until: max(wake, now.addingTimeInterval(0.001)), stop: stop)
                continue
            }
            if let lastStart, interval > 0 {
                sleep(until: lastStart.addingTimeInterval(interval), stop: stop)
                if stop?.isRequested == true { break }
            }
            if let jitter = policy.jitter, jitter > 0, lastStart != nil {
                sleep(until: Date().addingTimeInterval(Double.random(in: 0...jitter)), stop: stop)
                if stop?.isRequested == true { break }
            }
            var item = pending[position]
            let bytes: [UInt8]
            let path = messageFile(item)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ComposerError.io(path: path, message: "queued message file is missing")
            }
            bytes = try Outbox.stampedOnFirstAttempt(Array(data), item: item, path: path)
            guard let carrier = item.kind == .mail ? transport : texts else {
                pending.remove(at: position)  // not reached: only carried messages are pending
                continue
            }
            try faultHook?(.beforeAttempt, item.id)
            lastStart = Date()
            try journal.record(.attempt, item)
            attemptsThisRun[item.id, default: 0] += 1
            item.attempts += 1
            var failure: ComposerError?
            var committed = false
            // Only the recipients that have not got it: a retry after the server refused some never goes
            // to those that took it.
            let envelope = item.openRecipients(includingUncertain: policy.resendUncertain)
            var refused: [String: ComposerError] = [:]
            do throws(ComposerError) {
                refused = try carrier.deliverAccepted(
                    bytes, from: item.from, to: envelope,
                    onCommit: {
                        try self.journal.record(.commit, item)
                        committed = true
                        try self.faultHook?(.afterCommit, item.id)
                    })
            } catch {
                failure = error
            }
            if let error = failure {
                // Outbox I/O and configuration errors (credentials, TLS) concern no single message: stop
                // the run; the attempt has no outcome, so the message stays queued for the resume.
                switch error {
                case .io, .journal: throw error
                default: break
                }
                // How it counts is the transport's rule: after the commit point only the receiver's own
                // verdict is definite; any other failure may come after the server stored the message.
                let kind = carrier.classify(error, afterCommit: committed)
                if kind == .configuration {
                    // Past the commit record the journal says "uncertain": the transport could not even
                    // start (no program, no connection), so nothing was handed over; say so.
                    if committed { try journal.record(.deferred, item, error: error.description) }
                    throw error
                }
                var code: Int?
                if case .smtp(let c, _) = error { code = c }
                item.lastCode = code
                item.lastError = error.description
                if kind == .uncertain {
                    try journal.record(.uncertain, item, code: code, error: error.description)
                    item.apply(.uncertain, to: nil)
                    summary.uncertain += 1
                    pending.remove(at: position)
                    done += 1
                } else if kind == .transient {
                    try journal.record(.deferred, item, code: code, error: error.description)
                    item.apply(.deferred, to: nil)
                    let exponent = Double(min(attemptsThisRun[item.id, default: 1] - 1, 62))
                    let retryAt = Date().addingTimeInterval(min(policy.maxBackoff, policy.backoff * pow(2, exponent)))
                    let mayRetry =
                        attemptsThisRun[item.id, default: 0] < policy.maxAttempts
                        || policy.retryUntil.map { retryAt <= $0 } ?? false
                    if !mayRetry {
                        summary.deferred += 1
                        pending.remove(at: position)
                        done += 1
                    } else {
                        readyAt[item.id] = retryAt
                        pending[position] = item
                        try faultHook?(.afterOutcome, item.id)
                        continue
                    }
                } else {
                    try journal.record(.failed, item, code: code, error: error.description)
                    item.apply(.failed, to: nil)
                    summary.failed += 1
                    pending.remove(at: position)
                    done += 1
                }
            } else if !refused.isEmpty {
                // The server took some recipients and refused others: recorded per address, the refused
                // named; the deferred ones are retried like a deferred message, to them alone.
                let accepted = envelope.filter { refused[$0] == nil }
                var records: [OutboxJournal.Record] = []
                let now = Date().timeIntervalSince1970
                if !accepted.isEmpty {
                    try faultHook?(.afterDelivered, item.id)
                    records.append(OutboxJournal.Record(event: .sent, id: item.id, at: now, to: accepted))
                    item.apply(.sent, to: accepted)
                    if deliveredThisRun.insert(item.id).inserted {
                        summary.sent += 1
                        sentInWindow += 1
                    }
                }
                for address in envelope where refused[address] != nil {
                    let error = refused[address]!
                    let transient = carrier.classify(error, afterCommit: false) == .transient
                    var code: Int?
                    if case .smtp(let c, _) = error { code = c }
                    records.append(
                        OutboxJournal.Record(
                            event: transient ? .deferred : .failed, id: item.id, at: now, to: [address], code: code,
                            error: error.description))
                    item.apply(transient ? .deferred : .failed, to: [address])
                    item.recipientErrors[address] = error.description
                    item.lastCode = code
                    item.lastError = error.description
                    if !transient { summary.refusedRecipients.append(address) }
                }
                try journal.append(records)
                if item.state == .deferred {
                    let exponent = Double(min(attemptsThisRun[item.id, default: 1] - 1, 62))
                    let retryAt = Date().addingTimeInterval(min(policy.maxBackoff, policy.backoff * pow(2, exponent)))
                    let mayRetry =
                        attemptsThisRun[item.id, default: 0] < policy.maxAttempts
                        || policy.retryUntil.map { retryAt <= $0 } ?? false
                    if mayRetry {
                        readyAt[item.id] = retryAt
                        pending[position] = item
                        try faultHook?(.afterOutcome, item.id)
                        progress?(OutboxProgress(item: item, done: done, total: total))
                        continue
                    }
                    if deliveredThisRun.contains(item.id) {
                        summary.deferredRecipients += item.openRecipients().count
                    } else {
                        summary.deferred += 1
                    }
                } else if item.state == .failed {
                    summary.failed += 1
                }
                pending.remove(at: position)
                done += 1
            } else {
                try faultHook?(.afterDelivered, item.id)
                try journal.record(.sent, item, to: envelope == item.recipients ? nil : envelope)
                item.apply(.sent, to: envelope)
                if deliveredThisRun.insert(item.id).inserted {
                    summary.sent += 1
                    sentInWindow += 1
                }
                if item.kind == .text {
                    summary.textsSent += 1
                    summary.textSegments += SMSSegments.count(String(decoding: bytes, as: UTF8.self)).segments
                }
                pending.remove(at: position)
                done += 1
            }
            try faultHook?(.afterOutcome, item.id)
            progress?(OutboxProgress(item: item, done: done, total: total))
        }
        if !pending.isEmpty {
            summary.interrupted = true
            summary.remaining = pending.count
        }
        return summary
    }
}
