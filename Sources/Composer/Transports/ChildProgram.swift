import Foundation
import Support
import Synchronization

/// One run of a delivery program (sendmail, an SMS program): the input as a complete file on its standard
/// input (never a pipe that a crash could cut short), its own process group (a Ctrl-C on the terminal does
/// not kill it mid-message), `timeout` seconds before its group is killed, and on Linux death with this
/// process (`PR_SET_PDEATHSIG`). What happens after `onCommit` without an exit status of the program's own
/// is `ComposerError.deliveryUncertain`.
struct ChildProgram {
    var path: String
    var timeout: Double

    /// The program's exit status and the last of what it printed.
    struct Exit {
        var status: Int32
        var output: String
    }

    /// Runs the program with `args` and `input` on stdin; `onCommit` just before it starts.
    /// - Throws: `ComposerError.mailUnavailable` when it cannot be started (`unavailable` makes the error),
    ///   `.deliveryUncertain` when it is killed, times out or is lost track of.
    func run(
        _ args: [String], input bytes: [UInt8], onCommit: () throws -> Void,
        unavailable: (String) -> ComposerError = { .mailUnavailable(reason: $0) }
    ) throws(ComposerError) -> Exit {
        let input = try Self.anonymousFile(bytes)
        defer { close(input) }
        let output = try Self.anonymousFile([])
        defer { close(output) }
        // Once the program runs it has the whole input, whatever happens to us: commit first.
        do { try onCommit() } catch { throw error as? ComposerError ?? .io(path: "journal", message: "\(error)") }
        let pid = try spawn(args, input: input, output: output, unavailable: unavailable)
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
        return Exit(status: (status >> 8) & 0xFF, output: text)
    }

    /// Starts the program in a process group of its own, with default signal handling and the given files as
    /// stdin and stdout/stderr; on Linux it is killed when the calling thread ends (`ChildProcess`, own group).
    ///
    /// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends, not only the process. That is
    /// safe here: `run` starts the program and waits for it (`wait`, then the kills of a timeout) on the same
    /// thread, synchronously, without suspending; the thread cannot end while the program runs unless the
    /// whole process does, which is when the program must die.
    private func spawn(_ args: [String], input: Int32, output: Int32, unavailable: (String) -> ComposerError)
        throws(ComposerError) -> pid_t
    {
        do {
            return try ChildProcess.spawn([path] + args, descriptors: [0: input, 1: output, 2: output], ownGroup: true)
        } catch {
            throw unavailable("cannot start \(path): \(error.reason)")
        }
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
        var template = Array((FileManager.default.temporaryDirectory.path + "/contacts-program-XXXXXX").utf8CString)
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

/// The process groups of the delivery programs running now.
enum ChildProcessGroups {
    private static let groups = Mutex<Set<pid_t>>([])
    static func add(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }
    static func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }
    static var running: [pid_t] { groups.withLock { Array($0) } }
}
