import Foundation
import Support

/// Appends messages to an mbox file in the mboxrd form that mutt, Thunderbird and Python's `mailbox` read:
/// a `From <sender> <date>` line before each message, LF line ends, every body line that starts with
/// `From ` after any number of `>` quoted with one more `>`, and an empty line after each message.
///
/// Each message is appended at once under the file's locks (an `fcntl` write lock and `flock`, the two that
/// mail readers take), fsynced; a write that fails is cut off again, so the file never holds half a message.
/// Messages keep `Bcc` (a saved copy). A new file is owner-only.
///
/// ```swift
/// let mbox = MboxTransport(file: URL(fileURLWithPath: "campaign.mbox"))
/// try mbox.save(draft)
/// ```
public struct MboxTransport: MailTransport {
    public let file: URL
    public var writer: MIMEWriter

    /// Appends to `file` (created when absent).
    public init(file: URL, writer: MIMEWriter = MIMEWriter(includeBcc: true)) {
        self.file = file
        self.writer = writer
    }

    /// True when the file can be appended to, or made in its folder.
    public var canSendMail: Bool {
        access(file.path, W_OK) == 0 || access(file.deletingLastPathComponent().path, W_OK | X_OK) == 0
    }

    /// Appends the draft.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        try save(draft)
        return .saved
    }

    /// Appends the draft, its envelope sender in the `From ` line.
    public func save(_ draft: MailDraft, date: Date = Date()) throws {
        guard let from = draft.from else { throw ComposerError.missingField("from") }
        try append(try writer.write(draft, date: date), sender: from.asciiAddress, date: date)
    }

    /// Appends an already rendered message (CRLF or LF line ends) as sent by `sender` at `date`.
    public func append(_ message: [UInt8], sender: String, date: Date = Date()) throws {
        let path = file.path
        let fd = PrivateFiles.open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW)
        guard fd >= 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        while fcntl(fd, F_SETLKW, &lock) != 0 {
            guard errno == EINTR else {
                throw ComposerError.io(path: path, message: "cannot lock the mbox: \(AtomicFile.errnoText())")
            }
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw ComposerError.io(path: path, message: "cannot lock the mbox: \(AtomicFile.errnoText())")
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ComposerError.io(path: path, message: "not a plain file")
        }
        let size = info.st_size
        var bytes: [UInt8] = []
        // The previous message must end with an empty line before the next "From " line.
        if size > 0 {
            var tail: [UInt8] = [0, 0]
            let n = pread(fd, &tail, 2, size >= 2 ? size - 2 : 0)
            let end = Array(tail.prefix(max(n, 0)))
            if end.last != 0x0A {
                bytes += [0x0A, 0x0A]
            } else if size >= 2 && end.first != 0x0A {
                bytes.append(0x0A)
            }
        }
        bytes += Self.entry(message, sender: sender, date: date)
        do {
            try AtomicFile.writeAll(fd, bytes, path: path)
            guard fsync(fd) == 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        } catch {
            _ = ftruncate(fd, size)
            throw error
        }
    }

    /// One mboxrd entry: the `From ` line, the message with LF line ends and `>From ` quoting, an empty line.
    static func entry(_ message: [UInt8], sender: String, date: Date) -> [UInt8] {
        var out = Array("From \(sender.isEmpty ? "MAILER-DAEMON" : sender) \(asctime(date))\n".utf8)
        out.reserveCapacity(message.count + 64)
        var lineStart = true
        var i = 0
        while i < message.count {
            let b = message[i]
            if lineStart {
                var j = i
                while j < message.count && message[j] == UInt8(ascii: ">") { j += 1 }
                if message[j...].starts(with: "From ".utf8) { out.append(UInt8(ascii: ">")) }
            }
            if b == 13 && i + 1 < message.count && message[i + 1] == 10 {
                i += 1
                continue
            }
            out.append(b)
            lineStart = b == 10
            i += 1
        }
        if out.last != 10 { out.append(10) }
        out.append(10)
        return out
    }

    /// `Thu Jan  1 00:00:00 2026` in UTC, the date form of a `From ` line.
    static func asctime(_ date: Date) -> String {
        var bytes: [UInt8] = []
        MIME.appendDate(date, to: &bytes)  // "Thu, 01 Jan 2026 00:00:00 +0000"
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        let weekday = parts[0].dropLast()
        let day = Int(parts[1]) ?? 1
        return "\(weekday) \(parts[2]) \(day < 10 ? " " : "")\(day) \(parts[4]) \(parts[3])"
    }
}
