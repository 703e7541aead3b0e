import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an outbox run retries and paces deliveries.
///
/// ```swift
/// var policy = OutboxPolicy()
/// policy.messagesPerMinute = 30
/// policy.maxAttempts = 4; policy.backoff = 5   // 5 s, 10 s, 20 s between tries
/// ```
public struct OutboxPolicy: Sendable, Hashable {
    /// Tries per message within one run for transient failures (4xx, network); then it stays deferred for
    /// a later resume.
    public var maxAttempts = 5
    /// Seconds before the first retry; doubled for each further retry, capped at `maxBackoff`.
    public var backoff: Double = 2
    public var maxBackoff: Double = 300
    /// At most this many delivery attempts start per minute (nil: no limit).
    public var messagesPerMinute: Double?
    /// Re-send messages whose outcome is unknown (a crash after the server may have accepted them). Off by
    /// default: that can deliver them twice.
    public var resendUncertain = false

    /// Defaults: 5 attempts per run, backoff 2 s doubling up to 300 s, no rate limit.
    public init() {}

    /// A policy with `maxAttempts` tries per message and run, a first `backoff` of that many seconds
    /// (doubled for each further retry, capped at 300 s or at `backoff` when that is longer) and at most
    /// `messagesPerMinute` attempts starting per minute.
    ///
    /// ```swift
    /// let policy = OutboxPolicy(maxAttempts: 2, backoff: 0.5, messagesPerMinute: 1.0 / 60)  // 1 per hour
    /// ```
    public init(maxAttempts: Int = 5, backoff: Double = 2, messagesPerMinute: Double? = nil) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.maxBackoff = max(maxBackoff, backoff)
        self.messagesPerMinute = messagesPerMinute
    }
}

/// Where a message of the outbox stands, replayed from the journal.
public enum OutboxState: String, Sendable, Codable, CaseIterable {
    /// Written, not yet accepted by a server.
    case queued
    /// A transient failure (4xx, network); will be retried on resume.
    case deferred
    /// Handed over, then no verdict: the connection dropped or timed out after the end of the message, or
    /// the run was killed in that window. The server may have accepted it; it is never re-sent by itself.
    /// `Outbox.settle(_:as:)` records what the user found out (`.sent`, or `.resend` to queue it again).
    case uncertain
    case sent
    /// A permanent failure (5xx or invalid); reported, never retried.
    case failed
}

/// One message of the outbox.
public struct OutboxItem: Sendable, Hashable {
    public var id: String
    public var label: String?
    public var from: String
    public var recipients: [String]
    public var state: OutboxState
    /// Delivery attempts recorded in the journal, over all runs.
    public var attempts: Int
    /// The last SMTP reply code (or nil for none / network errors).
    public var lastCode: Int?
    public var lastError: String?
}

/// Everything `Outbox.status()` knows.
public struct OutboxStatus: Sendable {
    public var items: [OutboxItem]
    /// Message files with no journal entry (left by a crash while queueing); never sent.
    public var orphans: [String]
    /// Journal lines cut short by a crash (ignored).
    public var tornLines: Int

    /// How many messages are in `state`.
    public func count(_ state: OutboxState) -> Int { items.reduce(0) { $0 + ($1.state == state ? 1 : 0) } }
}

/// What one `Outbox.send` run did.
public struct OutboxRunSummary: Sendable, Hashable {
    public var sent = 0
    public var failed = 0
    public var deferred = 0
    /// Uncertain messages: those of this run plus those left by earlier runs (not sent again).
    public var uncertain = 0
    /// Already sent or failed before this run.
    public var skipped = 0
    /// True when the run ended early because `OutboxStop.request()` was called.
    public var interrupted = false
    /// Messages still queued or deferred when an interrupted run ended (sent by the next run).
    public var remaining = 0
}

