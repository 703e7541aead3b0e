internal import CProcess
import Foundation

/// The package's one way to start a child program and wait for it. Either in this process's group, with the
/// descriptors given as its standard input, output and error (`posix_spawn`: a password command, an editor
/// on the terminal), or in a process group of its own that cannot outlive this process (`ownGroup`, through
/// CProcess: a delivery program). Always with an empty signal mask and the default action for `signals`
/// (in a group of its own: for every signal with a handler here and SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE).
///
/// ```swift
/// let pid = try ChildProcess.spawn(["/bin/true"], descriptors: [:])
/// let status = try ChildProcess.wait(pid, path: "/bin/true")   // .exited(0)
/// ```
package enum ChildProcess {
    /// How a child ended.
    package enum Status: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// From a raw `waitpid` status.
        package init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }

    /// The signals a child started in this process group gets the default action for, whatever this
    /// process set for itself.
    package static let defaultSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU]

    /// Starts `arguments` (the first the program's path) with this process's environment. `descriptors`
    /// maps a child's descriptor (0, 1, 2) to one of ours; the others are inherited (those without
    /// `FD_CLOEXEC`). With `ownGroup`, the child runs in a process group of its own and dies with the
    /// calling thread (wait for it on that thread); `descriptors` must then name 0, 1 and 2. Throws the
    /// system's reason, naming the program, when it cannot be started.
    package static func spawn(
        _ arguments: [String], descriptors: [Int32: Int32], signals: [Int32] = defaultSignals,
        ownGroup: Bool = false
    ) throws(PrivateFilesError) -> Int32 {
        let path = arguments[0]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        if ownGroup {
            var error: Int32 = 0
            let pid = cprocess_spawn(
                path, argv, environ, descriptors[0] ?? 0, descriptors[1] ?? 1, descriptors[2] ?? 2, &error)
            guard pid > 0 else { throw PrivateFilesError(path: path, code: error) }
            return pid
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (child, ours) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, ours, child)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard started == 0 else { throw PrivateFilesError(path: path, code: started) }
        return pid
    }

    /// Waits for `pid` (started from `path`, named in an error) to end, again after `EINTR`.
    package static func wait(_ pid: Int32, path: String) throws(PrivateFilesError) -> Status {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw PrivateFilesError(path: path, code: errno) }
        }
        return Status(waitStatus: status)
    }
}
