import ArgumentModel
import CardDAV
import Foundation
import Support
import TerminalUI

/// `contacts sync URL --into DIR …`, `contacts sync URL --list`, `contacts sync --conflicts DIR`,
/// `contacts sync --resolve ID --take mine|theirs [--into DIR]`
enum SyncCommand: Command {
    static let name = "sync"
    static let summary = "Sync a CardDAV address book with a vdir folder"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Two-way sync of one CardDAV address book (RFC 6352) with the vdir folder DIR (one .vcf file per
            contact, as vdirsyncer writes and khard reads). URL may be the address book, a principal or the
            server root (found through /.well-known/carddav). Changes on the server are fetched with the
            stored sync-token (RFC 6578; an ETag listing on servers without it); local adds, edits and
            deletes (by 'contacts add/edit/delete', khard or by hand) are sent with If-None-Match/If-Match.
            A contact changed on both sides is merged property by property against the last synced version;
            when the same property changed on both sides, the server's version of it stays in DIR (with
            every other change of both sides) and your card is kept in DIR/.contacts-sync/conflicts: list
            them with --conflicts, settle one with --resolve ID --take mine|theirs (ID: the file name or
            the UID; mine is sent by the next sync). On a terminal, --resolve ID without --take, or
            --resolve-all, shows each conflicting property's two sides next to each other: take yours (m),
            the server's (t) or, for EMAIL, TEL and the like, both (b), then Enter. Nothing is deleted that changed on the other side, and
            a sync stopped at any point converges on the next one. --read-only pulls without sending. The
            book's display name and colour sync both ways with the files DIR/displayname and DIR/color (changed
            on both sides: the server's stays, yours is named).

            Answers of any size are read as they arrive; a member that is not a vCard (or larger than
            64 MiB) is named and not written, a change the server refuses (403, 409…) is named and tried
            again next time, and the rest is synced. Hrefs are taken as paths on the URL's own server: no
            request goes to another host. --timeout bounds each request (default 10m).

            --all syncs every address book of the account, each into DIR/<book> (the last segment of its
            URL); a book new on the server gets its folder, a folder whose book is gone is reported and
            removed only with --prune.

            --account NAME takes the URL, the folder and the rest from the section [NAME] of
            $XDG_CONFIG_HOME/contacts/sync.conf (or --config FILE): url, into, user, password-file or
            password-command (never a password), book, all, prune, read-only, timeout, ca-file, one
            "key = value" a line; the command line wins. A cron job is one line: contacts sync --account family.

            The password comes from --password-file (its first line; a warning when others can read it),
            the output of --password-command, or else a prompt on the terminal that echoes nothing; never
            from the command line. TLS is verified (--ca-file for a
            private authority).

            Exit codes: 0 synced, 1 a failure, new conflicts, members not read or changes refused (and
            --conflicts with conflicts), 2 usage.
            """,
        options: [
            .option(
                "--into", value: "DIR", help: "the vdir folder to sync (created when missing)", completion: .directory),
            .option(
                "--book", value: "NAME",
                help: "the address book (display name or last path segment) when the URL leads to several"),
            .flag("--list", help: "list the address books the URL leads to"),
            .flag("--all", help: "sync every address book, each into DIR/<book> (new ones picked up)"),
            .flag("--prune", help: "with --all: remove the folders of address books gone from the server"),
            .option(
                "--account", value: "NAME", help: "the account NAME of the configuration file (URL, folder, login)"),
            .option(
                "--config", value: "FILE", help: "the configuration file (default ~/.config/contacts/sync.conf)",
                completion: .file),
            .option("--conflicts", value: "DIR", help: "list the conflicts kept in DIR", completion: .directory),
            .option(
                "--resolve", value: "ID",
                help: "settle the conflict of ID (file name or UID) in --into DIR (default: here) with --take, "
                    + "or on the terminal"),
            .flag("--resolve-all", help: "settle every conflict in --into DIR (default: here) on the terminal"),
            .option("--take", value: "SIDE", help: "mine or theirs: the side --resolve keeps"),
            .flag("--read-only", help: "pull changes from the server, send none (local changes stay here)"),
            .option("--timeout", value: "S", help: "the longest one request may take (90s, 10m; default 10m)"),
            .option("--user", value: "NAME", help: "user name"),
            PasswordOptions.file(),
            PasswordOptions.command(),
            .option(
                "--ca-file", value: "FILE", help: "PEM file of the certificate authorities to trust", completion: .file),
        ],
        arguments: [ArgumentSpec("URL", help: "the server, principal or address book URL")],
        examples: [
            "contacts sync --conflicts family",
            "contacts sync https://dav.example.org/ --user ada --password-file ~/.config/dav-password --into family",
            "contacts sync https://dav.example.org/ --user ada --password-command 'cat ~/.config/dav-password' --list",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let positionals = try args.positionals(max: 1, names: "one URL")
        let conflicts = try args.option("--conflicts")
        let id = try args.option("--resolve")
        if conflicts != nil || id != nil || args.flag("--resolve-all") {
            guard positionals.isEmpty else { throw CLIError.usage("sync --conflicts/--resolve: expected no URL") }
            let dir = try conflicts ?? args.option("--into") ?? "."
            guard let id else { return try conflicts == nil ? SyncResolveScreen.run(nil, in: dir) : listConflicts(dir) }
            guard let side = try args.option("--take") else { return try SyncResolveScreen.run([id], in: dir) }
            guard let take = ConflictSide(rawValue: side) else {
                throw CLIError.usage("sync --resolve: expected --take mine or --take theirs")
            }
            print(
                terminalSafe(
                    try failing("sync --resolve") { try VDirSync.resolve(id, in: dir, take: take).settledReport(take) })
            )
            return .ok
        }
        return try failing("sync") {
            // An account of the configuration file gives what the command line does not.
            let saved = try (args.option("--account")).map {
                try SyncAccount.named($0, in: try args.option("--config"))
            }
            guard let url = positionals.first ?? saved?.url else {
                throw CLIError.usage("sync: expected the server URL")
            }
            let list = args.flag("--list")
            guard let into = try args.option("--into") ?? saved?.into, !list else {
                guard list else { throw CLIError.usage("sync: expected --into DIR (or --list)") }
                for book in try client(args, url, saved).addressBooks() { print(terminalSafe(book.listing)) }
                return .ok
            }
            let client = try client(args, url, saved)
            let readOnly = args.flag("--read-only") || saved?.readOnly == true
            if args.flag("--all") || saved?.all == true {
                let prune = args.flag("--prune") || saved?.prune == true
                let all = try VDirSync.syncAll(client: client, into: into, readOnly: readOnly, prune: prune)
                for note in all.notes { printError("sync: \(terminalSafe(note))") }
                for line in all.report { print(terminalSafe(line)) }
                return all.isClean ? .ok : .failure
            }
            let sync = VDirSync(client: client, folder: into)
            sync.readOnly = readOnly
            let summary = try sync.run(bookName: try args.option("--book") ?? saved?.book)
            for note in sync.notes { printError("sync: note: \(terminalSafe(note))") }
            for line in summary.report { print(terminalSafe(line)) }
            return summary.isClean ? .ok : .failure
        }
    }

    /// The client for `url` with the login of the command line, else of the saved account.
    static func client(_ args: Arguments, _ url: String, _ saved: SyncAccount?) throws -> CardDAVClient {
        let user = try args.option("--user") ?? saved?.user
        let password = try PasswordOptions.read(
            args, user: user, server: url, command: "sync",
            saved: (file: saved?.passwordFile, command: saved?.passwordCommand))
        let timeout = try (args.option("--timeout") ?? saved?.timeout).map {
            try parseDuration($0, option: "--timeout", command: "sync")
        }
        return try CardDAVClient(
            account: CardDAVAccount(
                url: url, user: user, password: password, caFile: try args.option("--ca-file") ?? saved?.caFile,
                timeout: timeout ?? CardDAVAccount.defaultTimeout))
    }

    /// `body`, its `CardDAVError` a failure of `command` (a usage error for a bad URL or an unknown account).
    static func failing<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as CardDAVError {
            switch error {
            case .invalidURL, .noAccount: throw CLIError.usage("\(command): \(error)")
            default: throw CLIError.failure("\(command): \(terminalSafe("\(error)"))")
            }
        }
    }

    static func listConflicts(_ dir: String) throws -> ExitCode {
        let conflicts = try failing("sync --conflicts") { try VDirSync.conflicts(in: dir) }
        guard !conflicts.isEmpty else {
            print("no conflicts")
            return .ok
        }
        for c in conflicts { print(terminalSafe(c.report)) }
        print(
            "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s"): settle each with "
                + "'contacts sync --resolve FILE --take mine|theirs --into \(shellQuoted(dir))'")
        return .failure
    }
}
