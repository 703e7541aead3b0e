import Foundation
import Support
import Testing

/// A program run for what it prints: all of its output, its exit status or signal, a clear error when it
/// cannot be started.
@Suite struct ChildRunTests {
    @Test func printsAndExits() throws {
        let r = try ChildRun.run("/bin/sh", ["-c", "printf 'secret\\nsecond line'; exit 3"])
        #expect(r.exitStatus == 3)
        #expect(r.signal == nil)
        #expect(r.output == Array("secret\nsecond line".utf8))
    }

    /// More than a pipe holds (64 KiB): read while the program writes, never a deadlock.
    @Test func readsALongOutputWhole() throws {
        let r = try ChildRun.run("/bin/sh", ["-c", "head -c 300000 /dev/zero"])
        #expect(r.exitStatus == 0)
        #expect(r.output.count == 300_000)
    }

    @Test func aSignalIsNotAnExitStatus() throws {
        let r = try ChildRun.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(r.exitStatus == nil)
        #expect(r.signal == SIGTERM)
    }

    @Test func aMissingProgramIsAnErrorNamingIt() {
        #expect(throws: PrivateFilesError.self) { try ChildRun.run("/nonexistent/program", []) }
        do {
            _ = try ChildRun.run("/nonexistent/program", [])
        } catch {
            #expect(error.path == "/nonexistent/program")
            #expect(error.reason.contains("No such file"))
        }
    }

    /// Its standard input is this process's own (a password prompt can read the terminal), and the
    /// program stays in this process group (a terminal's Ctrl-C reaches it).
    @Test func staysInThisProcessGroup() throws {
        let r = try ChildRun.run("/bin/sh", ["-c", "ps -o pgid= -p $$"])
        let group = String(decoding: r.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int32(group) == getpgrp())
    }
}
