import Foundation
import Support

extension Outbox {
    /// The file that marks an outbox as holding a part of its batch (``recordPart()``).
    static let partFileName = "part"

    /// Records that this outbox holds a part of its batch only (a prefix, or the rest of one): the outboxes
    /// of the batch so marked are its ledger (``recipients(ofBatch:in:)``). Written whole or not at all.
    public func recordPart() throws(ComposerError) {
        let path = directory.appendingPathComponent(Self.partFileName).path
        do { try AtomicFiles.replace(path, with: Array("a part of the batch\n".utf8)) } catch {
            throw .io(path: path, message: "\(error)")
        }
    }

    /// Whom the outboxes of the batch `identity` in `folder` that hold a part of it (``recordPart()``) have
    /// messages for already: each message's first recipient (its `To` address, or the number of a text
    /// message), lowercased, with the outbox that holds it. A batch sent in parts (a prefix first, the
    /// rest later) sends each message once: the next part leaves these out. (A batch sent whole is not a
    /// ledger: once settled, it may be sent again.)
    ///
    /// ```swift
    /// let done = Outbox.recipients(ofBatch: "v1-3f0c9a2e", in: URL(fileURLWithPath: "."))
    /// done["anna@example.org"]   // the outbox that has her message, if one has
    /// ```
    public static func recipients(ofBatch identity: String, in folder: URL) -> [String: URL] {
        var found: [String: URL] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(partFileName).path),
                let outbox = try? Outbox(directory: url), outbox.batch == identity,
                let items = try? outbox.status().items
            else { continue }
            for item in items {
                if let first = item.recipients.first { found[first.lowercased()] = found[first.lowercased()] ?? url }
            }
        }
        return found
    }
}
