import Foundation
import Support

/// An outbox's `journal.jsonl`: an append-only, fsynced log, one JSON object a line with sorted keys,
/// `{"at":1767225600,"e":"queued","from":"a@example.com","id":"000001","to":["b@example.org"]}`. The line
/// format is what every outbox on disk holds, so it stays as it is: outboxes written before still load.
struct OutboxJournal {
    /// What a line records; the raw value is the `e` written on disk.
    enum Event: String, Codable, CaseIterable {
        /// A message file is in `messages/` (the line carries the envelope and the label).
        case queued
        /// A delivery attempt starts.
        case attempt
        /// Written just before the transport's point of no return (e.g. SMTP's final `.`).
        case commit
        case sent
        /// A transient failure (4xx, network): retried.
        case deferred
        /// A permanent failure (5xx, invalid): never retried.
        case failed
        /// Handed over without a verdict: never re-sent by itself.
        case uncertain
        /// The user found that an uncertain message arrived.
        case settledSent = "settled-sent"
        /// The user found that an uncertain message did not arrive: queued again.
        case settledResend = "settled-resend"
    }

    /// One line.
    struct Record: Codable {
        var event: Event
        var id: String
        var at: Double
        var from: String?
        var to: [String]?
        var label: String?
        var code: Int?
        var error: String?
        /// `text` for a text message; absent for mail (as in every journal written before texts were queued).
        var kind: String?

        enum CodingKeys: String, CodingKey {
            case event = "e"
            case id, at, from, to, label, code, error, kind
        }

        init(
            event: Event, id: String, at: Double, from: String? = nil, to: [String]? = nil, label: String? = nil,
            code: Int? = nil, error: String? = nil, kind: String? = nil
        ) {
            self.kind = kind
            self.event = event
            self.id = id
            self.at = at
            self.from = from
            self.to = to
            self.label = label
            self.code = code
            self.error = error
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let name = try c.decode(String.self, forKey: .event)
            guard let event = Event(rawValue: name) else { throw UnknownEvent(name: name) }
            self.event = event
            id = try c.decode(String.self, forKey: .id)
            at = try c.decode(Double.self, forKey: .at)
            from = try c.decodeIfPresent(String.self, forKey: .from)
            to = try c.decodeIfPresent([String].self, forKey: .to)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            code = try c.decodeIfPresent(Int.self, forKey: .code)
            error = try c.decodeIfPresent(String.self, forKey: .error)
            kind = try c.decodeIfPresent(String.self, forKey: .kind)
        }
    }

    /// A whole line naming an event this version does not know (not a torn line: an error).
    struct UnknownEvent: Error {
        var name: String
    }

    /// The outbox folder; the journal is `journal.jsonl` in it.
    let directory: URL
    var path: String { directory.appendingPathComponent("journal.jsonl").path }

    /// The journal lines of `records`.
    func encode(_ records: [Record]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes: [UInt8] = []
        for r in records {
            bytes.append(contentsOf: try encoder.encode(r))
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Records `event` for the message `item` now.
    /// Records `event` for the message `item` now; with `to`, for those of its recipients only.
    func record(_ event: Event, _ item: OutboxItem, code: Int? = nil, error: String? = nil, to: [String]? = nil)
        throws
    {
        try append([
            Record(event: event, id: item.id, at: Date().timeIntervalSince1970, to: to, code: code, error: error)
        ])
    }

    /// Appends `records` (fsynced).
    func append(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        // A torn last line (crash mid-write) must not swallow the next record.
        if let tail = lastByte(), tail != 0x0A { bytes.append(0x0A) }
        bytes += try encode(records)
        let fd = PrivateFiles.open(path, O_WRONLY | O_CREAT | O_APPEND)
        guard fd >= 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        defer { close(fd) }
        try AtomicFile.writeAll(fd, bytes, path: path)
        guard fsync(fd) == 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
    }

    /// Adds `records` to the journal all at once: the journal with them is written beside it, fsynced and
    /// renamed over it. An append of many records (a whole batch's `queued`) can be cut short by a crash
    /// or a signal, and the next run would take the records before the cut for the whole batch.
    func appendAtOnce(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        var bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        if let tail = bytes.last, tail != 0x0A { bytes.append(0x0A) }
        bytes += try encode(records)
        do { try AtomicFiles.replace(path, with: bytes) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    private func lastByte() -> UInt8? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return nil }
        var b: UInt8 = 0
        return pread(fd, &b, 1, size - 1) == 1 ? b : nil
    }

    /// Replays the journal. Unknown events or ids are errors naming the line; a torn final line is counted.
    func replay() throws -> (items: [OutboxItem], torn: Int) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], 0) }
        var items: [OutboxItem] = []
        var index: [String: Int] = [:]
        var torn = 0
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (n, line) in lines.enumerated() where !line.isEmpty {
            let r: Record
            do {
                r = try decoder.decode(Record.self, from: line)
            } catch let unknown as UnknownEvent {
                throw ComposerError.journal(path: path, line: n + 1, message: "unknown event '\(unknown.name)'")
            } catch {
                // Only a crash mid-append produces an unparsable line; it is always followed by a newline
                // we added, or is the last line.
                torn += 1
                continue
            }
            if r.event == .queued {
                guard let from = r.from, let to = r.to else {
                    throw ComposerError.journal(path: path, line: n + 1, message: "queued record without envelope")
                }
                guard let kind = OutboxItem.Kind(rawValue: r.kind ?? "mail") else {
                    throw ComposerError.journal(path: path, line: n + 1, message: "unknown kind '\(r.kind ?? "")'")
                }
                index[r.id] = items.count
                items.append(
                    OutboxItem(
                        id: r.id, label: r.label, from: from, recipients: to, state: .queued, attempts: 0, kind: kind))
                continue
            }
            guard let i = index[r.id] else {
                throw ComposerError.journal(
                    path: path, line: n + 1, message: "event '\(r.event.rawValue)' for unknown message \(r.id)")
            }
            // A record with `to` concerns those recipients (the server took some and refused others);
            // without, every recipient not sent or failed yet (as every journal written before).
            switch r.event {
            case .queued: continue
            case .attempt: items[i].attempts += 1
            case .commit, .uncertain: items[i].apply(.uncertain, to: r.to)
            case .sent, .settledSent: items[i].apply(.sent, to: r.to)
            case .settledResend: items[i].apply(.queued, to: r.to)
            case .deferred: items[i].apply(.deferred, to: r.to)
            case .failed: items[i].apply(.failed, to: r.to)
            }
            if let to = r.to, r.event == .failed || r.event == .deferred {
                for address in to { items[i].recipientErrors[address] = r.error }
            }
            if r.code != nil || r.error != nil {
                items[i].lastCode = r.code
                items[i].lastError = r.error
            }
        }
        return (items, torn)
    }
}
