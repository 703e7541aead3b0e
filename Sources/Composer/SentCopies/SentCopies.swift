import Foundation
import Support

/// What ``SentCopies/save(_:key:to:)`` did.
public enum SentCopyOutcome: Sendable, Hashable {
    /// The copy was saved now, at this place.
    case saved(String)
    /// A copy with this key was saved before (by this run or one that was killed): nothing was done.
    case alreadySaved
}

/// Saves each sent message's copy once, across kills: a journal file (one line per step, fsynced,
/// appended) records `saving KEY` before the copy goes to the folder and `saved KEY` after. A key already
/// saved is skipped; a key whose save was cut short (a kill between the two lines) is looked up in the
/// folder by the message's `Message-ID` and saved only when it is not there. The key is the caller's
/// idempotency key: the outbox item's id.
///
/// ```swift
/// let message = try MIMEWriter().write(draft)
/// let copies = SentCopies(journal: "campaign/outbox/sent-copies")
/// let sent = MaildirSentFolder(directory: URL(fileURLWithPath: "Mail/Sent"))
/// switch try copies.save(message, key: "item-42", to: sent) {
/// case .saved(let place): print("copy in \(place)")
/// case .alreadySaved: break
/// }
/// ```
public struct SentCopies: Sendable {
    /// The journal file (created owner-only on the first save).
    public let journal: String

    public init(journal: String) { self.journal = journal }

    /// The state of each key in the journal: true when saved, false when a save began and did not end.
    public func states() throws -> [String: Bool] {
        guard let data = FileManager.default.contents(atPath: journal) else {
            if FileManager.default.fileExists(atPath: journal) {
                throw ComposerError.io(path: journal, message: "cannot read the sent-copies journal")
            }
            return [:]
        }
        var states: [String: Bool] = [:]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { continue }  // a line torn by a crash
            let key = String(fields[1])
            switch fields[0] {
            case "saving": states[key] = states[key] ?? false
            case "saved": states[key] = true
            default: continue
            }
        }
        return states
    }

    /// Saves `message` to `folder` unless the copy of `key` is there already (see the type's description).
    /// `key` holds no tab or line break. Throws what the folder throws (nothing is recorded as saved then).
    public func save(_ message: [UInt8], key: String, to folder: any SentFolder) throws -> SentCopyOutcome {
        guard !key.isEmpty, !key.contains(where: { $0 == "\t" || $0.isNewline }) else {
            throw ComposerError.io(path: journal, message: "a sent-copy key holds no tab or line break")
        }
        switch try states()[key] {
        case true?: return .alreadySaved
        case false?:
            // Cut short: the copy may have arrived. Without a Message-ID there is nothing to look for.
            if let id = ReceivedMail(message[...]).header("Message-ID"), try folder.contains(messageID: id) {
                try append("saved\t\(key)\t(found after an interrupted save)\n")
                return .alreadySaved
            }
        case nil:
            try append("saving\t\(key)\n")
        }
        let place = try folder.save(message)
        try append("saved\t\(key)\t\(place.filter { !$0.isNewline && $0 != "\t" })\n")
        return .saved(place)
    }

    private func append(_ line: String) throws {
        let fd = PrivateFiles.open(journal, O_RDWR | O_CREAT | O_APPEND)
        guard fd >= 0 else { throw ComposerError.io(path: journal, message: AtomicFile.errnoText()) }
        defer { close(fd) }
        var bytes = Array(line.utf8)
        // A line torn by a crash must not swallow this one.
        var last: UInt8 = 0x0A
        let size = lseek(fd, 0, SEEK_END)
        if size > 0, pread(fd, &last, 1, size - 1) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
        try AtomicFile.writeAll(fd, bytes, path: journal)
        guard fsync(fd) == 0 else { throw ComposerError.io(path: journal, message: AtomicFile.errnoText()) }
    }
}
