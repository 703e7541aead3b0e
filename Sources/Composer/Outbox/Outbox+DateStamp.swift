import Foundation
import Support

extension Outbox {
    /// A mail's bytes as they leave the outbox: on its first attempt its `Date` header becomes the time of
    /// that attempt and the file is rewritten before the attempt is journaled, so `--rate` and `--wait` do
    /// not backdate mail by hours and every retry sends the same Date. Texts and later attempts go as queued.
    static func stampedOnFirstAttempt(_ bytes: [UInt8], item: OutboxItem, path: String, now: Date = Date())
        throws(ComposerError) -> [UInt8]
    {
        guard item.kind == .mail, item.attempts == 0, let stamped = MIME.restamped(bytes, date: now) else {
            return bytes
        }
        do {
            try AtomicFiles.replace(path, with: stamped)
        } catch {
            throw ComposerError.io(path: path, message: "\(error)")
        }
        return stamped
    }
}

extension MIME {
    /// `message` with the `Date` header the writer puts on its first line set to `date`; nil when the first
    /// line is not a Date header.
    static func restamped(_ message: [UInt8], date: Date) -> [UInt8]? {
        let prefix = Array("Date: ".utf8)
        guard message.starts(with: prefix),
            let end = message.indices.first(where: {
                message[$0] == 0x0D && $0 + 1 < message.count && message[$0 + 1] == 0x0A
            })
        else { return nil }
        var out = prefix
        appendDate(date, to: &out)
        out.append(contentsOf: message[end...])
        return out
    }
}
