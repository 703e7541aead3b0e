import Foundation
import Synchronization

/// SIGINT and SIGTERM during a send (`compose --send` from before it renders, `outbox send`).
///
/// The first one asks for a stop (the `stop` action given to ``watch(stop:stopAtOnce:)``, e.g. an outbox's stop). Before the outbox is being sent (rendering, queueing),
/// that stops before anything is sent: nothing is queued (a new outbox folder is removed again), the tool
/// says so and exits with 130. Once it is being sent (`sending(resumeHint:)`), the run stops after the
/// message in flight: its outcome is journaled, the summary printed, the exit code is 130.
///
/// A second one stops at once: the `stopAtOnce` action runs (e.g. running sendmail programs are killed with
/// their process groups) and the tool exits with 130 (the journal is fsynced record by record, so the next run still knows where each message
/// stands; the message in flight may then be uncertain). Before sending, nothing was sent; a queueing cut
/// short leaves at most message files without a journal, which no resume takes for a queued batch.
///
/// The signal handler only writes a byte to a pipe; a watcher thread does the rest.
public enum Interrupts {
    private static let writeEnd = Atomic<Int32>(-1)

    private struct State {
        var stop: (@Sendable () -> Void)?
        var stopAtOnce: (@Sendable () -> Void)?
        /// The command that resumes the outbox being sent; nil before sending.
        var resumeHint: String?
        /// The command that resumes the outbox made for a send that is rendered or queued now.
        var preparedHint: String?
        var started = false
    }
    private static let state = Mutex(State())

    /// Takes SIGINT and SIGTERM from now on (before sending: see `sending(resumeHint:)`): the first one calls
    /// `stop`, a second one calls `stopAtOnce` and exits with ``interruptedStatus``. Terminals only: what a
    /// stop means (an outbox's stop, the sendmail programs to end) is the caller's.
    public static func watch(stop: @escaping @Sendable () -> Void, stopAtOnce: @escaping @Sendable () -> Void) {
        let start = state.withLock { s in
            s.stop = stop
            s.stopAtOnce = stopAtOnce
            s.resumeHint = nil
            s.preparedHint = nil
            return !s.started
        }
        if start {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }  // no watcher: the signals keep their default action
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            writeEnd.store(fds[1], ordering: .sequentiallyConsistent)
            let readEnd = fds[0]
            Thread { watcher(readEnd) }.start()
            state.withLock { $0.started = true }
        }
        guard writeEnd.load(ordering: .sequentiallyConsistent) >= 0 else { return }
        signal(SIGINT, onSignal)
        signal(SIGTERM, onSignal)
        // A parent may have started us with these signals blocked (the mask is inherited): take them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// An outbox was made (or opened) for the send, which is still rendered or queued: a second signal, which
    /// stops at once, then says that nothing was sent and that `resumeHint` resumes it. The first still stops
    /// before anything is sent.
    public static func preparing(resumeHint: String) {
        state.withLock { $0.preparedHint = resumeHint }
    }

    /// The outbox is being sent from now on; `resumeHint` is the command that resumes it.
    public static func sending(resumeHint: String) {
        state.withLock { $0.resumeHint = resumeHint }
    }

    /// Restores the default handlers (a later signal ends the tool as usual).
    public static func unwatch() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    private static func watcher(_ readEnd: Int32) {
        var count = 0
        var byte: UInt8 = 0
        while true {
            let n = read(readEnd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            count += 1
            let (stop, stopAtOnce, resumeHint, preparedHint) = state.withLock {
                ($0.stop, $0.stopAtOnce, $0.resumeHint, $0.preparedHint)
            }
            if count == 1 {
                stop?()
                Self.report(
                    resumeHint == nil
                        ? program + ": interrupted: stopping before anything is sent (interrupt again to stop at once)"
                        : program + ": interrupted: finishing the message in flight, then stopping "
                            + "(interrupt again to stop at once; that message may then be uncertain)")
            } else {
                stopAtOnce?()
                Self.report(
                    resumeHint.map { program + ": stopped at once; resume with: \($0)" }
                        ?? preparedHint.map { program + ": stopped at once; nothing was sent; resume with: \($0)" }
                        ?? program + ": stopped at once; nothing was sent")
                _exit(interruptedStatus)
            }
        }
    }

    /// The exit status of a program stopped by an interrupt (128 + SIGINT), as shells report it.
    public static let interruptedStatus: Int32 = 130

    /// The name the messages start with: the program's own.
    private static let program = ProcessInfo.processInfo.processName

    private static func report(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    private static let onSignal: @convention(c) (Int32) -> Void = { _ in
        let saved = errno
        var byte: UInt8 = 1
        _ = write(Interrupts.writeEnd.load(ordering: .sequentiallyConsistent), &byte, 1)
        errno = saved
    }
}
