import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line status on stderr ("reading contacts.vcf (620 MB)… 3.2 s") for steps that take more than a
/// second, redrawn four times a second and erased when the step ends; only when stderr is a terminal, so
/// pipes, files and scripts see nothing. `CONTACTS_PROGRESS=1` forces it on, `=0` off;
/// `CONTACTS_PROGRESS_AFTER` sets the delay in seconds (default 1).
public final class TerminalProgress: Sendable {
    struct State {
        var label: String
        var shown = false
        var finished = false
    }

    /// Whether progress is shown: `CONTACTS_PROGRESS`, else whether stderr is a terminal.
    public static let enabled: Bool = {
        switch ProcessInfo.processInfo.environment["CONTACTS_PROGRESS"] {
        case "1": return true
        case "0": return false
        default: return isatty(2) == 1
        }
    }()
    /// Seconds before a step shows its progress (`CONTACTS_PROGRESS_AFTER`, default 1).
    public static let delay: Double =
        ProcessInfo.processInfo.environment["CONTACTS_PROGRESS_AFTER"].flatMap(Double.init) ?? 1

    private let state: Mutex<State>
    private let start = DispatchTime.now().uptimeNanoseconds
    nonisolated(unsafe) private let timer: DispatchSourceTimer?  // Dispatch sources are thread-safe

    private init(_ label: String, after delay: Double) {
        state = Mutex(State(label: label))
        guard Self.enabled else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        self.timer = timer
        timer.schedule(deadline: .now() + max(0, delay), repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        if delay <= 0 { draw() }
    }

    /// Runs `body` as a step called `label`.
    ///
    /// ```swift
    /// let book = try TerminalProgress.run("reading contacts.vcf") { try AddressBook(contentsOf: url) }
    /// ```
    public static func run<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        try run(label, after: nil, body)
    }

    /// Runs `body` as a step called `label` whose progress shows after `delay` seconds (0: at once, before
    /// `body` starts; nil: ``delay``), for a step the user waits on to start working (a picker's book).
    ///
    /// ```swift
    /// let list = try TerminalProgress.run("reading contacts.vcf", after: 0) { try Data(contentsOf: url) }
    /// ```
    public static func run<T>(_ label: String, after delay: Double?, _ body: () throws -> T) rethrows -> T {
        let progress = TerminalProgress(label, after: delay ?? Self.delay)
        defer { progress.finish() }
        return try body()
    }

    private func draw() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        state.withLock { s in
            guard !s.finished else { return }
            s.shown = true
            Self.write("\r\u{1B}[K\(s.label)… \(String(format: "%.1f", seconds)) s")
        }
    }

    private func finish() {
        timer?.cancel()
        state.withLock { s in
            if s.shown { Self.write("\r\u{1B}[K") }
            s.finished = true
        }
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
