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
        let open: [SyncConflict]
        do { open = try VDirSync.conflicts(in: dir) } catch {
            throw CLIError.failure("sync --resolve: \(terminalSafe("\(error)"))")
        }
        let wanted = ids ?? open.map(\.file)
        if wanted.isEmpty {
            print("no conflicts")
            return .ok
        }
        // Each conflict's sides are read before the screen starts, so an unknown ID says so on stderr.
        var pending: [(conflict: SyncConflict, properties: [ConflictingProperty])] = []
        for id in wanted {
            do { pending.append(try VDirSync.conflictingProperties(id, in: dir)) } catch {
                throw CLIError.failure("sync --resolve: \(terminalSafe("\(error)"))")
            }
        }
        let session: TerminalSession
        do { session = try TerminalSession(environment: ProcessInfoEnvironment.current) } catch let error
            as TerminalError
        {
            throw CLIError.usage("sync --resolve: \(error) (or settle it with --take mine|theirs)")
        }
        var settled: [String] = []
        var cancelled = false
        do {
            defer { session.end() }
            for (conflict, properties) in pending {
                guard let choices = ask(conflict.file, properties, session) else {
                    cancelled = true
                    break
                }
                var chosen: [String: PropertyChoice] = [:]
                for (property, choice) in zip(properties, choices) {
                    chosen[property.name] = PropertyChoice(rawValue: choice.rawValue) ?? .theirs
                }
                do { try VDirSync.resolve(conflict.file, in: dir, choosing: chosen) } catch {
                    throw CLIError.failure("sync --resolve: \(terminalSafe("\(error)"))")
                }
                settled.append(
                    "\(terminalSafe(conflict.file)): "
                        + properties.map { "\($0.name) \(chosen[$0.name]?.rawValue ?? "theirs")" }.joined(
                            separator: ", ")
                        + (chosen.values.contains { $0 != .theirs } ? "; the next sync sends it" : ""))
            }
        }
        for line in settled { print(line) }
        if cancelled {
            let left = pending.count - settled.count
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
