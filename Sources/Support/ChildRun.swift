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

        let pid: pid_t
        do { pid = try ChildProcess.spawn([path] + arguments, descriptors: [1: writeEnd]) } catch {
            close(writeEnd)
            throw error
        }
        close(writeEnd)

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
        switch try ChildProcess.wait(pid, path: path) {
        case .exited(let status): return Result(exitStatus: status, signal: nil, output: output)
        case .signaled(let signal): return Result(exitStatus: nil, signal: signal, output: output)
        }
    }
}
