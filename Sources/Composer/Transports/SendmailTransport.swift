internal import CProcess
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hands messages to a local MTA: `sendmail -t -i` (recipients from the headers, a lone `.` is not the end)
/// or, for the outbox, `sendmail -i -f FROM -- RCPT…` with an explicit envelope.
///
/// The message reaches the program as a complete file on its standard input (never a pipe that a crash
/// could cut short, which sendmail would deliver truncated). The program runs in its own process group, so a
/// Ctrl-C on the terminal does not kill it mid-message; it is given `timeout` seconds, then its group is
/// killed and the message is `ComposerError.deliveryUncertain`. Exit status 75 (`EX_TEMPFAIL`) is a
/// transient failure (retried), any other non-zero status a permanent one.
/// `terminateRunningPrograms()` kills the groups still running (for a program that is being stopped).
/// On Linux the program also dies with this process (`PR_SET_PDEATHSIG`): after a `kill -9` no sendmail
/// runs on, and the message it had is uncertain. (The kernel drops that setting for a set-user-ID or
/// set-group-ID program, and programs that sendmail starts itself are not covered.)
///
/// ```swift
/// let mta = SendmailTransport()                       // /usr/sbin/sendmail
/// var custom = SendmailTransport(path: "/usr/local/bin/msmtp")
/// custom.timeout = 120
/// let result = try mta.send(draft)
/// ```
public struct SendmailTransport: MailTransport, EnvelopeTransport {
    public var path: String
    /// Seconds the program may take for one message before its process group is killed.
    public var timeout: Double = 600

    /// `path`, or the first of /usr/sbin/sendmail and /usr/lib/sendmail.
    public init(path: String? = nil) {
        self.path =
            path ?? ["/usr/sbin/sendmail", "/usr/lib/sendmail"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? "/usr/sbin/sendmail"
    }

    public var canSendMail: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `sendmail -t -i`; the message includes Bcc so the MTA can route and then strip it.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard canSendMail else { throw ComposerError.mailUnavailable(reason: "\(path) is not an executable sendmail") }
        let bytes = try MIMEWriter(includeBcc: true).write(draft)
        do {
            try run(["-t", "-i"], message: bytes, onCommit: {})
            return .sent
        } catch {
            return .failed(error)
        }
    }

