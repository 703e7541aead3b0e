import Foundation
import Synchronization

/// The signals of a full-screen session. SIGTERM, SIGHUP and SIGINT are noted (the handler only stores
/// the number; the blocked read returns and the session reports it as a key) so that the terminal is given
/// back by ordinary code. A crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT) restores the terminal's
/// modes with async-signal-safe calls only — `tcsetattr` and `write` of the sequences that leave the
/// alternate screen, show the cursor and stop mouse reports — then dies of the signal as before.
enum TerminalSignals {
    private static let pendingSignal = Atomic<Int32>(0)
    private static let ttyDescriptor = Atomic<Int32>(-1)
    nonisolated(unsafe) private static var savedModes = termios()
    nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

    private static let noted: [Int32] = [SIGTERM, SIGHUP, SIGINT]
    private static let crashes: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Takes the signals for a session drawing on `fd` (whose modes now are the ones to restore).
    static func install(fd: Int32) {
        pendingSignal.store(0, ordering: .sequentiallyConsistent)
        guard tcgetattr(fd, &savedModes) == 0 else { return }
        ttyDescriptor.store(fd, ordering: .sequentiallyConsistent)
        for signal in noted { take(signal, handler: onNoted) }
        for signal in crashes { take(signal, handler: onCrash) }
        // A parent may have started us with these signals blocked (the mask is inherited): take them, and
        // the resizes ncurses reads.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in noted + [SIGWINCH, SIGTSTP, SIGCONT] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Gives the signals back their earlier handlers.
    static func uninstall() {
        ttyDescriptor.store(-1, ordering: .sequentiallyConsistent)
        for (signal, var action) in previous { sigaction(signal, &action, nil) }
        previous.removeAll()
    }

    /// The signal that asked the program to end, if one came.
    static func pending() -> Int32? {
        let value = pendingSignal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    private static func take(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
        #else
            action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the blocked read returns with EINTR
        var old = sigaction()
        sigaction(signal, &action, &old)
        if previous[signal] == nil { previous[signal] = old }
    }

    private static let onNoted: @convention(c) (Int32) -> Void = { signal in
        TerminalSignals.pendingSignal.store(signal, ordering: .sequentiallyConsistent)
    }

    private static let onCrash: @convention(c) (Int32) -> Void = { number in
        let fd = TerminalSignals.ttyDescriptor.load(ordering: .sequentiallyConsistent)
        if fd >= 0 {
            tcsetattr(fd, TCSANOW, &TerminalSignals.savedModes)
            // Mouse reports off, cursor shown, attributes reset, main screen back.
            let reset: StaticString = "\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?25h\u{1B}[0m\u{1B}[?1049l"
            _ = write(fd, reset.utf8Start, reset.utf8CodeUnitCount)
        }
        signal(number, SIG_DFL)
        raise(number)
    }
}