/// Asks a running `Outbox.send` to stop: the message in flight is finished (its outcome journaled), no
/// further message is started, and `send` returns a summary with `interrupted` set. Safe to call from any
/// thread, e.g. a signal watcher.
///
/// ```swift
/// let stop = OutboxStop()
/// // on SIGINT: stop.request()
/// let summary = try outbox.send(using: smtp, stop: stop)
/// if summary.interrupted { print("\(summary.remaining) left; run again to resume") }
/// ```
public final class OutboxStop: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    /// Requests the stop (idempotent).
    public func request() { flag.store(true, ordering: .sequentiallyConsistent) }
    /// Whether a stop was requested.
    public var isRequested: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// What the user found out about an uncertain message (see `Outbox.settle(_:as:)`).
public enum OutboxSettlement: String, Sendable, CaseIterable {
    /// It did arrive (e.g. the recipient or the server's log has it): mark it sent.
    case sent
    /// It did not arrive: queue it again; the next run sends it.
    case resend
}

/// Messages queued by `Outbox.enqueue`, and the drafts that could not be written (with their index).
public struct EnqueueResult: Sendable {
    public struct Rejected: Sendable, Equatable {
        public var index: Int
        public var error: ComposerError
    }
    public var ids: [String]
    public var rejected: [Rejected]
}

/// What `Outbox.enqueueOnce` did: queued the drafts into an empty outbox, found it already holding
/// messages (a resume) and queued nothing, or was stopped before the drafts were queued.
public enum OutboxQueueing: Sendable {
    case queued(EnqueueResult)
    /// The outbox held `count` messages already; the drafts were not queued again.
    case resumed(count: Int)
    /// A stop was requested (`OutboxStop`) before every draft was queued: none is, and the message files
    /// written for them were removed again. The outbox is as it was.
    case interrupted
}

/// What `Outbox.settle(_:as:)` did with a list of ids: those settled, and those refused (unknown, or not
/// uncertain) with the reason.
public struct OutboxSettleResult: Sendable, Equatable {
    public struct Refusal: Sendable, Equatable {
        public var id: String
        public var error: ComposerError
    }
    public var settled: [String] = []
    public var refused: [Refusal] = []
}

/// A progress event of a run (for a progress bar).
public struct OutboxProgress: Sendable {
    public var item: OutboxItem
    public var done: Int
    public var total: Int
}

/// A folder that delivers a batch exactly once, across crashes and resumes.
///
/// Layout: `messages/<id>.eml` (every rendered message, written and fsynced before anything is sent) and
/// `journal.jsonl`, an append-only, fsynced log: `queued` (with the envelope), then per attempt `attempt`,
/// `commit` (written just before the transport's point of no return, e.g. SMTP's final `.`), and one of
/// `sent`, `deferred` (4xx / network; retried with backoff, and on resume) or `failed` (5xx). Failures of
/// the transport itself (credentials, TLS, no sendmail) stop the run without marking any message.
///
/// Replaying the journal decides what to send: a crash before `commit` means the server cannot have accepted
/// the message, so it is sent again; a crash between `commit` and `sent` leaves the message `uncertain`,
/// reported and not re-sent unless `OutboxPolicy.resendUncertain`. So does any failure after `commit`
/// other than the server's own reply (connection dropped or timed out after the final `.`, sendmail
/// killed): it is journaled `uncertain`, never `deferred`. Hence no message is sent twice, and none is
/// lost: each ends `sent`, `failed`, `deferred` or `uncertain`, all listed by `status()`; `settle` records
/// what the user decides about an uncertain one. A lock file keeps two processes from running one outbox;
/// `create(in:name:)` makes a new outbox folder that no other run can share.
///
/// ```swift
/// let outbox = try Outbox(directory: URL(fileURLWithPath: "outbox"))
/// let queued = try outbox.enqueue([draft])
/// let smtp = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://mail.example.com"))
/// let summary = try outbox.send(using: smtp, policy: OutboxPolicy())
/// print(summary.sent, summary.failed, try outbox.status().count(.deferred))
/// ```
public final class Outbox {
    public let directory: URL
    var messagesDirectory: URL { directory.appendingPathComponent("messages") }
    var journalPath: String { directory.appendingPathComponent("journal.jsonl").path }

    /// Test seam: called at each step of a run; throwing simulates a crash at that point. (While queueing,
    /// after each message file: throwing is an error that ends the queueing.)
    enum Step { case beforeAttempt, afterCommit, afterDelivered, afterOutcome, afterQueuedFile }
    var faultHook: ((Step, String) throws -> Void)?

