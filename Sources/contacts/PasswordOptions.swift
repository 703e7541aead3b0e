import ArgumentModel
import Support

/// `--password-file F` and `--password-command CMD` of `compose`, `outbox send`, `pick` and `sync`, read
/// through the one reader, `SecretReader` (Support): with `--user` and neither, a prompt on the terminal
/// that echoes nothing. The password is never printed.
enum PasswordOptions {
    /// `--password-file FILE` (in the help section `section`, if any).
    static func file(section: String? = nil) -> OptionSpec {
        .option(
            "--password-file", value: "FILE",
            help: "the password is the first line of FILE (/dev/fd/N, FIFOs; a warning when others can read it)",
            completion: .file, section: section)
    }

    /// `--password-command CMD` (in the help section `section`, if any).
    static func command(section: String? = nil) -> OptionSpec {
        .option(
            "--password-command", value: "CMD",
            help: "the password is the first line CMD (run by /bin/sh) prints; without either, it is asked for",
            section: section)
    }

    /// Reads the password of `user` (nil without a user); `command` names the command in messages and
    /// `server` the place in the prompt.
    /// `saved` (a configuration file's `password-file` and `password-command`) counts when neither option
    /// is given.
    static func read(
        _ args: Arguments, user: String?, server: String, command: String,
        saved: (file: String?, command: String?) = (nil, nil)
    ) throws -> String? {
        var file = try args.option("--password-file")
        var program = try args.option("--password-command")
        if file == nil && program == nil { (file, program) = saved }
        do {
            return try SecretReader.password(
                user: user, file: file, command: program,
                prompt: "Password for \(user ?? "") at \(withoutUserInfo(server)): ",
                warn: { printError("\(command): \($0)") })
        } catch {
            switch error {
            case .twoSources, .noUser, .noTerminal: throw CLIError.usage("\(command): \(error)")
            default: throw CLIError.failure("\(command): \(error)")
            }
        }
    }

    /// `url` without a user name or password in it (`scheme://…@host`), for the prompt.
    static func withoutUserInfo(_ url: String) -> String {
        guard let slashes = url.range(of: "://") else { return url }
        let authority = url[slashes.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return url[..<slashes.upperBound] + "…" + url[at...]
    }
}
