import Foundation

/// Where and how to reach an SMTP server.
///
/// ```swift
/// var config = try SMTPConfiguration(url: "smtp://mail.example.com:587")
/// config.startTLS = .required
/// config.username = "anna"; config.password = "…"; config.authMechanism = .plain
/// config.caFile = "/etc/ssl/certs/my-ca.pem"
/// ```
public struct SMTPConfiguration: Sendable, Hashable {
    public enum StartTLS: String, Sendable, Hashable {
        /// Plain connection (only sensible on localhost).
        case off
        /// Upgrade with STARTTLS when the server offers it.
        case optional
        /// Fail unless STARTTLS succeeds.
        case required
    }
    /// When AUTH may be sent before TLS (``credentialsNeedTLS(peers:)``).
    public enum PlaintextAuth: String, Sendable, Hashable {
        /// Only to a server on the loopback interface (every address the host resolves to is a loopback
        /// address); elsewhere STARTTLS is required before AUTH. The default.
        case loopbackOnly
        /// Never: STARTTLS (or `smtps://`) before AUTH, on the loopback interface too.
        case never
        /// Always allowed (the user said so explicitly): STARTTLS only as ``startTLS`` says.
        case allowed
    }
    public enum AuthMechanism: String, Sendable, Hashable {
        case plain = "PLAIN"
        case login = "LOGIN"
    }

    /// `smtp://host[:port][/ehlo-name]` or `smtps://…` (TLS from the first byte).
    public let url: String
    public var startTLS: StartTLS = .off
    public var username: String?
    /// Handed to libcurl only; never part of ``url``, a description or an error.
    public var password: String?
    /// When AUTH may go without TLS (default: only to the loopback interface).
    public var plaintextAuth: PlaintextAuth = .loopbackOnly
    /// Restrict AUTH to one mechanism (default: whatever libcurl and the server agree on).
    public var authMechanism: AuthMechanism?
    /// PEM bundle of CAs to trust instead of the system store.
    public var caFile: String?
    /// Seconds to connect (TCP + TLS).
    public var connectTimeout: Double = 10
    /// Seconds to wait for the reply to each command (greeting, EHLO, MAIL, RCPT, DATA) and for the server to
    /// take each part of the message; RFC 5321 §4.5.3.2 asks for at least 5 minutes. Running out before the
    /// message was handed over is a transient network failure: the message is retried.
    public var commandTimeout: Double = 300
    /// Seconds to wait for the reply after the final `.` of DATA. RFC 5321 §4.5.3.2.6 asks for at least 10
    /// minutes: servers scan and store the message before they answer. Running out (or the connection
    /// dropping) then leaves the message `ComposerError.deliveryUncertain`, never retried: the server may
    /// already have stored it. Checked about once a second.
    public var dataTimeout: Double = 600

    /// Validates the URL's scheme and host. A user name or password in it is refused (the error shows the
    /// URL without them): credentials go in ``username`` and ``password``.
    public init(url: String) throws {
        let lower = url.lowercased()
        guard lower.hasPrefix("smtp://") || lower.hasPrefix("smtps://") else {
            throw ComposerError.invalidURI(url, reason: "column 1: expected smtp:// or smtps://")
        }
        let afterScheme = url.drop { $0 != "/" }.dropFirst(2)
        if let at = afterScheme.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).lastIndex(of: "@") {
            let shown = url[..<afterScheme.startIndex] + "…" + afterScheme[at...]
            throw ComposerError.invalidURI(
                String(shown),
                reason: "a user name or password in the URL is refused: give the user with --user and the password "
                    + "with --password-file or --password-command (never on the command line)")
        }
        guard let comps = URLComponents(string: url), let host = comps.host, !host.isEmpty else {
            throw ComposerError.invalidURI(url, reason: "expected a host name after //")
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ComposerError.invalidURI(url, reason: "spaces and control characters are not allowed")
        }
        self.url = url
    }

    /// True for `smtps://` (TLS from the first byte).
    public var isImplicitTLS: Bool { url.lowercased().hasPrefix("smtps://") }
}