    /// Opens (creating if needed) the outbox at `directory`.
    public init(directory: URL) throws {
        self.directory = directory
        try AtomicFile.ensureDirectory(messagesDirectory)
    }

    /// Creates a new, empty outbox folder in `parent`: `name`, or `name-2`, `name-3`, … when that exists.
    /// The folder is made with one `mkdir` that fails if the name is taken, so two runs started at the same
    /// moment never share (or resume) each other's outbox.
    ///
    /// ```swift
    /// let outbox = try Outbox.create(in: URL(fileURLWithPath: "."), name: "outbox-20260101-120000")
    /// ```
    public static func create(in parent: URL, name: String) throws -> Outbox {
        var n = 1
        while true {
            let url = parent.appendingPathComponent(n == 1 ? name : "\(name)-\(n)")
            if PrivateFiles.makeDirectory(url.path) == 0 {
                AtomicFile.syncDirectory(parent.path)
                return try Outbox(directory: url)
            }
            guard errno == EEXIST, n < 10_000 else {
                throw ComposerError.io(path: url.path, message: "cannot create outbox: \(AtomicFile.errnoText())")
            }
            n += 1
        }
    }

    /// The name of a new outbox folder made at `date`: `outbox-YYYYMMDD-HHMMSS` (UTC).
    public static func defaultName(for date: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd-HHmmss"
        return "outbox-" + f.string(from: date)
    }

    /// Opens the outbox `location` names: a new folder (`create(in:name:)` with `defaultName(for: date)`),
    /// or an existing one to resume.
    ///
    /// ```swift
    /// let fresh = try Outbox(.new(in: URL(fileURLWithPath: ".")))
    /// let again = try Outbox(.resume(fresh.directory))
    /// ```
    /// - Throws: `ComposerError.outboxMissing` when the folder to resume is not there (or not a folder);
    ///   `ComposerError.io` when a folder cannot be made.
    public convenience init(_ location: OutboxLocation, date: Date = Date()) throws(ComposerError) {
        let url: URL
        do {
            switch location {
            case .new(let parent):
                url = try Outbox.create(in: parent, name: Outbox.defaultName(for: date)).directory
            case .resume(let directory):
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else { throw ComposerError.outboxMissing(path: directory.path) }
                url = directory
            }
            try self.init(directory: url)
        } catch {
            throw ComposerError(error, path: Outbox.directory(of: location).path)
        }
    }

    private static func directory(of location: OutboxLocation) -> URL {
        switch location {
        case .new(let parent): return parent
        case .resume(let directory): return directory
        }
    }

