/// What one connection to an SMTP server did before any mail: the server's EHLO reply, whether TLS was
/// used, and whether AUTH was sent and accepted (``SMTPTransport/checkSession()``).
///
/// ```swift
/// let report = try SMTPTransport(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:2525")).checkSession()
/// if report.authentication == nil && report.capabilities.offers("AUTH") == false { print("no AUTH offered") }
/// ```
public struct SMTPSessionReport: Sendable, Hashable {
    /// How the connection was protected.
    public enum TLS: String, Sendable, Hashable {
        /// No TLS: everything in clear text.
        case none
        /// Upgraded with STARTTLS before AUTH and the mail.
        case startTLS
        /// `smtps://`: TLS from the first byte.
        case implicit
    }

    /// What the server offered in its (last) EHLO reply.
    public var capabilities: SMTPCapabilities
    public var tls: TLS
    /// The AUTH mechanism the server accepted (its 235 reply), or nil when no AUTH was sent or accepted.
    public var authentication: String?

    public init(capabilities: SMTPCapabilities, tls: TLS, authentication: String? = nil) {
        self.capabilities = capabilities
        self.tls = tls
        self.authentication = authentication
    }
}

/// Follows a session's commands and replies for STARTTLS and AUTH (never keeping what AUTH carries).
struct SessionTracker {
    private var awaiting: Command?
    private enum Command { case startTLS, auth }
    private(set) var startedTLS = false
    private var mechanism: String?
    private(set) var acceptedMechanism: String?

    /// A command line the client sent; of an AUTH line only its mechanism word is kept.
    mutating func sent(_ text: String) {
        let upper = text.prefix(9).uppercased()
        if upper.hasPrefix("STARTTLS") {
            awaiting = .startTLS
        } else if upper.hasPrefix("AUTH ") {
            awaiting = .auth
            mechanism = String(text.dropFirst(5).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }

    /// Reply text the client read.
    mutating func received(_ text: String) {
        guard let command = awaiting, let code = Int(text.prefix(3)) else { return }
        switch command {
        case .startTLS:
            if code == 220 { startedTLS = true }
            awaiting = nil
        case .auth:
            if code == 235 {
                acceptedMechanism = mechanism
                awaiting = nil
            } else if code != 334 {
                awaiting = nil
            }
        }
    }
}
