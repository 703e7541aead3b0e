import Foundation
import Support

// The batch an outbox was made for, outboxes left unfinished, message files never journaled
extension Outbox {
    /// The file that names the batch an outbox was made for (``recordBatch(_:)``).
    static let batchFileName = "batch"

    /// The identity of the batch this outbox was made for (``recordBatch(_:)``), nil when none was recorded.
    public var batch: String? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.batchFileName).path)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Records that this outbox holds the batch `identity` (a string the caller makes of what defines the
    /// batch, e.g. template, data, recipients and transport): ``unfinished(batch:in:)`` finds it by it.
    /// Written whole or not at all.
    public func recordBatch(_ identity: String) throws(ComposerError) {
        let path = directory.appendingPathComponent(Self.batchFileName).path
        do { try AtomicFiles.replace(path, with: Array((identity + "\n").utf8)) } catch {
            throw .io(path: path, message: "\(error)")
        }
    }

    /// Whether every message of the outbox is settled — sent or failed — so that no later run sends any of
    /// them: false while one is queued, deferred or uncertain, and for an outbox whose queueing never ended
    /// (no journal: a run stopped at once or killed while rendering or queueing).
    public func isSettled() throws(ComposerError) -> Bool {
        guard Outbox.exists(at: directory) else { return false }
        do {
            return try status().items.allSatisfy { $0.state == .sent || $0.state == .failed }
        } catch {
            throw ComposerError(error, path: directory.path)
        }
    }

    /// The outbox in `folder` (one of its subfolders) made for the batch `identity` that is not settled
    /// (``isSettled()``): messages of it are queued, deferred or uncertain, or its queueing was cut short.
    /// Sending the batch again into a new outbox would send those people a second copy; the outbox is to
    /// be resumed instead. Nil when there is none (the newest first when there are several).
    ///
    /// ```swift
    /// if let open = Outbox.unfinished(batch: "v1-3f0c9a2e", in: URL(fileURLWithPath: ".")) {
    ///     print("resume \(open.path)")
    /// }
    /// ```
    public static func unfinished(batch identity: String, in folder: URL) -> URL? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted(by: >) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(batchFileName).path) else {
                continue
            }
            // Opened without creating anything: an outbox folder has its messages folder already.
            guard let outbox = try? Outbox(directory: url), outbox.batch == identity else { continue }
            if (try? outbox.isSettled()) != true { return url }
        }
        return nil
    }

    /// Removes the message files that no journal record names: left by a run killed while queueing (the
    /// journal records a batch all at once, after its files). They are never sent, and they hold copies of
    /// personal messages; the caller holds the lock. Returns how many were removed.
    @discardableResult
    func removeOrphans() throws -> Int {
        let orphans = try status().orphans
        for name in orphans { unlink(messagesDirectory.appendingPathComponent(name).path) }
        if !orphans.isEmpty { AtomicFile.syncDirectory(messagesDirectory.path) }
        return orphans.count
    }
}