    /// Runs `sendmail -i -f FROM -- RCPT…` with the message on stdin (envelope validated first).
    public func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        try SMTPTransport.checkEnvelope(sender)
        guard !recipients.isEmpty else { throw ComposerError.missingField("recipients") }
        for r in recipients { try SMTPTransport.checkEnvelope(r) }
        guard canSendMail else { throw ComposerError.mailUnavailable(reason: "\(path) is not an executable sendmail") }
        try run(["-i", "-f", sender, "--"] + recipients, message: message, onCommit: onCommit)
    }

    /// Kills (SIGTERM, then SIGKILL after `grace` seconds) the process group of every sendmail program this
    /// process started that is still running. For a program that stops on a signal: no MTA outlives it.
    public static func terminateRunningPrograms(grace: Double = 1) {
        let groups = ChildProcessGroups.running
        guard !groups.isEmpty else { return }
        for g in groups { kill(-g, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline && groups.contains(where: { kill(-$0, 0) == 0 }) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        for g in groups { kill(-g, SIGKILL) }
    }

    /// Local MTAs expect local line ends: CRLF becomes LF.
    private func run(_ args: [String], message: [UInt8], onCommit: () throws -> Void) throws(ComposerError) {
        var lf: [UInt8] = []
        lf.reserveCapacity(message.count)
        for (i, b) in message.enumerated() where !(b == 13 && i + 1 < message.count && message[i + 1] == 10) {
            lf.append(b)
        }
        let input = try Self.anonymousFile(lf)
        defer { close(input) }
        let output = try Self.anonymousFile([])
        defer { close(output) }
        // Once the program runs it has the whole message, whatever happens to us: commit first.
        do { try onCommit() } catch { throw error as? ComposerError ?? .io(path: "journal", message: "\(error)") }
        let pid = try spawn(args, input: input, output: output)
        ChildProcessGroups.add(pid)
        defer { ChildProcessGroups.remove(pid) }
        guard let status = Self.wait(pid, timeout: timeout) else {
            kill(-pid, SIGTERM)
            if Self.wait(pid, timeout: 1) == nil {
                kill(-pid, SIGKILL)
                _ = Self.wait(pid, timeout: .infinity)
            }
            kill(-pid, SIGKILL)  // whatever it left in its group
            throw ComposerError.deliveryUncertain(
                reason: "\(path) did not exit within \(SMTPTransport.seconds(timeout)) s and was killed")
        }
        let text = Self.readText(output)
        guard status != Self.lostStatus else {
            throw ComposerError.deliveryUncertain(reason: "lost track of \(path) (its exit status is unknown)")
        }
        let signal = status & 0x7F
        if signal != 0 {
            throw ComposerError.deliveryUncertain(reason: "\(path) was killed by signal \(signal)")
        }
        let code = (status >> 8) & 0xFF
        guard code == 0 else { throw ComposerError.sendmail(status: code, message: text) }
    }

    /// Starts the program in a process group of its own, with default signal handling and the given files as
    /// stdin and stdout/stderr; on Linux it is killed when the calling thread ends (`cprocess_spawn`).
    ///
    /// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends, not only the process. That is
    /// safe here: `run` starts the program and waits for it (`wait`, then the kills of a timeout) on the same
    /// thread, synchronously, without suspending; the thread cannot end while the program runs unless the
    /// whole process does, which is when the program must die.
    private func spawn(_ args: [String], input: Int32, output: Int32) throws(ComposerError) -> pid_t {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var error: Int32 = 0
        let pid = cprocess_spawn(path, argv, environ, input, output, output, &error)
        guard pid > 0 else {
            throw ComposerError.mailUnavailable(reason: "cannot start \(path): \(String(cString: strerror(error)))")
        }
        return pid
    }

    private static let lostStatus = Int32.min

    /// Waits for `pid` up to `timeout` seconds; its raw wait status, or nil when it is still running.
    private static func wait(_ pid: pid_t, timeout: Double) -> Int32? {
        let start = DispatchTime.now().uptimeNanoseconds
        var pause: UInt32 = 1_000
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return status }
            if r < 0 && errno != EINTR { return lostStatus }  // reaped elsewhere: its outcome is unknown
            if Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 >= timeout { return nil }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// An unlinked temporary file holding `bytes`, positioned at its start (nothing to clean up).
    private static func anonymousFile(_ bytes: [UInt8]) throws(ComposerError) -> Int32 {
        var template = Array((FileManager.default.temporaryDirectory.path + "/contacts-sendmail-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw ComposerError.io(path: path, message: AtomicFile.errnoText()) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        unlink(path)
        do {
            try AtomicFile.writeAll(fd, bytes, path: path)
        } catch {
            close(fd)
            throw error as? ComposerError ?? .io(path: path, message: "\(error)")
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// What the program printed (its last 2000 bytes), trimmed.
    private static func readText(_ fd: Int32) -> String {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return "" }
        let count = Int(min(size, 2000))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(size) - off_t(count)) }
        return String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The process groups of the sendmail programs running now.
enum ChildProcessGroups {
    private static let groups = Mutex<Set<pid_t>>([])
    static func add(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }
    static func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }
    static var running: [pid_t] { groups.withLock { Array($0) } }
}

/// Hands drafts to the desktop as `mailto:` / `sms:` URIs: printed (to a callback, e.g. stdout) or opened
/// with `xdg-open` when that is installed. The result is `.saved`: a URI delivers nothing by itself.
///
/// ```swift
/// let t = URITransport(mode: .print { print($0) })
/// _ = try t.send(draft)          // prints mailto:…
/// ```
public struct URITransport: MailTransport, MessageTransport {
    public enum Mode: Sendable {
        case print(@Sendable (String) -> Void)
        case open(opener: String)
    }
    public var mode: Mode

    public init(mode: Mode) { self.mode = mode }

    /// `xdg-open` from PATH, if any.
    public static var xdgOpen: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/xdg-open" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private var available: Bool {
        if case .open(let opener) = mode { return FileManager.default.isExecutableFile(atPath: opener) }
        return true
    }
    public var canSendMail: Bool { available }
    public var canSendText: Bool { available }

    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.mailUnavailable(reason: "no program to open mailto: URIs (xdg-open)")
        }
        return try hand(MailtoURI(draft: draft).string)
    }

    public func send(_ draft: MessageDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.messagingUnavailable(reason: "no program to open sms: URIs (xdg-open)")
        }
        return try hand(try SMSURI(draft: draft).string)
    }

    private func hand(_ uri: String) throws -> ComposeResult {
        switch mode {
        case .print(let output):
            output(uri)
            return .saved
        case .open(let opener):
            let p = Process()
            p.executableURL = URL(fileURLWithPath: opener)
            p.arguments = [uri]
            do { try p.run() } catch {
                return .failed(.mailUnavailable(reason: "\(opener): \(error.localizedDescription)"))
            }
            p.waitUntilExit()
            return p.terminationStatus == 0
                ? .saved : .failed(.mailUnavailable(reason: "\(opener) exited with \(p.terminationStatus)"))
        }
    }
}
