import ArgumentModel
import CardDAV
import Foundation
import Support
import TerminalUI

/// `contacts sync URL --into DIR …`, `contacts sync URL --list`, `contacts sync --conflicts DIR`
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
            when the same property changed on both sides, the server's version stays in DIR and yours is
            kept in DIR/.contacts-sync/conflicts (see --conflicts). Nothing is deleted that changed on the
            other side, and a sync stopped at any point converges on the next one.

            The password comes from --password-file (its first line; a warning when others can read it) or
            the output of --password-command, never from the command line. TLS is verified (--ca-file for a
            private authority).

            Exit codes: 0 synced, 1 a failure or new conflicts (and --conflicts with conflicts), 2 usage.
            """,
        options: [
            .option(
                "--into", value: "DIR", help: "the vdir folder to sync (created when missing)", completion: .directory),
            .option(
                "--book", value: "NAME",
                help: "the address book (display name or last path segment) when the URL leads to several"),
            .flag("--list", help: "list the address books the URL leads to"),
            .option("--conflicts", value: "DIR", help: "list the conflicts kept in DIR", completion: .directory),
            .option("--user", value: "NAME", help: "user name"),
            .option("--password-file", value: "FILE", help: "file whose first line is the password", completion: .file),
            .option("--password-command", value: "CMD", help: "command (run by /bin/sh) that prints the password"),
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
        if let dir = try args.option("--conflicts") {
            guard positionals.isEmpty else { throw CLIError.usage("sync --conflicts: expected no URL") }
            return try listConflicts(dir)
        }
        guard let url = positionals.first else { throw CLIError.usage("sync: expected the server URL") }
        let list = args.flag("--list")
        let into = try args.option("--into")
        guard list || into != nil else { throw CLIError.usage("sync: expected --into DIR (or --list)") }
        let user = try args.option("--user")
        let password = try readPassword(
            file: try args.option("--password-file"), command: try args.option("--password-command"))
        if password != nil && user == nil { throw CLIError.usage("sync: a password needs --user") }
        let account = CardDAVAccount(url: url, user: user, password: password, caFile: try args.option("--ca-file"))
        do {
            let client = try CardDAVClient(account: account)
            if list {
                var out = Output()
                for book in try client.addressBooks() {
                    let sync = book.supportsSyncCollection ? "sync-collection" : "etag listing"
                    out.line("\(terminalSafe(book.url))  \(terminalSafe(book.displayName ?? "-"))  (\(sync))")
                }
                out.flush()
                return .ok
            }
            let sync = VDirSync(client: client, folder: into!)
            let summary = try sync.run(bookName: try args.option("--book"))
            for note in sync.notes { printError("sync: note: \(terminalSafe(note))") }
            print(
                "\(terminalSafe(summary.collection)): \(summary.pulled) received, \(summary.removedLocally) removed here, "
                    + "\(summary.pushed) sent, \(summary.removedOnServer) removed on the server, \(summary.merged) merged, "
                    + "\(summary.conflicts.count) conflict\(summary.conflicts.count == 1 ? "" : "s")"
                    + (summary.fullResync ? " (the server forgot the sync-token: everything was listed again)" : "")
                    + " — \(summary.requests) request\(summary.requests == 1 ? "" : "s")")
            for conflict in summary.conflicts { printConflict(conflict) }
            return summary.conflicts.isEmpty ? .ok : .failure
        } catch let error as CardDAVError {
            if case .invalidURL = error { throw CLIError.usage("sync: \(error)") }
            throw CLIError.failure("sync: \(error)")
        }
    }

    static func printConflict(_ c: SyncConflict) {
        print(
            "conflict: \(terminalSafe(c.file)) (\(c.properties.joined(separator: ", ")) changed on both sides): the "
                + "server's version is in the folder, yours is kept in \(terminalSafe(c.copy))")
    }

    static func listConflicts(_ dir: String) throws -> ExitCode {
        let conflicts: [SyncConflict]
        do { conflicts = try VDirSync.conflicts(in: dir) } catch {
            throw CLIError.failure("sync --conflicts: \(error)")
        }
        if conflicts.isEmpty {
            print("no conflicts")
            return .ok
        }
        for c in conflicts { printConflict(c) }
        print(
            "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s"): merge your version into the file by hand, then remove the kept copy"
        )
        return .failure
    }

    /// The password of `--password-file` (first line) or `--password-command` (first line of its output);
    /// nil when neither is given. Never echoed.
    static func readPassword(file: String?, command: String?) throws -> String? {
        if file != nil && command != nil {
            throw CLIError.usage("sync: give --password-file or --password-command, not both")
        }
        if let file {
            var st = stat()
            guard stat(file, &st) == 0, let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.failure(
                    "sync: cannot read the password file \(file): \(String(cString: strerror(errno)))")
            }
            if st.st_mode & 0o004 != 0 {
                printError("sync: warning: the password file \(file) is readable by everyone (chmod 600 \(file))")
            }
            return firstLine(data)
        }
        if let command {
            let result: ChildRun.Result
            do { result = try ChildRun.run("/bin/sh", ["-c", command]) } catch {
                throw CLIError.failure("sync: cannot run the password command: \(error.reason)")
            }
            guard result.exitStatus == 0 else {
                let how = result.exitStatus.map { "exit \($0)" } ?? "signal \(result.signal ?? 0)"
                throw CLIError.failure("sync: the password command failed (\(how))")
            }
            return firstLine(Data(result.output))
        }
        return nil
    }

    private static func firstLine(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
