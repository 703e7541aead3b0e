import Foundation
import Support
import Testing

/// The package's one way to start a child program: in this process group or in one of its own.
@Suite struct ChildProcessTests {
    /// Runs `script` with its standard output into a pipe; its pid, status and output.
    func run(_ script: String, ownGroup: Bool) throws -> (pid: pid_t, status: ChildProcess.Status, output: String) {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid = try ChildProcess.spawn(
            ["/bin/sh", "-c", script], descriptors: [0: 0, 1: fds[1], 2: 2], ownGroup: ownGroup)
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            output += buffer[..<n]
        }
        close(fds[0])
        return (pid, try ChildProcess.wait(pid, path: "/bin/sh"), String(decoding: output, as: UTF8.self))
    }

    @Test func exitStatusSignalAndProcessGroup() throws {
        #expect(try run("exit 3", ownGroup: false).status == .exited(3))
        #expect(try run("kill -TERM $$", ownGroup: false).status == .signaled(SIGTERM))
        #expect(try run("kill -TERM $$", ownGroup: true).status == .signaled(SIGTERM))
        // Field 5 of /proc/self/stat is the process group: ours, or the child's own.
        let group = "read -r a b c d e rest < /proc/self/stat; echo $e"
        let same = try run(group, ownGroup: false)
        #expect(same.output == "\(getpgrp())\n")
        let own = try run("exec /bin/sh -c '\(group)'", ownGroup: true)
        #expect(own.output == "\(own.pid)\n")
        #expect(own.status == .exited(0))
    }

    @Test func aProgramThatIsNotThereIsNamed() {
        for ownGroup in [false, true] {
            #expect(throws: PrivateFilesError.self) {
                try ChildProcess.spawn(["/nonexistent/program"], descriptors: [0: 0, 1: 1, 2: 2], ownGroup: ownGroup)
            }
            do {
                _ = try ChildProcess.spawn(
                    ["/nonexistent/program"], descriptors: [0: 0, 1: 1, 2: 2], ownGroup: ownGroup)
            } catch {
                #expect(error.path == "/nonexistent/program")
                #expect(error.code == ENOENT)
            }
        }
    }
}
