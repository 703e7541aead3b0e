import ArgumentModel
import Campaigns
import Composer
import Foundation

/// Delivery options shared by `compose` and `outbox send`:
/// `(--out DIR | --smtp URL [--starttls] [--ca-file F] [--user U --password-file F] | --sendmail
/// [--sendmail-program P] | --uri) [--send] [--resume DIR] [--rate N/min] [--from ADDR]`, plus the
/// timeouts and retries of a send.
struct DeliveryOptions {
    /// Where the drafts go (the library's `DeliveryTarget`, made from the options).
    var target: DeliveryTarget
    /// `--sendmail-program`, as given (for the resume hint).
    var sendmailProgram: String?
    var send: Bool
    var resume: URL?
    /// `--new-batch`: a new outbox even when an unfinished one of the same batch is there.
    var newBatch = false
    var rate: Double?
    var from: MailAddress?
    /// Tries per message in one run and the first backoff (seconds), when given.
    var attempts: Int?
    var backoff: Double?
    /// `--max-message-size`: the most bytes one written message may have.
    var maxMessageSize = Delivery.defaultMaxMessageSize
    /// `--sms-program`: text messages go through it, queued in the outbox with the mail.
    var smsProgram: String?
    /// Whether a delivery option was given (else the drafts go to files in the current folder).
    var given = false
    /// `--save-sent`/`--save-sent-maildir`: where copies of sent mail go, and those words for a resume.
    var sentFolder: (any SentFolder)?
    var sentFolderWords: [String] = []
    /// `--daily-cap`, `--jitter`, `--provider`.
    var throttle = ThrottleOptions()

    /// Whether a send goes through an outbox (mail to a server, or text messages to the SMS program).
    var needsOutbox: Bool { target.needsOutbox || smsProgram != nil }

    /// Reads the options; `command` names the command in errors. Without a target option the drafts go to
    /// files in the current directory.
    static func parse(_ args: inout Arguments, command: String) throws -> DeliveryOptions {
        // `outbox send` declares only the transport options (``transportOptions``).
        let composing = args.spec.option("--out") != nil
        var request = DeliveryRequest()
        request.transportsOnly = !composing
        request.out = composing ? try args.option("--out") : nil
        request.smtp = try args.option("--smtp")
        request.sendmail = args.flag("--sendmail")
        request.sendmailProgram = try args.option("--sendmail-program")
        request.uri = composing && args.flag("--uri")
        request.maildir = composing ? try args.option("--maildir") : nil
        request.mbox = composing ? try args.option("--mbox") : nil
        request.startTLS = args.flag("--starttls")
        request.caFile = try args.option("--ca-file")
        request.user = try args.option("--user")
        request.allowPlaintextAuth = args.flag("--allow-plaintext-auth")
        request.neverPlaintextAuth = args.flag("--never-plaintext-auth")
        request.auth = try args.option("--auth")
        request.passwordGiven = try args.option("--password-file") != nil || args.option("--password-command") != nil
        let send = composing && args.flag("--send")
        let resume = composing ? try args.option("--resume") : nil
        let newBatch = composing && args.flag("--new-batch")
        let rate = try args.option("--rate")
        let from = composing ? try args.option("--from") : nil
        for (option, value) in [
            ("--reply-timeout", \DeliveryRequest.replyTimeout), ("--command-timeout", \.commandTimeout),
            ("--connect-timeout", \.connectTimeout), ("--sendmail-timeout", \.sendmailTimeout),
        ] {
            request[keyPath: value] = try seconds(args.option(option), option, command: command)
        }
        let backoff = try seconds(args.option("--backoff"), "--backoff", command: command, allowZero: true)
        let maxSize = composing ? try args.option("--max-message-size") : nil
        let smsProgram = try args.option("--sms-program")
        let throttle = try ThrottleOptions.parse(&args, command: command)
        var attempts: Int?
        if let text = try args.option("--attempts") {
            guard let n = Int(text), (1...100).contains(n) else {
                throw CLIError.usage("\(command): --attempts: expected a whole number from 1 to 100, got '\(text)'")
            }
            attempts = n
        }
        let target: DeliveryTarget
        var secret: String?
        do {
            let given = args
            target = try request.target { config in
                secret = try PasswordOptions.read(given, user: request.user, server: config.url, command: command)
                return secret
            }
        } catch ComposerError.invalidOptions(let text) {
            throw CLIError.usage("\(command): \(text)")
        }
        let sent = try SentCopyOptions.parse(args, request: request, target: target, secret: secret, command: command)
        let perMinute = try rate.map { try parseRate($0, command: command) }
        var sender: MailAddress?
        if let from {
            do { sender = try MailAddress(parsing: from) } catch {
                throw CLIError.usage("\(command): --from: \(error)")
            }
        }
        var options = DeliveryOptions(
            target: target, sendmailProgram: request.sendmailProgram, send: send,
            resume: resume.map { URL(fileURLWithPath: $0) }, rate: perMinute, from: sender, attempts: attempts,
            backoff: backoff)
        if let maxSize { options.maxMessageSize = try parseSize(maxSize, command: command) }
        options.smsProgram = smsProgram
        options.newBatch = newBatch
        (options.sentFolder, options.sentFolderWords) = sent
        options.throttle = throttle
        options.rate = options.rate ?? throttle.perMinute
        options.given = request.targetGiven || smsProgram != nil
        return options
    }

