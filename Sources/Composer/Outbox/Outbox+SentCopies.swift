import Foundation

extension Outbox {
    /// The journal of the copies of this outbox's sent mail (`sent-copies` in its folder): a copy is
    /// saved once per message and Sent folder, across kills and reruns (``SentCopies``), keyed by the
    /// message's id and the folder's place.
    public var sentCopies: SentCopies { SentCopies(journal: directory.appendingPathComponent("sent-copies").path) }

    /// Whether the server took `item` (for all its recipients, or some).
    static func wasSent(_ item: OutboxItem) -> Bool {
        item.kind == .mail && (item.state == .sent || item.recipientStates.values.contains(.sent))
    }

    /// Saves the copy of `item` (sent) to `folder` unless it was saved before.
    func saveSentCopy(of item: OutboxItem, to folder: any SentFolder) throws -> SentCopyOutcome {
        guard let message = FileManager.default.contents(atPath: messageFile(item)) else {
            throw ComposerError.io(path: messageFile(item), message: "cannot read the sent message")
        }
        let place = folder.place.filter { $0 != "\t" && !$0.isNewline }
        return try sentCopies.save([UInt8](message), key: "\(item.id) \(place)", to: folder)
    }

    /// Saves a copy of every mail of the outbox the server took to `folder` (a Sent mailbox), each once
    /// however often this runs: what a run killed between sending and saving left is saved by the next.
    /// Returns how many were saved now and, per message that could not be, why (the others are saved;
    /// a later call tries again).
    ///
    /// ```swift
    /// let outbox = try Outbox(.resume(URL(fileURLWithPath: "outbox-20260101-120000")))
    /// let result = try outbox.saveSentCopies(to: MaildirSentFolder(directory: URL(fileURLWithPath: "Mail/Sent")))
    /// for problem in result.problems { print(problem) }
    /// ```
    public func saveSentCopies(to folder: any SentFolder) throws(ComposerError) -> (saved: Int, problems: [String]) {
        var saved = 0
        var problems: [String] = []
        let items: [OutboxItem]
        do { items = try status().items } catch { throw ComposerError(error, path: directory.path) }
        for item in items where Self.wasSent(item) {
            do {
                if case .saved = try saveSentCopy(of: item, to: folder) { saved += 1 }
            } catch {
                problems.append("\(item.id)\(item.label.map { " (\($0))" } ?? ""): copy not saved: \(error)")
            }
        }
        return (saved, problems)
    }
}
