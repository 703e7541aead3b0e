import Foundation

/// A program run to its end for what it prints: in this process group, with this process's standard input
/// and error (it may ask on the terminal, as `pass` and its pinentry do), no signal blocked, its standard
/// output read whole.
/// `waitpid` returns the moment it exits (Foundation's `Process.waitUntilExit` polls its run loop and
/// returned tens of milliseconds late, a cost on every `sync --password-command`).
///
/// ```swift
/// let r = try ChildRun.run("/bin/sh", ["-c", "echo secret"])
/// // r.exitStatus == 0, r.output == Array("secret\n".utf8)
/// ```
package enum ChildRun {
    package struct Result: Sendable, Equatable {
        /// The program's exit status, or nil when a signal ended it (`signal`).
        package var exitStatus: Int32?
        package var signal: Int32?
        package var output: [UInt8]
    }

    /// Runs `path` with `arguments` (and this process's environment) and waits for it. Throws the system's
    /// reason when it cannot be started.
    package static func run(_ path: String, _ arguments: [String]) throws(PrivateFilesError) -> Result {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PrivateFilesError(path: path, code: errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // No signal blocked and the default action for those a terminal and a parent send, whatever this
        // process set for itself.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard started == 0 else { throw PrivateFilesError(path: path, code: started) }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 {
                output += buffer[..<n]
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw PrivateFilesError(path: path, code: errno) }
        }
        let signal = status & 0x7F
        return signal == 0
            ? Result(exitStatus: (status >> 8) & 0xFF, signal: nil, output: output)
            : Result(exitStatus: nil, signal: signal, output: output)
    }
}
