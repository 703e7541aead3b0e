import Foundation

/// The delivery options a front end was given, as written, and the one rule that checks them and makes
/// the ``DeliveryTarget``: one target at most (files, SMTP, sendmail, URIs, Maildir, mbox), the SMTP-only
/// options only with SMTP, the sendmail timeout only without it. Every command that delivers (`compose`,
/// `pick`'s compose sheet, `outbox send`) checks its options here.
///
/// ```swift
/// var request = DeliveryRequest()
/// request.smtp = "smtp://127.0.0.1:2525"
/// request.startTLS = true
/// let target = try request.target()   // .smtp, STARTTLS required
/// request.sendmail = true
/// // try request.target() throws .invalidOptions("choose one of --out, --smtp, --sendmail, …")
/// ```
public struct DeliveryRequest: Sendable {
    /// `--out DIR`: draft files in DIR.
    public var out: String?
    /// `--smtp URL`.
    public var smtp: String?
    /// `--sendmail`, and `--sendmail-program PATH` (which implies it).
    public var sendmail = false
    public var sendmailProgram: String?
    /// `--uri`, `--maildir DIR`, `--mbox FILE`.
    public var uri = false
    public var maildir: String?
    public var mbox: String?
    /// The SMTP-only options: `--starttls`, `--ca-file`, `--user`, `--auth`, the plaintext AUTH options,
    /// whether a password option was given, and the SMTP timeouts (seconds).
    public var startTLS = false
    public var caFile: String?
    public var user: String?
    public var auth: String?
    public var allowPlaintextAuth = false
    public var neverPlaintextAuth = false
    public var passwordGiven = false
    public var replyTimeout: Double?
    public var commandTimeout: Double?
    public var connectTimeout: Double?
    /// `--sendmail-timeout` (seconds).
    public var sendmailTimeout: Double?
    /// True when the command offers only the transports that send an outbox that exists (SMTP and
    /// sendmail: `outbox send`); the exclusivity error names only those.
    public var transportsOnly = false

    public init() {}

    /// The target options that would add a way to send mail (`mail`) and text messages (`texts`), as an
    /// alert names them to a user who gave none that can.
    ///
    /// ```swift
    /// DeliveryRequest.transportOptions(mail: false, texts: true)   // "--sms-program PATH  --out DIR  --uri"
    /// ```
    public static func transportOptions(mail: Bool, texts: Bool) -> String {
        var options: [String] = []
        if mail { options += ["--smtp URL", "--sendmail", "--maildir DIR", "--mbox FILE"] }
        if texts { options += ["--sms-program PATH"] }
        return (options + ["--out DIR", "--uri"]).joined(separator: "  ")
    }

    /// Whether a target option was given (else the drafts go to files in the current folder).
    public var targetGiven: Bool { chosen > 0 }

    private var chosen: Int {
        [out != nil, smtp != nil, sendmail || sendmailProgram != nil, uri, maildir != nil, mbox != nil]
            .filter { $0 }.count
    }

    /// Checks the options and makes the target; `password` reads the SMTP password (for the user, from the
    /// server's configuration) when the target is SMTP, after the options it depends on are checked.
    /// Without a target option the drafts go to files in the current folder.
    /// - Throws: ``ComposerError/invalidOptions(_:)`` naming the options that do not go together, or what
    ///   `password` throws.
    public func target(password: (SMTPConfiguration) throws -> String? = { _ in nil }) throws -> DeliveryTarget {
        guard chosen <= 1 else {
            throw ComposerError.invalidOptions(
                "choose one of "
                    + (transportsOnly ? "--smtp, --sendmail" : "--out, --smtp, --sendmail, --uri, --maildir, --mbox"))
        }
        let target: DeliveryTarget
        if let out {
            target = .files(URL(fileURLWithPath: out))
        } else if let smtp {
            target = .smtp(try smtpConfiguration(smtp, password: password))
        } else if sendmail || sendmailProgram != nil {
            var transport = SendmailTransport(path: sendmailProgram)
            if let sendmailTimeout { transport.timeout = sendmailTimeout }
            target = .sendmail(transport)
        } else if uri {
            target = .uris
        } else if let maildir {
            target = .maildir(URL(fileURLWithPath: maildir))
        } else if let mbox {
            target = .mbox(URL(fileURLWithPath: mbox))
        } else {
            target = .files(URL(fileURLWithPath: "."))
        }
        if target.transport is SMTPConfiguration {
            if sendmailTimeout != nil { throw ComposerError.invalidOptions("--sendmail-timeout goes with --sendmail") }
        } else if startTLS || caFile != nil || user != nil || auth != nil || replyTimeout != nil
            || commandTimeout != nil || connectTimeout != nil || allowPlaintextAuth || neverPlaintextAuth
            || passwordGiven
        {
            throw ComposerError.invalidOptions(
                "--starttls, --ca-file, --user, the password, --auth, the plaintext AUTH options and "
                    + "the SMTP timeouts go with --smtp")
        }
        return target
    }

    /// The SMTP configuration of `url` and the SMTP options.
    private func smtpConfiguration(_ url: String, password: (SMTPConfiguration) throws -> String?) throws
        -> SMTPConfiguration
    {
        var config: SMTPConfiguration
        do { config = try SMTPConfiguration(url: url) } catch {
            throw ComposerError.invalidOptions("--smtp: \(error)")
        }
        config.startTLS = config.isImplicitTLS ? .off : (startTLS ? .required : .optional)
        config.caFile = caFile
        if let replyTimeout { config.dataTimeout = replyTimeout }
        if let commandTimeout { config.commandTimeout = commandTimeout }
        if let connectTimeout { config.connectTimeout = connectTimeout }
        guard !(allowPlaintextAuth && neverPlaintextAuth) else {
            throw ComposerError.invalidOptions("--allow-plaintext-auth and --never-plaintext-auth exclude each other")
        }
        config.plaintextAuth = allowPlaintextAuth ? .allowed : neverPlaintextAuth ? .never : .loopbackOnly
        config.username = user
        config.password = try password(config)
        if let auth {
            guard let mechanism = SMTPConfiguration.AuthMechanism(rawValue: auth.uppercased()) else {
                throw ComposerError.invalidOptions("--auth: expected plain or login, got '\(auth)'")
            }
            config.authMechanism = mechanism
        }
        return config
    }
}