    /// `--rate` (``RateValue``, the one rate grammar) as messages per minute; at least one per hour.
    static func parseRate(_ text: String, command: String) throws -> Double {
        guard let rate = RateValue(text) else {
            throw CLIError.usage("\(command): --rate: expected \(RateValue.expected), got '\(text)'")
        }
        guard rate.perMinute >= RateValue.lowestPerMinute else {
            throw CLIError.usage("\(command): --rate: '\(text)' is below the lowest rate, 1/hour")
        }
        return rate.perMinute
    }

    /// `--max-message-size` (``SizeValue``, the one size grammar) as bytes, from 1K to 2047M.
    static func parseSize(_ text: String, command: String) throws -> Int {
        let range = 1024...(2047 << 20)
        guard let size = SizeValue(text, in: range) else {
            throw CLIError.usage(
                "\(command): --max-message-size: expected \(SizeValue.describe(in: range)), got '\(text)'")
        }
        return size.bytes
    }

    /// A duration (``DurationValue``: `30`, `90s`, `5m`) above 0 (or from 0 with `allowZero`) and at most a
    /// day, in seconds; nil when the option is absent.
    static func seconds(_ text: String?, _ option: String, command: String, allowZero: Bool = false) throws
        -> Double?
    {
        guard let text else { return nil }
        return try parseDuration(
            text, option: option, command: command,
            in: (allowZero ? 0 : Double.leastNonzeroMagnitude)...86_400)
    }

    /// Makes the folder (or mbox file) the drafts go to, failing with the option's name when it cannot
    /// take them: once, before anything is read or rendered.
    func prepare(command: String) throws {
        do { try target.prepare() } catch {
            let transport = target.transport
            let option = transport is MaildirTransport ? "--maildir" : transport is MboxTransport ? "--mbox" : "--out"
            throw CLIError.failure("\(command): \(option): \(error)")
        }
    }

    /// The library's delivery for these options: target, rate, retries and sender.
    var delivery: Delivery {
        var delivery = Delivery(
            target: target,
            policy: OutboxPolicy(
                maxAttempts: attempts ?? OutboxPolicy().maxAttempts, backoff: backoff ?? OutboxPolicy().backoff,
                messagesPerMinute: rate),
            sender: from, maxMessageSize: maxMessageSize,
            textTransport: smsProgram.map { SMSProgramTransport(path: $0) })
        delivery.sentFolder = sentFolder
        delivery.policy.dailyCap = throttle.dailyCap
        delivery.policy.jitter = throttle.jitter
        return delivery
    }

    /// The command that resumes the outbox `dir` with this target (secrets left out).
    func resumeCommand(_ dir: URL) -> String {
        var words = ["contacts", "outbox", "send", dir.path]
        if let c = target.transport as? SMTPConfiguration {
            words += ["--smtp", c.url]
        } else if target.transport is SendmailTransport {
            words += sendmailProgram.map { ["--sendmail-program", $0] } ?? ["--sendmail"]
        }
        if let smsProgram { words += ["--sms-program", smsProgram] }
        words += sentFolderWords + throttle.words
        return words.map(shellQuoted).joined(separator: " ") + " …"
    }
}
