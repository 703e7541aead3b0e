import Foundation

/// One account of the sync configuration file: where to sync from and into, and how to log in, so that a
/// cron job or a systemd timer is one line (`contacts sync --account family`).
///
/// The file (``defaultPath(environment:)``, `$XDG_CONFIG_HOME/contacts/sync.conf`) holds one section per
/// account, `key = value` lines, `#` comments:
///
/// ```swift
/// let text = """
///     [family]
///     url = https://dav.example.org/
///     user = ada
///     password-command = pass show dav
///     into = ~/.contacts/family
///     """
/// let accounts = try SyncAccount.parse(text, path: "sync.conf", home: "/home/ada")
/// print(accounts[0].into)   // /home/ada/.contacts/family
/// ```
public struct SyncAccount: Sendable, Equatable {
    public var name: String
    public var url: String
    public var into: String
    public var user: String?
    /// Where the password comes from: read by the caller's one secret reader, never kept here.
    public var passwordFile: String?
    public var passwordCommand: String?
    public var caFile: String?
    public var book: String?
    /// Every address book, each into `into/<book>` (``VDirSync/syncAll(client:into:readOnly:prune:)``).
    public var all = false
    public var prune = false
    public var readOnly = false
    /// As the command line writes it (`90s`, `10m`).
    public var timeout: String?

    /// `$XDG_CONFIG_HOME/contacts/sync.conf`, else `~/.config/contacts/sync.conf`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return config + "/contacts/sync.conf"
    }

    /// The account `name` of the configuration file at `path` (the default one when nil): its file
    /// unreadable or malformed is ``CardDAVError/local(path:message:)``, no such account
    /// ``CardDAVError/noAccount(_:path:known:)``.
    public static func named(_ name: String, in path: String? = nil) throws -> SyncAccount {
        let path = path ?? defaultPath()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CardDAVError.local(path: path, message: "cannot read the configuration file")
        }
        let accounts = try parse(String(decoding: data, as: UTF8.self), path: path)
        guard let account = accounts.first(where: { $0.name == name }) else {
            throw CardDAVError.noAccount(name, path: path, known: accounts.map(\.name))
        }
        return account
    }

    /// The accounts of a configuration file's text; an unknown key, a line that is no `key = value`, an
    /// account without `url` or `into` is an error naming the file and line. `~/` is the home folder.
    public static func parse(
        _ text: String, path: String, home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    ) throws -> [SyncAccount] {
        var accounts: [SyncAccount] = []
        var current: (account: SyncAccount, line: Int)?
        func finish() throws {
            guard let (account, line) = current else { return }
            guard !account.url.isEmpty, !account.into.isEmpty else {
                throw CardDAVError.local(
                    path: "\(path):\(line)", message: "account '\(account.name)' needs 'url' and 'into'")
            }
            accounts.append(account)
        }
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                try finish()
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                current = (SyncAccount(name: name, url: "", into: ""), k + 1)
                continue
            }
            guard let eq = line.firstIndex(of: "="), current != nil else {
                throw CardDAVError.local(
                    path: "\(path):\(k + 1)", message: "expected [account] or key = value, got '\(line)'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = String(value.dropFirst().dropLast())
            }
            let expanded = value.hasPrefix("~/") ? home + value.dropFirst() : value
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "yes", "true", "on", "1": return true
                case "no", "false", "off", "0": return false
                default:
                    throw CardDAVError.local(path: "\(path):\(k + 1)", message: "\(key): expected yes or no")
                }
            }
            switch key {
            case "url": current!.account.url = value
            case "into": current!.account.into = expanded
            case "user": current!.account.user = value
            case "password-file": current!.account.passwordFile = expanded
            case "password-command": current!.account.passwordCommand = value
            case "ca-file": current!.account.caFile = expanded
            case "book": current!.account.book = value
            case "all": current!.account.all = try flag()
            case "prune": current!.account.prune = try flag()
            case "read-only": current!.account.readOnly = try flag()
            case "timeout": current!.account.timeout = value
            case "password":
                throw CardDAVError.local(
                    path: "\(path):\(k + 1)",
                    message: "no password in this file: give password-file or password-command")
            default:
                throw CardDAVError.local(path: "\(path):\(k + 1)", message: "unknown key '\(key)'")
            }
        }
        try finish()
        return accounts
    }
}
