import Foundation
import Support

// Queueing: drafts rendered into message files, then recorded in the journal all at once
extension Outbox {
    /// Renders every draft, writes all message files (fsynced), then records them in the journal, all of
    /// them at once: a crash leaves the journal with every record of the batch or with none (and then
    /// message files that no record names, never sent; `OutboxStatus.orphans`). A draft that cannot be
    /// rendered is reported in `rejected` and the others are still queued.
    public func enqueue(
        _ drafts: [MailDraft], labels: [String?] = [], writer: MIMEWriter = MIMEWriter(),
        date: Date = Date()
    ) throws -> EnqueueResult {
        let lock = try acquireLock()
        defer { releaseLock(lock) }
        // (nil only when stopped, and there is no stop here)
        return try enqueueLocked(drafts, labels: labels, writer: writer, date: date, stop: nil)
            ?? EnqueueResult(ids: [], rejected: [])
    }

    /// Queues the drafts like `enqueue` when the outbox holds no message yet; when it does (a resume of a
    /// run that queued them before), queues nothing and says how many it holds. Checked and queued under
    /// the outbox's lock, so a batch is queued once even when two runs start on one folder. Message files
    /// no journal record names (a run killed while queueing) are removed first: they are never sent.
    ///
    /// With `stop`, a stop requested before the batch's records are in the journal (before the first draft,
    /// between two, or after the last) ends the queueing with `.interrupted`: the message files written
    /// are removed and nothing is queued, so that a later resume never takes part of a batch for all of it.
    ///
    /// ```swift
    /// let stop = OutboxStop()   // stop.request() on Ctrl-C
    /// switch try outbox.enqueueOnce([draft], stop: stop) {
    /// case .queued(let result): print("\(result.ids.count) queued, \(result.rejected.count) refused")
    /// case .resumed(let count): print("resuming \(count) message(s)")
    /// case .interrupted: print("stopped: nothing queued")
    /// }
    /// ```
    ///
    /// `texts` are queued beside the mail, one message per number (sent through an SMS program by
    /// `send(using:texts:policy:stop:progress:)`); a text refused is reported with the index
    /// `drafts.count + ` its index in `texts`.
    public func enqueueOnce(
        _ drafts: [MailDraft], labels: [String?] = [], texts: [MessageDraft] = [], textLabels: [String?] = [],
        writer: MIMEWriter = MIMEWriter(), date: Date = Date(), stop: OutboxStop? = nil
    ) throws(ComposerError) -> OutboxQueueing {
        do {
            let lock = try acquireLock()
            defer { releaseLock(lock) }
            // Message files of a queueing cut short (a kill) are never sent: they go before anything else.
            try removeOrphans()
            let existing = try journal.replay().items.count
            if existing > 0 { return .resumed(count: existing) }
            guard
                let result = try enqueueLocked(
                    drafts, labels: labels, texts: texts, textLabels: textLabels, writer: writer, date: date,
                    stop: stop)
            else { return .interrupted }
            return .queued(result)
        } catch {
            throw ComposerError(error, path: directory.path)
        }
    }

    /// Writes the message files, then commits their records to the journal at once. Nil when `stop` was
    /// requested before the commit; then, as when an error ends it early, the files written are removed.
    private func enqueueLocked(
        _ drafts: [MailDraft], labels: [String?], texts: [MessageDraft] = [], textLabels: [String?] = [],
        writer: MIMEWriter, date: Date, stop: OutboxStop?
    ) throws -> EnqueueResult? {
        var next = try nextSequence()
        var records: [OutboxJournal.Record] = []
        var ids: [String] = []
        var rejected: [EnqueueResult.Rejected] = []
        var written: [String] = []
        func takeBack() {
            for path in written { unlink(path) }
            if !written.isEmpty { AtomicFile.syncDirectory(messagesDirectory.path) }
        }
        do {
            for (index, draft) in drafts.enumerated() {
                if stop?.isRequested == true {
                    takeBack()
                    return nil
                }
                do {
                    let bytes = try writer.write(draft, date: date)
                    guard let from = draft.from else { throw ComposerError.missingField("from") }
                    let id = String(format: "%06d", next)
                    next += 1
                    let url = try AtomicFile.writeNew(bytes, directory: messagesDirectory, base: id, ext: "eml")
                    written.append(url.path)
                    guard url.lastPathComponent == "\(id).eml" else {
                        throw ComposerError.io(path: url.path, message: "message file name taken")
                    }
                    let label = index < labels.count ? labels[index] : nil
                    records.append(
                        OutboxJournal.Record(
                            event: .queued, id: id, at: date.timeIntervalSince1970,
                            from: draft.envelopeSender ?? from.asciiAddress,
                            to: draft.envelopeRecipients, label: label))
                    ids.append(id)
                    try faultHook?(.afterQueuedFile, id)
                } catch let error as ComposerError {
                    if case .io = error { throw error }
                    rejected.append(.init(index: index, error: error))
                }
            }
            for (t, text) in texts.enumerated() {
                for number in text.recipients {
                    if stop?.isRequested == true {
                        takeBack()
                        return nil
                    }
                    do {
                        try E164.check(number)
                        let id = String(format: "%06d", next)
                        next += 1
                        let body = Array(text.body.utf8)
                        let url = try AtomicFile.writeNew(body, directory: messagesDirectory, base: id, ext: "txt")
                        written.append(url.path)
                        guard url.lastPathComponent == "\(id).txt" else {
                            throw ComposerError.io(path: url.path, message: "message file name taken")
                        }
                        records.append(
                            OutboxJournal.Record(
                                event: .queued, id: id, at: date.timeIntervalSince1970, from: "", to: [number],
                                label: t < textLabels.count ? textLabels[t] : nil, kind: OutboxItem.Kind.text.rawValue))
                        ids.append(id)
                        try faultHook?(.afterQueuedFile, id)
                    } catch let error as ComposerError {
                        if case .io = error { throw error }
                        rejected.append(.init(index: drafts.count + t, error: error))
                    }
                }
            }
            if stop?.isRequested == true {
                takeBack()
                return nil
            }
            try journal.appendAtOnce(records)
        } catch {
            takeBack()
            throw error
        }
        return EnqueueResult(ids: ids, rejected: rejected)
    }

    /// Removes the folder of this outbox when it holds only what opening it made (the `messages` folder,
    /// empty, the lock file and the batch's name): for a new outbox whose queueing was stopped, or into
    /// which nothing was queued. True when it is gone.
    @discardableResult
    public func removeIfUnused() -> Bool {
        guard !FileManager.default.fileExists(atPath: journalPath) else { return false }
        unlink(directory.appendingPathComponent(".lock").path)
        unlink(directory.appendingPathComponent(Outbox.batchFileName).path)
        guard rmdir(messagesDirectory.path) == 0 || errno == ENOENT, rmdir(directory.path) == 0 else { return false }
        AtomicFile.syncDirectory(directory.deletingLastPathComponent().path)
        return true
    }

    private func nextSequence() throws -> Int {
        var maxID = 0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory.path)) ?? []
        for name in names {
            if let id = Outbox.messageID(ofFile: name), let n = Int(id.prefix { $0.isNumber }) { maxID = max(maxID, n) }
        }
        for item in try journal.replay().items {
            if let n = Int(item.id) { maxID = max(maxID, n) }
        }
        return maxID + 1
    }
}
