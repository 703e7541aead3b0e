import Composer
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM while an outbox is being sent. The first one asks the run to stop after the message
/// in flight (`OutboxStop`): its outcome is journaled, the summary printed, the exit code is 130. A second
/// one stops at once: running sendmail programs are killed with their process groups and the tool exits
/// with 130 (the journal is fsynced record by record, so the next run still knows where each message
/// stands; the message in flight may then be uncertain).
///
/// The signal handler only writes a byte to a pipe; a watcher thread does the rest.
enum Interrupts {
    private static let writeEnd = Atomic<Int32>(-1)
    private static let watching = Mutex<Bool>(false)

    static func watch(_ stop: OutboxStop, resumeHint: String) {
        let started = watching.withLock { active in
            if active { return false }
            active = true
            return true
        }
        guard started else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        writeEnd.store(fds[1], ordering: .sequentiallyConsistent)
        let readEnd = fds[0]
        let thread = Thread {
            var count = 0
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1 else { return }
                count += 1
                if count == 1 {
                    stop.request()
                    printError(
                        "contacts: interrupted: finishing the message in flight, then stopping "
                            + "(interrupt again to stop at once; that message may then be uncertain)")
                } else {
                    SendmailTransport.terminateRunningPrograms()
                    printError("contacts: stopped at once; resume with: \(resumeHint)")
                    _exit(ExitCode.interrupted.rawValue)
                }
            }
        }
        thread.start()
        signal(SIGINT, onSignal)
        signal(SIGTERM, onSignal)
        // A parent may have started us with these signals blocked (the mask is inherited): take them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Restores the default handlers (a later signal ends the tool as usual).
    static func unwatch() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    private static let onSignal: @convention(c) (Int32) -> Void = { _ in
        let saved = errno
        var byte: UInt8 = 1
        _ = write(Interrupts.writeEnd.load(ordering: .sequentiallyConsistent), &byte, 1)
        errno = saved
    }
}