    /// True when `directory` holds an outbox journal.
    public static func exists(at directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("journal.jsonl").path)
    }

    struct Record: Codable {
        var e: String
        var id: String
        var at: Double
        var from: String?
        var to: [String]?
        var label: String?
        var code: Int?
        var error: String?
    }

    // MARK: Queueing

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
    /// the outbox's lock, so a batch is queued once even when two runs start on one folder.
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
    public func enqueueOnce(
        _ drafts: [MailDraft], labels: [String?] = [], writer: MIMEWriter = MIMEWriter(), date: Date = Date(),
        stop: OutboxStop? = nil
    ) throws(ComposerError) -> OutboxQueueing {
        do {
            let lock = try acquireLock()
            defer { releaseLock(lock) }
            let existing = try replay().items.count
            if existing > 0 { return .resumed(count: existing) }
            guard let result = try enqueueLocked(drafts, labels: labels, writer: writer, date: date, stop: stop)
            else { return .interrupted }
            return .queued(result)
        } catch {
            throw ComposerError(error, path: directory.path)
        }
    }

    /// Writes the message files, then commits their records to the journal at once. Nil when `stop` was
    /// requested before the commit; then, as when an error ends it early, the files written are removed.
    private func enqueueLocked(
        _ drafts: [MailDraft], labels: [String?], writer: MIMEWriter, date: Date, stop: OutboxStop?
    ) throws -> EnqueueResult? {
        var next = try nextSequence()
        var records: [Record] = []
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
                        Record(
                            e: "queued", id: id, at: date.timeIntervalSince1970, from: from.asciiAddress,
                            to: draft.envelopeRecipients, label: label))
                    ids.append(id)
                    try faultHook?(.afterQueuedFile, id)
                } catch let error as ComposerError {
                    if case .io = error { throw error }
                    rejected.append(.init(index: index, error: error))
                }
            }
            if stop?.isRequested == true {
                takeBack()
                return nil
            }
            try appendAtOnce(records)
        } catch {
            takeBack()
            throw error
        }
        return EnqueueResult(ids: ids, rejected: rejected)
    }

    /// Removes the folder of this outbox when it holds only what opening it made (the `messages` folder,
    /// empty, and the lock file): for a new outbox whose queueing was stopped. True when it is gone.
    func removeIfUnused() -> Bool {
        guard !FileManager.default.fileExists(atPath: journalPath) else { return false }
        unlink(directory.appendingPathComponent(".lock").path)
        guard rmdir(messagesDirectory.path) == 0 || errno == ENOENT, rmdir(directory.path) == 0 else { return false }
        AtomicFile.syncDirectory(directory.deletingLastPathComponent().path)
        return true
    }

    private func nextSequence() throws -> Int {
        var maxID = 0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory.path)) ?? []
        for name in names where name.hasSuffix(".eml") {
            if let n = Int(name.dropLast(4).prefix { $0.isNumber }) { maxID = max(maxID, n) }
        }
        for item in try replay().items {
            if let n = Int(item.id) { maxID = max(maxID, n) }
        }
        return maxID + 1
    }

    // MARK: Journal

    /// The journal lines of `records`.
    private func encode(_ records: [Record]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes: [UInt8] = []
        for r in records {
            bytes.append(contentsOf: try encoder.encode(r))
            bytes.append(0x0A)
        }
        return bytes
    }

    private func append(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        // A torn last line (crash mid-write) must not swallow the next record.
        if let tail = lastByte(), tail != 0x0A { bytes.append(0x0A) }
        bytes += try encode(records)
        let fd = PrivateFiles.open(journalPath, O_WRONLY | O_CREAT | O_APPEND)
        guard fd >= 0 else { throw ComposerError.io(path: journalPath, message: AtomicFile.errnoText()) }
        defer { close(fd) }
        try AtomicFile.writeAll(fd, bytes, path: journalPath)
        guard fsync(fd) == 0 else { throw ComposerError.io(path: journalPath, message: AtomicFile.errnoText()) }
    }

    /// Adds `records` to the journal all at once: the journal with them is written beside it, fsynced and
    /// renamed over it. An append of many records (a whole batch's `queued`) can be cut short by a crash
    /// or a signal, and the next run would take the records before the cut for the whole batch.
    private func appendAtOnce(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        var bytes = [UInt8](FileManager.default.contents(atPath: journalPath) ?? Data())
        if let tail = bytes.last, tail != 0x0A { bytes.append(0x0A) }
        bytes += try encode(records)
        let temporary = directory.appendingPathComponent(".journal-\(UInt64.random(in: 0...UInt64.max))").path
        do {
            try AtomicFile.writeAndSync(bytes, path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
            guard rename(temporary, journalPath) == 0 else {
                throw ComposerError.io(path: journalPath, message: AtomicFile.errnoText())
            }
        } catch {
            unlink(temporary)
            throw error
        }
        AtomicFile.syncDirectory(directory.path)
    }

    private func lastByte() -> UInt8? {
        let fd = open(journalPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return nil }
        var b: UInt8 = 0
        return pread(fd, &b, 1, size - 1) == 1 ? b : nil
    }

    private func record(_ event: String, _ item: OutboxItem, code: Int? = nil, error: String? = nil) throws {
        try append([Record(e: event, id: item.id, at: Date().timeIntervalSince1970, code: code, error: error)])
    }

    /// Replays the journal. Unknown events or ids are errors naming the line; a torn final line is counted.
    func replay() throws -> (items: [OutboxItem], torn: Int) {
        guard let data = FileManager.default.contents(atPath: journalPath) else { return ([], 0) }
        var items: [OutboxItem] = []
        var index: [String: Int] = [:]
        var torn = 0
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (n, line) in lines.enumerated() where !line.isEmpty {
            guard let r = try? decoder.decode(Record.self, from: line) else {
                // Only a crash mid-append produces an unparsable line; it is always followed by a newline
                // we added, or is the last line.
                torn += 1
                continue
            }
            if r.e == "queued" {
                guard let from = r.from, let to = r.to else {
                    throw ComposerError.journal(
                        path: journalPath, line: n + 1, message: "queued record without envelope")
                }
                index[r.id] = items.count
                items.append(
                    OutboxItem(id: r.id, label: r.label, from: from, recipients: to, state: .queued, attempts: 0))
                continue
            }
            guard let i = index[r.id] else {
                throw ComposerError.journal(
                    path: journalPath, line: n + 1, message: "event '\(r.e)' for unknown message \(r.id)")
            }
            switch r.e {
            case "attempt": items[i].attempts += 1
            case "commit", "uncertain": items[i].state = .uncertain
            case "sent", "settled-sent": items[i].state = .sent
            case "settled-resend": items[i].state = .queued
            case "deferred": items[i].state = .deferred
            case "failed": items[i].state = .failed
            default:
                throw ComposerError.journal(path: journalPath, line: n + 1, message: "unknown event '\(r.e)'")
            }
            if r.code != nil || r.error != nil {
                items[i].lastCode = r.code
                items[i].lastError = r.error
            }
        }
        return (items, torn)
    }

    /// Every message and its state, plus orphaned files and torn journal lines.
    public func status() throws -> OutboxStatus {
        let (items, torn) = try replay()
        let known = Set(items.map(\.id))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory.path)) ?? []
        let orphans = names.filter { $0.hasSuffix(".eml") && !known.contains(String($0.dropLast(4))) }.sorted()
        return OutboxStatus(items: items, orphans: orphans, tornLines: torn)
    }

    // MARK: Settling

    /// Records what the user found out about the uncertain message `id`: `.sent` marks it sent, `.resend`
    /// queues it again for the next `send`. Only uncertain messages can be settled.
    ///
    /// ```swift
    /// for item in try outbox.status().items where item.state == .uncertain {
    ///     let arrived = false   // what the recipient's mailbox (or the server's log) shows
    ///     try outbox.settle(item.id, as: arrived ? .sent : .resend)
    /// }
    /// ```
    /// - Throws: `ComposerError.journal` naming the message when it is unknown or not uncertain;
    ///   `ComposerError.io` when the outbox is in use or the journal cannot be written.
    public func settle(_ id: String, as settlement: OutboxSettlement) throws {
        if let refused = try settle([id], as: settlement).refused.first { throw refused.error }
    }

    /// Settles several uncertain messages at once (under one lock): each id that is unknown or not
    /// uncertain is refused with the reason, the others are settled.
    ///
    /// ```swift
    /// let result = try outbox.settle(["000017", "000042"], as: .resend)
    /// for r in result.refused { print(r.id, r.error) }
    /// ```
    /// - Throws: `ComposerError.io` when the outbox is in use or the journal cannot be written (the ids
    ///   before the failing one are settled), `ComposerError.journal` when it cannot be read.
    public func settle(_ ids: [String], as settlement: OutboxSettlement) throws(ComposerError) -> OutboxSettleResult {
        do {
            let lock = try acquireLock()
            defer { releaseLock(lock) }
            var items: [String: OutboxItem] = [:]
            for item in try replay().items { items[item.id] = item }
            var result = OutboxSettleResult()
            for id in ids {
                guard var item = items[id] else {
                    result.refused.append(
                        .init(
                            id: id,
                            error: .journal(path: directory.path, line: 0, message: "no message \(id) in this outbox")))
                    continue
                }
                guard item.state == .uncertain else {
                    result.refused.append(
                        .init(
                            id: id,
                            error: .journal(
                                path: directory.path, line: 0,
                                message: "message \(id) is \(item.state.rawValue), not uncertain")))
                    continue
                }
                try record(settlement == .sent ? "settled-sent" : "settled-resend", item)
                item.state = settlement == .sent ? .sent : .queued
                items[id] = item
                result.settled.append(id)
            }
            return result
        } catch {
            throw ComposerError(error, path: journalPath)
        }
    }

    // MARK: Sending

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
    public func send(
        using transport: any EnvelopeTransport, policy: OutboxPolicy = OutboxPolicy(), stop: OutboxStop? = nil,
        progress: ((OutboxProgress) -> Void)? = nil
    ) throws -> OutboxRunSummary {
        let lock = try acquireLock()
        defer { releaseLock(lock) }
        let items = try replay().items
        var summary = OutboxRunSummary()
        var pending: [OutboxItem] = []
        for item in items {
            switch item.state {
            case .queued, .deferred: pending.append(item)
            case .uncertain:
                if policy.resendUncertain { pending.append(item) } else { summary.uncertain += 1 }
            case .sent, .failed: summary.skipped += 1
            }
        }
        let total = pending.count
        var done = 0
        var attemptsThisRun: [String: Int] = [:]
        var readyAt: [String: Date] = [:]
        var lastStart: Date?
        let interval = policy.messagesPerMinute.map { $0 > 0 ? 60 / $0 : 0 } ?? 0

        while !pending.isEmpty {
            if stop?.isRequested == true { break }
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
            var item = pending[position]
            let bytes: [UInt8]
            let path = messagesDirectory.appendingPathComponent("\(item.id).eml").path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ComposerError.io(path: path, message: "queued message file is missing")
            }
            bytes = Array(data)
            try faultHook?(.beforeAttempt, item.id)
            lastStart = Date()
            try record("attempt", item)
            attemptsThisRun[item.id, default: 0] += 1
            item.attempts += 1
            var failure: ComposerError?
            var committed = false
            do throws(ComposerError) {
                try transport.deliver(
                    bytes, from: item.from, to: item.recipients,
                    onCommit: {
                        try self.record("commit", item)
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
                default:
                    if error.isConfigurationError {
                        // Past the commit record the journal says "uncertain": the transport could not even
                        // start (no program, no connection), so nothing was handed over; say so.
                        if committed { try record("deferred", item, error: error.description) }
                        throw error
                    }
                }
                var code: Int?
                if case .smtp(let c, _) = error { code = c }
                item.lastCode = code
                item.lastError = error.description
                // After the commit point only the server's (or sendmail's) own verdict is definite; any
                // other failure may come after the server stored the message.
                var definite = !committed
                var uncertain = false
                switch error {
                case .smtp, .sendmail: definite = true
                case .deliveryUncertain: uncertain = true
                default: break
                }
                if uncertain || !definite {
                    try record("uncertain", item, code: code, error: error.description)
                    item.state = .uncertain
                    summary.uncertain += 1
                    pending.remove(at: position)
                    done += 1
                } else if error.isTransient {
                    try record("deferred", item, code: code, error: error.description)
                    item.state = .deferred
                    if attemptsThisRun[item.id, default: 0] >= policy.maxAttempts {
                        summary.deferred += 1
                        pending.remove(at: position)
                        done += 1
                    } else {
                        let exponent = Double(attemptsThisRun[item.id, default: 1] - 1)
                        let delay = min(policy.maxBackoff, policy.backoff * pow(2, exponent))
                        readyAt[item.id] = Date().addingTimeInterval(delay)
                        pending[position] = item
                        try faultHook?(.afterOutcome, item.id)
                        continue
                    }
                } else {
                    try record("failed", item, code: code, error: error.description)
                    item.state = .failed
                    summary.failed += 1
                    pending.remove(at: position)
                    done += 1
                }
            } else {
                try faultHook?(.afterDelivered, item.id)
                try record("sent", item)
                item.state = .sent
                summary.sent += 1
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

    // MARK: Lock

    private func acquireLock() throws -> Int32 {
        let path = directory.appendingPathComponent(".lock").path
        let fd = PrivateFiles.open(path, O_RDWR | O_CREAT)
        guard fd >= 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            throw ComposerError.io(path: directory.path, message: "outbox is in use by another process")
        }
        return fd
    }

    private func releaseLock(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// Thrown by the test seam to simulate a crash.
struct OutboxFault: Error {}
