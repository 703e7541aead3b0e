import Dispatch
import Foundation
import ICUKit
import Support
import Synchronization

/// A one-line status on stderr ("reading contacts.vcf (620 MB)… 3.2 s") for steps that take more than a
/// second, redrawn four times a second and erased when the step ends; a step whose amount of work is known
/// (a `WorkProgress` with a total) shows a bar that fits the terminal instead
/// ("reading contacts.vcf  [██████▌     ]  54%  3.2 s"). Only when stderr is a terminal, so
/// pipes, files and scripts see nothing. `CONTACTS_PROGRESS=1` forces it on, `=0` off;
/// `CONTACTS_PROGRESS_AFTER` sets the delay in seconds (default 1).
public final class TerminalProgress: Sendable {
    struct State {
        var label: String
        var progress: WorkProgress?
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

    private init(_ label: String, after delay: Double, progress: WorkProgress?) {
        state = Mutex(State(label: label, progress: progress))
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
        try run(label, after: delay, progress: nil, body)
    }

    /// Runs `body` as a step called `label` as ``run(_:after:_:)`` does, drawn as a bar while `progress`
    /// knows its total (the status line before). The bar's last frame (where the work got to) is drawn
    /// before the line is erased.
    ///
    /// ```swift
    /// let progress = WorkProgress()
    /// let data = try TerminalProgress.run("reading contacts.vcf", after: 0, progress: progress) {
    ///     let data = try Data(contentsOf: url)
    ///     progress.expect(data.count)
    ///     progress.advance(by: data.count)
    ///     return data
    /// }
    /// ```
    public static func run<T>(_ label: String, after delay: Double?, progress: WorkProgress?, _ body: () throws -> T)
        rethrows -> T
    {
        let shown = TerminalProgress(label, after: delay ?? Self.delay, progress: progress)
        defer { shown.finish() }
        return try body()
    }

    /// The line drawn for a step called `label` after `seconds`, at most `width` columns: with a
    /// `fraction` (0…1), `label  [██████▌     ]  54%  3.2 s`, the bar taking the columns the rest leaves
    /// (eighths of a cell, at least 10 cells; the label is cut with "…" first); without one,
    /// `label… 3.2 s`. The label passes through ``terminalSafe(_:)``.
    ///
    /// ```swift
    /// TerminalProgress.line("reading a.vcf", fraction: 0.5, seconds: 3.2, width: 40)
    /// // "reading a.vcf  [███████       ]  50%  3.2 s"
    /// ```
    public static func line(_ label: String, fraction: Double?, seconds: Double, width: Int) -> String {
        let label = terminalSafe(label)
        let time = String(format: "%.1f", seconds) + " s"
        guard let fraction else { return "\(label)… \(time)" }
        let part = min(1, max(0, fraction))
        let percent = String(Int(part * 100))
        let tail = "]  " + String(repeating: " ", count: 3 - percent.count) + percent + "%  " + time
        let minimumBar = 10
        // label, two spaces, "[", the bar, the tail
        let labelRoom = max(0, width - 3 - minimumBar - tail.count)
        let shownLabel = DisplayWidth.truncate(label, width: min(labelRoom, DisplayWidth.measure(label)))
        let cells = max(minimumBar, width - DisplayWidth.measure(shownLabel) - 3 - tail.count)
        let eighths = Int(part * Double(cells * 8))
        let partial = eighths % 8 == 0 || eighths == cells * 8 ? "" : String(Self.eighthBlocks[eighths % 8])
        let full = String(repeating: "█", count: eighths / 8)
        let blank = String(repeating: " ", count: cells - eighths / 8 - partial.count)
        return shownLabel + "  [" + full + partial + blank + tail
    }

    /// The left eighths of a cell, one to seven.
    private static let eighthBlocks: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The columns of the terminal on stderr (80 when it has none, as when forced on a pipe).
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func draw() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        state.withLock { s in
            guard !s.finished else { return }
            s.shown = true
            // One column short of the width: a full line would wrap on some terminals.
            let text = Self.line(s.label, fraction: s.progress?.fraction, seconds: seconds, width: Self.columns() - 1)
            Self.write("\r\u{1B}[K" + text)
        }
    }

    private func finish() {
        timer?.cancel()
        if state.withLock({ $0.shown && !$0.finished && $0.progress?.fraction != nil }) { draw() }
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
