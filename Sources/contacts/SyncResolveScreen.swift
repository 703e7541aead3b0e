import CardDAV
import ContactsSelection
import Foundation
import PickerModel
import TerminalUI

/// `contacts sync --resolve ID` without `--take`, and `contacts sync --resolve-all`: the conflict-resolution
/// screen on the terminal, one conflict after another; each is written through `VDirSync`'s resolution.
enum SyncResolveScreen {
    /// Settles `ids` (every open conflict of `dir` when nil) on the terminal. Esc leaves the conflict on
    /// screen, and those after it, open.
    static func run(_ ids: [String]?, in dir: String) throws -> ExitCode {
        // Each conflict's sides are read before the screen starts, so an unknown ID says so on stderr.
        let pending = try SyncCommand.failing("sync --resolve") {
            try (ids ?? VDirSync.conflicts(in: dir).map(\.file)).map { try VDirSync.conflictingProperties($0, in: dir) }
        }
        guard !pending.isEmpty else {
            print("no conflicts")
            return .ok
        }
        let session: TerminalSession
        do { session = try TerminalSession(environment: ProcessInfoEnvironment.current) } catch let error
            as TerminalError
        {
            throw CLIError.usage("sync --resolve: \(error) (or settle it with --take mine|theirs)")
        }
        var settled: [String] = []
        do {
            defer { session.end() }
            for (conflict, properties) in pending {
                guard let choices = ask(conflict.file, properties, session) else { break }
                let chosen = Dictionary(
                    zip(properties.map(\.name), choices.map { PropertyChoice(rawValue: $0.rawValue) ?? .theirs }),
                    uniquingKeysWith: { a, _ in a })
                settled.append(
                    try SyncCommand.failing("sync --resolve") {
                        try VDirSync.resolve(conflict.file, in: dir, choosing: chosen).settledReport(chosen)
                    })
            }
        }
        for line in settled { print(terminalSafe(line)) }
        let left = pending.count - settled.count
        guard left == 0 else {
            print("\(left) conflict\(left == 1 ? "" : "s") left open")
            return .interrupted
        }
        return .ok
    }

    /// The screen for one conflict until Enter (the choices) or Esc (nil).
    static func ask(
        _ file: String, _ properties: [ConflictingProperty], _ session: TerminalSession
    ) -> [ConflictResolver.Choice]? {
        let size = session.size
        let resolver = ConflictResolver(
            file: file,
            properties: properties.map {
                .init(name: $0.name, mine: $0.mine, theirs: $0.theirs, multiValued: $0.multiValued)
            },
            columns: size.columns, lines: size.lines)
        while true {
            session.draw(Frame(resolver.screen()))
            let key = session.nextViewKey { _ = resolver.handle(.resize(columns: $0, lines: $1)) }
            guard let input = PickerInput(key), let outcome = resolver.handle(input) else { continue }
            switch outcome {
            case .resolved(let choices): return choices
            case .cancelled: return nil
            }
        }
    }
}
