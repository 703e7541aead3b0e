import Foundation
import Support

// Removing outboxes whose every message is settled
extension Outbox {
    /// Removes the settled outboxes (``isSettled()``: every message sent or failed) among `folder` and its
    /// subfolders, those whose journal last changed more than `age` seconds before `now` when `age` is
    /// given. An outbox holds a full copy of every message it sent (personal mail, text messages) until it
    /// is removed; one with a message queued, deferred or uncertain, or whose queueing was cut short, is
    /// kept (it is still to be sent or settled), and so is one another process is using. Returns the
    /// folders removed.
    ///
    /// ```swift
    /// let removed = try Outbox.prune(in: URL(fileURLWithPath: "."), olderThan: 30 * 86_400)
    /// ```
    /// - Throws: `ComposerError.io` when `folder` cannot be read or a settled outbox cannot be removed.
    public static func prune(in folder: URL, olderThan age: TimeInterval? = nil, now: Date = Date())
        throws(ComposerError) -> [URL]
    {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .io(path: folder.path, message: "\(error)")
        }
        var candidates = names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
        candidates.insert(folder, at: 0)
        var removed: [URL] = []
        for url in candidates where exists(at: url) {
            guard let outbox = try? Outbox(directory: url), (try? outbox.isSettled()) == true else { continue }
            if let age {
                let changed =
                    (try? FileManager.default.attributesOfItem(atPath: outbox.journalPath)[.modificationDate])
                    as? Date ?? now
                guard now.timeIntervalSince(changed) > age else { continue }
            }
            // Taken while removing: a run that opens it now waits, then finds no outbox.
            guard let lock = try? outbox.acquireLock() else { continue }
            defer { outbox.releaseLock(lock) }
            do { try FileManager.default.removeItem(at: url) } catch {
                throw .io(path: url.path, message: "cannot remove the outbox: \(error)")
            }
            removed.append(url)
        }
        if !removed.isEmpty { AtomicFile.syncDirectory(folder.path) }
        return removed
    }
}
