import ArgumentModel
import Composer
import Foundation

/// `contacts outbox prune [FOLDER] [--older-than DURATION]`: removes the outboxes whose messages are all
/// settled (the library's `Outbox.prune(in:olderThan:now:)`).
struct OutboxPruneCommand: Command {
    static let name = "outbox prune"
    static let summary = "Remove settled outboxes (every message sent or failed), which hold copies of the mail"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            An outbox (made by 'contacts compose --send' and 'contacts pick') keeps a full copy of every
            message it sent — personal mail and text messages — until it is removed: nothing removes it by
            itself. This removes each outbox in FOLDER (default: the current folder, where --send makes
            them; FOLDER may be an outbox itself) whose messages are all sent or failed, and with
            --older-than only those whose journal last changed longer ago than DURATION (90s, 30m, 2h,
            30d). An outbox with a message queued, deferred or uncertain, or whose queueing was cut short,
            is kept: resume it ('contacts outbox send', 'compose --resume') or settle it ('contacts outbox
            settle') first. Prints each folder removed.
            """,
        options: [
            .option(
                "--older-than", value: "DURATION",
                help: "only outboxes whose journal last changed longer ago than DURATION (90s, 30m, 2h, 30d)")
        ],
        arguments: [
            ArgumentSpec("FOLDER", help: "where the outboxes are (default: .)", completion: .directory)
        ],
        examples: ["contacts outbox prune --older-than 30d"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let age = try args.option("--older-than").map {
            try parseDuration($0, option: "--older-than", command: name, in: 0...(100 * 365 * 86_400))
        }
        let positionals = try args.positionals(max: 1, names: "FOLDER")
        let folder = URL(fileURLWithPath: positionals.first ?? FileManager.default.currentDirectoryPath)
        let removed: [URL]
        do { removed = try Outbox.prune(in: folder, olderThan: age) } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        var out = Output()
        for url in removed { out.line("removed \(url.path)") }
        out.flush()
        return .ok
    }
}
