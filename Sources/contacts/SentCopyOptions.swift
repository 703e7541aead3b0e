import ArgumentModel
import Composer

/// `--save-sent imap(s)://host/Sent` and `--save-sent-maildir DIR` of `compose`, `pick` and `outbox send`:
/// a copy of each sent mail, saved once through the outbox (`Delivery.sentFolder`).
enum SentCopyOptions {
    static let options: [OptionSpec] = [
        .option(
            "--save-sent", value: "URL",
            help: """
                with --send: save a copy of each sent mail in this IMAP mailbox, imaps://host/Sent
                (or imap:// with STARTTLS; plain only to this machine), once per message even across
                kills; --user and the password options as for --smtp, --ca-file too
                """, section: DeliveryOptions.section),
        .option(
            "--save-sent-maildir", value: "DIR", help: "with --send: save a copy of each sent mail in the Maildir DIR",
            completion: .directory, section: DeliveryOptions.section),
    ]

    /// The Sent folder asked for (nil: none) and the words that ask for it again (for a resume hint).
    /// `secret` is the password read for SMTP already, if any: it is not asked for twice.
    static func parse(
        _ args: Arguments, request: DeliveryRequest, target: DeliveryTarget, secret: String?, command: String
    ) throws -> (folder: (any SentFolder)?, words: [String]) {
        let imap = try args.option("--save-sent")
        let maildir = try args.option("--save-sent-maildir")
        do {
            let folder = try SentFolderRequest.folder(
                imap: imap, maildir: maildir, user: request.user, caFile: request.caFile,
                sendsThroughOutbox: target.needsOutbox
            ) { url in
                try secret ?? PasswordOptions.read(args, user: request.user, server: url, command: command)
            }
            return (folder, imap.map { ["--save-sent", $0] } ?? maildir.map { ["--save-sent-maildir", $0] } ?? [])
        } catch let error as ComposerError {
            throw CLIError.usage("\(command): \(error)")
        }
    }
}
