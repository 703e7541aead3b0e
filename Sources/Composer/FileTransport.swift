import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file writes: a new file appears complete or not at all, and never replaces another file.
/// Every file and folder made here holds people's data (drafts, outbox messages, the journal): it is
/// created owner-only (``PrivateFiles``: 0600 files, 0700 folders) whatever the umask.
enum AtomicFile {
    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Writes `bytes` to a temporary file, fsyncs it, then hard-links it to the first free name
    /// `<base>.<ext>`, `<base>-2.<ext>`, … (link fails instead of overwriting) and fsyncs the directory.
    static func writeNew(_ bytes: [UInt8], directory: URL, base: String, ext: String) throws -> URL {
        let dir = directory.path
        let tmp = dir + "/.tmp-\(UInt64.random(in: 0...UInt64.max))"
        try writeAndSync(bytes, path: tmp, flags: O_WRONLY | O_CREAT | O_EXCL)
        defer { unlink(tmp) }
        var n = 1
        while true {
            let name = n == 1 ? "\(base).\(ext)" : "\(base)-\(n).\(ext)"
            let path = dir + "/" + name
            if link(tmp, path) == 0 {
                syncDirectory(dir)
                return URL(fileURLWithPath: path)
            }
            guard errno == EEXIST else { throw ComposerError.io(path: path, message: errnoText()) }
            n += 1
        }
    }

    static func writeAndSync(_ bytes: [UInt8], path: String, flags: Int32) throws {
        do { try AtomicFiles.writeAndSync(bytes, path: path, flags: flags) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        do { try AtomicFiles.writeAll(fd, bytes, path: path) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    static func syncDirectory(_ path: String) { AtomicFiles.syncDirectory(path) }

    static func ensureDirectory(_ url: URL) throws {
        do { try PrivateFiles.makeDirectories(url.path) } catch {
            throw ComposerError.io(path: error.path, message: "cannot create directory: \(error.reason)")
        }
    }

    /// A file-name-safe slug of `text` (letters and digits of any script, `-`): at most 40 characters and
    /// `maxSlugBytes` bytes of UTF-8, cut between characters (grapheme clusters). A cluster that alone is
    /// longer (a letter under hundreds of combining marks) is kept as its base letter only, so a file name
    /// never exceeds the file system's 255 bytes; `writeNew` keeps names unique.
    static func slug(_ text: String) -> String {
        var out = ""
        var dash = false
        var characters = 0
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                var piece = String(ch)
                if piece.utf8.count > maxClusterBytes, let base = ch.unicodeScalars.first {
                    piece = String(Character(base))
                }
                if out.utf8.count + piece.utf8.count > maxSlugBytes { break }
                out += piece
                dash = false
                characters += 1
            } else if !dash && !out.isEmpty {
                if out.utf8.count + 1 > maxSlugBytes { break }
                out.append("-")
                dash = true
                characters += 1
            }
            if characters >= 40 { break }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    /// Room for a slug in a 255-byte file name, with a `-NNNN` suffix, the extension and a prefix to spare.
    static let maxSlugBytes = 160
    /// Longest single character kept whole in a slug.
    static let maxClusterBytes = 32
}

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

extension AtomicFile {
    /// Opens `<base>.<ext>` (or `<base>-2.<ext>`, … when that is not a plain file of its own) for appending,
    /// creating it exclusively when absent. Never follows a symbolic link, never blocks on a FIFO.
    static func openForAppending(directory: URL, base: String, ext: String) throws -> (Int32, String) {
        for n in 1...1000 {
            let path = directory.path + "/" + (n == 1 ? "\(base).\(ext)" : "\(base)-\(n).\(ext)")
            var fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 && errno == ENOENT {
                fd = PrivateFiles.open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW)
                if fd >= 0 { syncDirectory(directory.path) }
            }
            if fd < 0 {
                // ELOOP: a symbolic link; ENXIO: a FIFO nobody reads; EEXIST: created meanwhile.
                if [ELOOP, ENXIO, EEXIST, EISDIR, EACCES, ENOENT].contains(errno) { continue }
                throw ComposerError.io(path: path, message: errnoText())
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 {
                _ = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND)
                return (fd, path)
            }
            close(fd)
        }
        throw ComposerError.io(path: directory.path, message: "no usable \(base).\(ext) file name")
    }
}
