import Foundation
import Support

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
    /// True for an outbox made by ``init(_:date:)`` with a ``OutboxLocation/new(in:)`` location: a new folder
    /// for one batch, removed again when nothing is queued into it.
    public private(set) var isNew = false
    var messagesDirectory: URL { directory.appendingPathComponent("messages") }
    var journal: OutboxJournal { OutboxJournal(directory: directory) }
    var journalPath: String { journal.path }

    /// The file extensions of message files: mail, text message.
    static let messageExtensions = ["eml", "txt"]

    /// The file that holds the message `item`: `messages/<id>.eml`, or `.txt` for a text message.
    func messageFile(_ item: OutboxItem) -> String {
        messagesDirectory.appendingPathComponent("\(item.id).\(item.kind == .text ? "txt" : "eml")").path
    }

    /// The id of a message file's name (`000001.eml` → `000001`), nil for other files.
    static func messageID(ofFile name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), messageExtensions.contains(String(name[name.index(after: dot)...]))
        else { return nil }
        return String(name[..<dot])
    }

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
        isNew = location.isNew
    }

    private static func directory(of location: OutboxLocation) -> URL {
        switch location {
        case .new(let parent): return parent
        case .resume(let directory): return directory
        }
    }

    /// True when `directory` holds an outbox journal.
    public static func exists(at directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: OutboxJournal(directory: directory).path)
    }

    /// Every message and its state, plus orphaned files and torn journal lines.
    public func status() throws -> OutboxStatus {
        let (items, torn) = try journal.replay()
        let known = Set(items.map(\.id))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory.path)) ?? []
        let orphans = names.filter { Outbox.messageID(ofFile: $0).map { !known.contains($0) } ?? false }.sorted()
        return OutboxStatus(items: items, orphans: orphans, tornLines: torn)
    }

    // MARK: Lock

    func acquireLock() throws -> Int32 {
        let path = directory.appendingPathComponent(".lock").path
        let fd = PrivateFiles.open(path, O_RDWR | O_CREAT)
        guard fd >= 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            throw ComposerError.io(path: directory.path, message: "outbox is in use by another process")
        }
        return fd
    }

    func releaseLock(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// Thrown by the test seam to simulate a crash.
struct OutboxFault: Error {}
