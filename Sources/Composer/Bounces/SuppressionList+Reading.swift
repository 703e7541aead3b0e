import Foundation

/// What reading a folder of bounces found.
public struct BounceReadSummary: Sendable {
    /// The messages read.
    public var messages = 0
    /// Every notice found, in folder order (soft bounces included).
    public var notices: [BounceNotice] = []
    /// The notices that put a new address on the list.
    public var added: [BounceNotice] = []
    /// Messages skipped (too large, unreadable), as `path: why`.
    public var problems: [String] = []
}

extension SuppressionList {
    /// Reads every message of `folder` with `reader` and adds the hard bounces and unsubscribes to the list
    /// (an address already on it stays as it was). Soft bounces are reported, not added.
    ///
    /// ```swift
    /// var list = try SuppressionList(contentsOf: "suppressions.txt")
    /// let summary = try list.read(try MailFolder(path: "Mail/bounces"), with: BounceReader(returnPath: "bounces@sender.example"))
    /// try list.write(to: "suppressions.txt")
    /// print(summary.added.count)
    /// ```
    public mutating func read(_ folder: MailFolder, with reader: BounceReader, date: Date = Date()) throws
        -> BounceReadSummary
    {
        var summary = BounceReadSummary()
        var list = self
        summary.problems = try folder.eachMessage { _, bytes in
            summary.messages += 1
            for notice in reader.notices(in: bytes) {
                summary.notices.append(notice)
                if list.add(notice, date: date) { summary.added.append(notice) }
            }
        }
        self = list
        return summary
    }
}
