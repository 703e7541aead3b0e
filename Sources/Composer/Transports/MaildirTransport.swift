import Foundation
import Support
import Synchronization

/// Delivers into a Maildir (`tmp/`, `new/`, `cur/`), as a mail client reads it: each message is written
/// into `tmp/` under a name no other delivery can have, fsynced, then moved into `new/` (a link, so a
/// name is never reused) and the folder fsynced — a reader sees the whole message or nothing.
///
/// Messages are stored with LF line ends, the local form that mutt, Dovecot and Python's `mailbox` write
/// (a CR before each LF would show as `^M` in mutt's header view).
///
/// Names follow the Maildir convention, `<seconds>.M<microseconds>P<pid>Q<count>R<random>.<host>` (a `/`
/// or `:` in the host name written `\057` and `\072`). Messages are written with `Bcc` (a saved copy
/// keeps who was sent a blind copy, as a Sent folder does). Folders it creates are owner-only.
///
/// ```swift
/// let store = MaildirTransport(directory: URL(fileURLWithPath: "Mail/campaign"))
/// let file = try store.save(draft)   // Mail/campaign/new/1767225600.M1P42Q1R9f3a….host
/// ```
public struct MaildirTransport: MailTransport {
    public let directory: URL
    public var writer: MIMEWriter

    /// A Maildir at `directory` (its folders are made when the first message is saved).
    public init(directory: URL, writer: MIMEWriter = MIMEWriter(includeBcc: true)) {
        self.directory = directory
        self.writer = writer
    }

    /// True when the Maildir's folders exist (or can be made) and can be written.
    public var canSendMail: Bool {
        (try? makeFolders()) != nil && access(directory.appendingPathComponent("new").path, W_OK) == 0
    }

    /// Saves the draft into `new/`.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        try save(draft)
        return .saved
    }

    /// Writes the draft and moves it into `new/`; returns the file's URL.
    @discardableResult
    public func save(_ draft: MailDraft) throws -> URL {
        try deliver(try writer.write(draft))
    }

    /// Writes an already rendered message (CRLF line ends stored as LF) and moves it into `new/`.
    public func deliver(_ message: [UInt8]) throws -> URL {
        let message = Self.localLineEnds(message)
        try makeFolders()
        let name = Self.uniqueName()
        let tmp = directory.appendingPathComponent("tmp/" + name).path
        let new = directory.appendingPathComponent("new/" + name).path
        try AtomicFile.writeAndSync(message, path: tmp, flags: O_WRONLY | O_CREAT | O_EXCL)
        defer { unlink(tmp) }
        guard link(tmp, new) == 0 else { throw ComposerError.io(path: new, message: AtomicFile.errnoText()) }
        AtomicFile.syncDirectory(directory.appendingPathComponent("new").path)
        return URL(fileURLWithPath: new)
    }

    /// `message` with each CRLF written as LF (a lone CR or LF is kept).
    static func localLineEnds(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count)
        for (i, b) in message.enumerated() where !(b == 13 && i + 1 < message.count && message[i + 1] == 10) {
            out.append(b)
        }
        return out
    }

    private func makeFolders() throws {
        for sub in ["tmp", "new", "cur"] { try AtomicFile.ensureDirectory(directory.appendingPathComponent(sub)) }
    }

    /// How many names this process has made (the `Q` part).
    private static let counter = Atomic<UInt64>(0)

    /// A name no other delivery, in this process or another, on this host or another, can make.
    static func uniqueName(now: Date = Date()) -> String {
        let seconds = Int(now.timeIntervalSince1970)
        let micros = Int((now.timeIntervalSince1970 - Double(seconds)) * 1_000_000)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .replacingOccurrences(of: "/", with: "\\057")
            .replacingOccurrences(of: ":", with: "\\072")
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let count = counter.add(1, ordering: .relaxed).newValue
        return "\(seconds).M\(micros)P\(getpid())Q\(count)R\(random).\(hostName)"
    }
}
