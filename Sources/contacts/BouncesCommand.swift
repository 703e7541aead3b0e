import ArgumentModel
import Composer
import Foundation
import TerminalUI

/// `contacts bounces read MAILDIR|MBOX [--into SUPPRESSIONS] [--return-path ADDRESS] [--unsubscribe-address ADDRESS]`
enum BouncesReadCommand: Command {
    static let name = "bounces read"
    static let summary = "Read bounces and unsubscribe requests into a suppression list"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads the messages of a Maildir or an mbox file: delivery status notifications (RFC 3464) and
            unsubscribe requests sent as mail. A failed delivery with a 5.x.x status is a hard bounce, and an
            unsubscribe request puts the address on the suppression list; a delayed or 4.x.x failure is a soft
            bounce, reported only. A report that names no recipient is matched through its VERP address
            (--return-path). Prints one line per notice: address, kind, status, the server's words.

            With --into, new addresses are added to that plain text file (address, reason and date per line,
            tab-separated; the file is created when missing and written atomically; lines already there are
            kept as they were). compose skips the addresses in it.

            Exit codes: 0 read (even when messages were skipped: they are named on stderr), 1 the folder or the
            list cannot be read or written, 2 usage.
            """,
        options: [
            .option("--into", value: "FILE", help: "the suppression list to add to", completion: .file),
            .option(
                "--return-path", value: "ADDRESS",
                help: "the envelope sender the campaign used with VERP (bounces@sender.example)"),
            .option(
                "--unsubscribe-address", value: "ADDRESS",
                help: "the address of the campaign's mailto: unsubscribe link (unsubscribe@sender.example)"),
        ],
        arguments: [
            ArgumentSpec("MAILDIR|MBOX", help: "the folder bounces arrive in", required: true, completion: .file)
        ],
        examples: [
            "contacts bounces read bounces.mbox --into suppressions.txt --return-path bounces@example.org",
            "contacts bounces read Mail/bounces",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let into = try args.option("--into")
        let reader = BounceReader(
            returnPath: try args.option("--return-path"), unsubscribeAddress: try args.option("--unsubscribe-address"))
        let paths = try args.positionals(max: 1, names: "MAILDIR|MBOX")
        guard let path = paths.first else { throw CLIError.usage("\(name): expected a Maildir or an mbox file") }
        do {
            let folder = try MailFolder(path: path)
            var list = try into.map { try SuppressionList(contentsOf: $0) } ?? SuppressionList()
            for d in list.diagnostics { printError(terminalSafe(d)) }
            let summary = try list.read(folder, with: reader)
            for problem in summary.problems { printError(terminalSafe(problem)) }
            var out = Output()
            for notice in summary.notices { out.line(terminalSafe(notice.description)) }
            if let into {
                try list.write(to: into)
                out.line(
                    "\(summary.messages) messages read, \(summary.added.count) addresses added to \(terminalSafe(into))"
                )
            } else {
                out.line("\(summary.messages) messages read, \(summary.notices.count) notices")
            }
            out.flush()
        } catch let error as ComposerError {
            throw CLIError.failure("\(name): \(error)")
        }
        return .ok
    }
}
