import Foundation
import Support

/// Saves drafts as files: one `.eml` per mail draft (Bcc kept, as mail clients expect of a draft) and one
/// `sms:` URI per line in `messages.sms.txt` for message drafts. The default transport.
///
/// Each `.eml` is written to a temporary file, fsynced and linked to a fresh name: a reader never sees a
/// partial file and an existing file is never replaced.
///
/// ```swift
/// let files = FileTransport(directory: URL(fileURLWithPath: "out"))
/// let url = try files.save(draft, name: "0001-jane-doe")   // out/0001-jane-doe.eml
/// ```
public struct FileTransport: MailTransport, MessageTransport {
    public let directory: URL
    public var writer: MIMEWriter
    /// The date written into messages (defaults to the moment of writing).
    public var date: (@Sendable () -> Date)?
    /// The `Message-ID` written into a draft (defaults to a fresh unique id); set it for reproducible files.
    public var messageID: (@Sendable (MailDraft) -> String)?

    /// Saves into `directory` (created when needed), with Bcc kept in drafts by default.
    public init(directory: URL, writer: MIMEWriter = MIMEWriter(includeBcc: true)) {
        self.directory = directory
        self.writer = writer
    }

    /// Checks that drafts can be written into ``directory`` before any is made, without creating
    /// anything: the folder exists and can be written, or the nearest folder that exists above it can.
    /// A file where a folder should be (the folder itself or one above it), a symbolic link to nothing,
    /// or a folder that cannot be written is one error naming the path (instead of one failure per draft).
    ///
    /// ```swift
    /// try FileTransport(directory: URL(fileURLWithPath: "drafts")).checkDirectory()
    /// ```
    public func checkDirectory() throws(ComposerError) {
        var path = directory.standardizedFileURL.path
        while true {
            var info = stat()
            if lstat(path, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFLNK && stat(path, &info) != 0 {
                    let to = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                    throw .io(
                        path: path, message: "is a symbolic link to '\(to)', which does not exist (expected a folder)")
                }
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw .io(
                        path: path,
                        message: "is a file, not a folder (drafts need a folder: give a new or existing one)")
                }
                guard access(path, W_OK | X_OK) == 0 else {
                    throw .io(path: path, message: "the folder cannot be written: \(AtomicFile.errnoText())")
                }
                return
            }
            let parent = (path as NSString).deletingLastPathComponent
            if parent.isEmpty || parent == path { return }
            path = parent
        }
    }

    /// True when the folder exists (or can be created) and is writable.
    public var canSendMail: Bool {
        if (try? AtomicFile.ensureDirectory(directory)) == nil { return false }
        return access(directory.path, W_OK) == 0
    }

    /// Same condition as `canSendMail`: the folder must be writable.
    public var canSendText: Bool { canSendMail }

    /// Writes the draft to `<name>.eml` (a slug of the first recipient and subject when `name` is nil).
    @discardableResult
    public func save(_ draft: MailDraft, name: String? = nil) throws -> URL {
        let bytes = try writer.write(draft, date: date?() ?? Date(), messageID: messageID?(draft))
        try AtomicFile.ensureDirectory(directory)
        let base =
            name.map(AtomicFile.slug)
            ?? AtomicFile.slug(
                (draft.to.first?.name ?? draft.to.first?.address ?? "draft") + " " + draft.subject)
        return try AtomicFile.writeNew(bytes, directory: directory, base: base.isEmpty ? "draft" : base, ext: "eml")
    }

    /// Saves the draft (see `save`) and returns `.saved`.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        try save(draft)
        return .saved
    }

    /// Appends the draft's `sms:` URI as one line to `messages.sms.txt` (one `write`, then fsync).
    public func send(_ draft: MessageDraft) throws -> ComposeResult {
        try saveMessage(draft)
        return .saved
    }

    /// Appends the draft's `sms:` URI as one line to `messages.sms.txt` in the folder and returns that file.
    /// The file is appended to only when it is a plain file of its own: a symbolic link (which could point
    /// out of the folder), a hard-linked file, a FIFO or a device is never opened; the line then goes to a
    /// new file, `messages-2.sms.txt`, `messages-3.sms.txt`, … created exclusively.
    @discardableResult
    public func saveMessage(_ draft: MessageDraft) throws -> URL {
        let line = try SMSURI(draft: draft).string + "\n"
        try AtomicFile.ensureDirectory(directory)
        let (fd, path) = try AtomicFile.openForAppending(directory: directory, base: "messages", ext: "sms.txt")
        defer { close(fd) }
        try AtomicFile.writeAll(fd, Array(line.utf8), path: path)
        guard fsync(fd) == 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        return URL(fileURLWithPath: path)
    }
}
