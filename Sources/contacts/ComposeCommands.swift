import ArgumentModel
import Campaigns
import Composer
import Foundation
import StringsCatalog
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Whether a send goes through an outbox (mail to a server, or text messages to the SMS program).
    var needsOutbox: Bool { target.needsOutbox || smsProgram != nil }

    /// The delivery options, listed under "Delivery:" in help.
    static let options: [OptionSpec] = [
        .option(
            "--out", value: "DIR", help: "write one .eml per mail draft and messages.sms.txt (sms: URIs) into DIR",
            completion: .directory, section: section),
        .option(
            "--smtp", value: "URL", help: "deliver through smtp://host[:port] or smtps://host[:port]", section: section),
        .flag("--starttls", help: "with --smtp: require STARTTLS (default: use it when offered)", section: section),
        .option(
            "--ca-file", value: "FILE", help: "with --smtp: trust the CAs in FILE (PEM)", completion: .file,
            section: section),
        .option(
            "--user", value: "U",
            help: """
                with --smtp: AUTH as U, only after TLS (STARTTLS or smtps://) unless the server is on
                the loopback interface; the password from --password-file, --password-command or a prompt
                """, section: section),
        PasswordOptions.file(section: section),
        PasswordOptions.command(section: section),
        .flag(
            "--allow-plaintext-auth",
            help: "with --user: AUTH without TLS to any server (the password in clear text)", section: section),
        .flag(
            "--never-plaintext-auth", help: "with --user: AUTH only after TLS, on the loopback interface too",
            section: section),
        .option(
            "--auth", value: "plain|login", help: "with --smtp: restrict the AUTH mechanism",
            completion: .values(["plain", "login"]), section: section),
        .flag("--sendmail", help: "pipe to sendmail", section: section),
        .option(
            "--sendmail-program", value: "PATH", help: "the sendmail program to pipe to (implies --sendmail)",
            completion: .file, section: section),
        .flag("--uri", help: "print mailto:/sms: URIs", section: section),
        .option(
            "--sms-program", value: "PATH",
            help: """
                send text messages through PATH (the E.164 number as argument, the body on
                stdin; exit 0 sent, 75 retried, other failed), queued in the outbox with the mail
                """, completion: .file, section: section),
        .option(
            "--maildir", value: "DIR", help: "write every mail into the Maildir DIR (new/), at once",
            completion: .directory, section: section),
        .option(
            "--mbox", value: "FILE", help: "append every mail to the mbox FILE (mboxrd, under its lock), at once",
            completion: .file, section: section),
        .flag(
            "--send",
            help: """
                with --smtp, --sendmail or --sms-program: really deliver (without it: a dry run that
                prints what would be sent; --out, --maildir, --mbox and --uri write at once)
                """, section: section),
        .option(
            "--resume", value: "DIR",
            help: """
                continue the outbox DIR of an interrupted --send (without it, --send makes a new
                outbox folder, outbox-YYYYMMDD-HHMMSS[-N], in the current folder)
                """, completion: .directory, section: section),
        .flag(
            "--new-batch",
            help: """
                with --send: make a new outbox even when an unfinished outbox of the same batch
                (template, data, recipients, transport) is in the current folder (default: refuse
                and print the command that resumes it)
                """, section: section),
        .option(
            "--rate", value: "N/min|N/hour", help: "at most N messages per minute (or hour); at least 1/hour",
            section: section),
        .option("--from", value: "ADDR", help: #"the sender (one address), "Name <addr>" or addr"#, section: section),
        .option(
            "--reply-timeout", value: "S",
            help: """
                seconds to wait for the server's reply after the end of a message
                (default 600, RFC 5321); when it runs out the message is uncertain
                """, section: section),
        .option(
            "--command-timeout", value: "S",
            help: "seconds to wait for the reply to each other SMTP command (default 300)",
            section: section),
        .option("--connect-timeout", value: "S", help: "seconds to connect (default 10)", section: section),
        .option(
            "--sendmail-timeout", value: "S", help: "seconds sendmail may take for one message (default 600)",
            section: section),
        .option(
            "--max-message-size", value: "SIZE",
            help: """
                refuse a recipient whose message (attachments included) is larger:
                bytes, or with K, M, G (default 25M); the server's own SIZE is respected too
                """, section: section),
        .option(
            "--attempts", value: "N", help: "tries per message in this run for transient failures (default 5)",
            section: section),
        .option(
            "--backoff", value: "S", help: "seconds before the first retry, doubled for each further one (default 2)",
            section: section),
    ]

    /// The help section of the delivery options.
    static let section = "Delivery"

    /// The options that pick where drafts go and how a new run starts, which only `compose` takes:
    /// `outbox send` delivers an outbox that exists, with its messages' own senders, for real.
    static let composeOnly: Set<String> = [
        "--out", "--uri", "--send", "--resume", "--new-batch", "--from", "--max-message-size", "--maildir", "--mbox",
    ]

    /// The delivery options of `outbox send`: the transport (SMTP or sendmail), rate, timeouts and retries.
    static let transportOptions = options.filter { !composeOnly.contains($0.name) }

    /// Reads the options; `command` names the command in errors. Without a target option the drafts go to
    /// files in the current directory.
    static func parse(_ args: inout Arguments, command: String) throws -> DeliveryOptions {
        // `outbox send` declares only the transport options (``transportOptions``).
        let composing = args.spec.option("--out") != nil
        let out = composing ? try args.option("--out") : nil
        let smtp = try args.option("--smtp")
        let sendmail = args.flag("--sendmail")
        let sendmailProgram = try args.option("--sendmail-program")
        let uri = composing && args.flag("--uri")
        let maildir = composing ? try args.option("--maildir") : nil
        let mbox = composing ? try args.option("--mbox") : nil
        let starttls = args.flag("--starttls")
        let caFile = try args.option("--ca-file")
        let user = try args.option("--user")
        let allowPlaintextAuth = args.flag("--allow-plaintext-auth")
        let neverPlaintextAuth = args.flag("--never-plaintext-auth")
        let auth = try args.option("--auth")
        let send = composing && args.flag("--send")
        let resume = composing ? try args.option("--resume") : nil
        let newBatch = composing && args.flag("--new-batch")
        let rate = try args.option("--rate")
        let from = composing ? try args.option("--from") : nil
        let replyTimeout = try seconds(args.option("--reply-timeout"), "--reply-timeout", command: command)
        let commandTimeout = try seconds(args.option("--command-timeout"), "--command-timeout", command: command)
        let connectTimeout = try seconds(args.option("--connect-timeout"), "--connect-timeout", command: command)
        let sendmailTimeout = try seconds(
            args.option("--sendmail-timeout"), "--sendmail-timeout", command: command)
        let backoff = try seconds(args.option("--backoff"), "--backoff", command: command, allowZero: true)
        let maxSize = composing ? try args.option("--max-message-size") : nil
        let smsProgram = try args.option("--sms-program")
        var attempts: Int?
        if let text = try args.option("--attempts") {
            guard let n = Int(text), (1...100).contains(n) else {
                throw CLIError.usage("\(command): --attempts: expected a whole number from 1 to 100, got '\(text)'")
            }
            attempts = n
        }

        var request = DeliveryRequest()
        request.out = out
        request.smtp = smtp
        request.sendmail = sendmail
        request.sendmailProgram = sendmailProgram
        request.uri = uri
        request.maildir = maildir
        request.mbox = mbox
        request.startTLS = starttls
        request.caFile = caFile
        request.user = user
        request.auth = auth
        request.allowPlaintextAuth = allowPlaintextAuth
        request.neverPlaintextAuth = neverPlaintextAuth
        request.passwordGiven = try args.option("--password-file") != nil || args.option("--password-command") != nil
        request.replyTimeout = replyTimeout
        request.commandTimeout = commandTimeout
        request.connectTimeout = connectTimeout
        request.sendmailTimeout = sendmailTimeout
        request.transportsOnly = !composing
        let target: DeliveryTarget
        do {
            let given = args
            target = try request.target { config in
                try PasswordOptions.read(given, user: user, server: config.url, command: command)
            }
        } catch ComposerError.invalidOptions(let text) {
            throw CLIError.usage("\(command): \(text)")
        }
        let perMinute = try rate.map { try parseRate($0, command: command) }
        var sender: MailAddress?
        if let from {
            do { sender = try MailAddress(parsing: from) } catch {
                throw CLIError.usage("\(command): --from: \(error)")
            }
        }
        var options = DeliveryOptions(
            target: target, sendmailProgram: sendmailProgram, send: send,
            resume: resume.map { URL(fileURLWithPath: $0) }, rate: perMinute, from: sender, attempts: attempts,
            backoff: backoff)
        if let maxSize { options.maxMessageSize = try parseSize(maxSize, command: command) }
        options.smsProgram = smsProgram
        options.newBatch = newBatch
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
            let option: String
            switch target {
            case .maildir: option = "--maildir"
            case .mbox: option = "--mbox"
            default: option = "--out"
            }
            throw CLIError.failure("\(command): \(option): \(error)")
        }
    }

    /// The library's delivery for these options: target, rate, retries and sender.
    var delivery: Delivery {
        Delivery(
            target: target,
            policy: OutboxPolicy(
                maxAttempts: attempts ?? OutboxPolicy().maxAttempts, backoff: backoff ?? OutboxPolicy().backoff,
                messagesPerMinute: rate),
            sender: from, maxMessageSize: maxMessageSize,
            textTransport: smsProgram.map { SMSProgramTransport(path: $0) })
    }

    /// The command that resumes the outbox `dir` with this target (secrets left out).
    func resumeCommand(_ dir: URL) -> String {
        var words = ["contacts", "outbox", "send", dir.path]
        switch target {
        case .smtp(let c): words += ["--smtp", c.url]
        case .sendmail: words += sendmailProgram.map { ["--sendmail-program", $0] } ?? ["--sendmail"]
        default: break
        }
        if let smsProgram { words += ["--sms-program", smsProgram] }
        return words.map(shellQuoted).joined(separator: " ") + " …"
    }
}

/// An option's duration (``DurationValue``, the one grammar: `90s`, `30m`, `2h`, `1d`, plain seconds) in
/// seconds within `range` (default: above 0, at most 30 days); else a usage error that says what is expected.
func parseDuration(
    _ text: String, option: String, command: String,
    in range: ClosedRange<Double> = Double.leastNonzeroMagnitude...(30 * 86_400)
) throws -> Double {
    guard let duration = DurationValue(text, in: range) else {
        throw CLIError.usage("\(command): \(option): expected \(DurationValue.describe(in: range)), got '\(text)'")
    }
    return duration.seconds
}

/// `word` quoted for a POSIX shell when it needs it.
func shellQuoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) || "-_./:@=+,%".unicodeScalars.contains($0)
    }
    return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Prints the delivery of rendered drafts (the library's `Delivery`): files, URIs, dry runs and outbox
/// sends, with a progress bar on a terminal and a summary (sent / failed / skipped). `compose` renders the
/// drafts and calls `run`.
enum ComposeDelivery {
    /// What a send stopped before anything was queued says (stdout).
    static let stoppedBeforeQueueing = "interrupted before anything was sent; nothing queued"

    /// `compose --check`: tries the transports of `options` without sending (``Delivery/check()``) and says
    /// what was checked; a transport that cannot send shows the documented alert in `locale`. 0 when ready.
    static func check(_ options: DeliveryOptions, command: String, locale: String) -> ExitCode {
        var out = Output()
        do {
            for line in try options.delivery.check() { out.line("check: " + terminalSafe(line)) }
            out.line("check: ready (nothing was sent)")
            out.flush()
            return .ok
        } catch .mailUnavailable(let reason) {
            printError("\(command): \(ComposeAlert.cannotSend(mail: true, locale: locale).line) (\(reason))")
        } catch .messagingUnavailable(let reason) {
            printError("\(command): \(ComposeAlert.cannotSend(mail: false, locale: locale).line) (\(reason))")
        } catch {
            printError("\(command): check failed: \(error)")
        }
        return .failure
    }

    /// The exit code of a delivery's outcome: 0 complete, 1 incomplete, 130 interrupted.
    static func exitCode(_ outcome: DeliveryOutcome) -> ExitCode {
        switch outcome {
        case .complete: return .ok
        case .incomplete: return .failure
        case .interrupted: return .interrupted
        }
    }

    /// After an outbox run's summary: lists the uncertain messages and how to settle them, says how to
    /// resume an interrupted run; returns the exit code (130 interrupted, 1 anything not sent, else 0).
    static func finish(_ summary: DeliverySummary, outbox: Outbox, options: DeliveryOptions, out: inout Output)
        -> ExitCode
    {
        let dir = shellQuoted(outbox.directory.path)
        if summary.uncertain > 0, let status = try? outbox.status() {
            for item in status.items where item.state == .uncertain {
                out.line(
                    "uncertain: \(item.id) \(item.recipients.joined(separator: ", "))"
                        + (item.label.map { " (\(terminalSafe($0)))" } ?? "")
                        + (item.lastError.map { " — \(terminalSafe($0))" } ?? ""))
            }
            out.line(
                "the server may have accepted these: check (recipient, server log), then run "
                    + "'contacts outbox settle \(dir) ID… --sent' for those that arrived and '--resend' for the others")
        }
        if summary.interrupted {
            out.line(
                "interrupted: \(summary.remaining) message(s) not sent yet; resume with: \(options.resumeCommand(outbox.directory))"
            )
        } else if summary.deferred > 0 || summary.deferredRecipients > 0 {
            out.line(
                "not sent yet: \(summary.deferred) message(s) wait in the outbox (the server could not be reached "
                    + "or asked to try later); send them when it is back with: "
                    + "\(options.resumeCommand(outbox.directory)) --wait 1h")
        }
        out.flush()
        return exitCode(summary.outcome)
    }

    static func openOutbox(_ dir: URL, command: String) throws -> Outbox {
        do { return try Outbox(directory: dir) } catch { throw CLIError.failure("\(command): \(error)") }
    }

    /// Sends what `outbox` holds, with a progress bar on a terminal; SIGINT/SIGTERM stop it gracefully.
    static func send(
        _ outbox: Outbox, options: DeliveryOptions, command: String, resendUncertain: Bool = false,
        retryUntil: Date? = nil
    ) throws -> DeliverySummary {
        var delivery = options.delivery
        delivery.policy.resendUncertain = resendUncertain
        delivery.policy.retryUntil = retryUntil
        let stop = OutboxStop()
        let progress = ProgressPrinter(command: command)
        do {
            // Check the transport before taking the signals.
            if options.target.needsOutbox || options.smsProgram == nil { _ = try delivery.target.envelopeTransport() }
            Interrupts.watch(stop)
            Interrupts.sending(resumeHint: options.resumeCommand(outbox.directory))
            defer { Interrupts.unwatch() }
            progress.begin()
            let summary = try delivery.send(outbox, stop: stop) { event in
                if case .progress(let p) = event { progress.show(p) }
            }
            progress.end()
            return summary
        } catch {
            throw CLIError.failure("\(command): \(error)")
        }
    }

    /// The summary line: what was sent, saved, failed…, and `noAddress` contacts that were asked for but
    /// have no address for the mode (each named on stderr).
    static func printSummary(_ s: DeliverySummary, noAddress: Int = 0, out: inout Output) {
        var parts = ["sent \(s.sent)", "failed \(s.failed)", "skipped \(s.skipped)"]
        if noAddress > 0 { parts.append("no address \(noAddress) (see stderr)") }
        if s.saved > 0 { parts.insert("saved \(s.saved)", at: 1) }
        if s.deferred > 0 { parts.append("deferred \(s.deferred) (retry with --resume)") }
        if !s.refusedRecipients.isEmpty { parts.append("recipients refused \(s.refusedRecipients.count) (see stderr)") }
        if s.deferredRecipients > 0 {
            parts.append("recipients deferred \(s.deferredRecipients) (the others got it; retry with --resume)")
        }
        if s.uncertain > 0 { parts.append("uncertain \(s.uncertain) (see below: 'contacts outbox settle')") }
        if s.notCarried > 0 {
            parts.append("left queued \(s.notCarried) (text messages need --sms-program, mail --smtp or --sendmail)")
        }
        out.line("summary: " + parts.joined(separator: ", "))
        if s.textsSent > 0 { out.line("text messages: \(s.textsSent) sent, \(s.textSegments) SMS segment(s)") }
        out.flush()
    }
}

/// The progress bar of an outbox run on a terminal (stderr), and a line on stderr for each message that
/// failed, was deferred or is uncertain.
final class ProgressPrinter {
    let command: String
    let terminal = isatty(2) == 1 && !TerminalSession.noColor(ProcessInfo.processInfo.environment)
    private var started = false

    init(command: String) { self.command = command }

    /// A run starts: `end()` will end the bar's line.
    func begin() { started = true }

    func show(_ p: OutboxProgress) {
        if terminal {
            let width = 30
            let filled = p.total == 0 ? width : p.done * width / p.total
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(p.done)/\(p.total)".utf8))
        }
        let refused = p.item.recipients.filter { p.item.recipientErrors[$0] != nil && p.item.state(of: $0) != .sent }
        if !refused.isEmpty && p.item.recipients.contains(where: { p.item.state(of: $0) == .sent }) {
            // The server took some recipients and refused these: each named, with its reply.
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            for address in refused {
                printError(
                    "\(command): \(terminalSafe(p.item.label ?? p.item.id)): \(terminalSafe(address)): "
                        + "\(p.item.state(of: address).rawValue): "
                        + terminalSafe(p.item.recipientErrors[address] ?? ""))
            }
        } else if p.item.state == .failed || p.item.state == .deferred || p.item.state == .uncertain {
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            printError(
                "\(command): \(terminalSafe(p.item.label ?? p.item.id)): \(p.item.state.rawValue): "
                    + terminalSafe(p.item.lastError ?? ""))
        }
    }

    /// Ends the bar's line (once).
    func end() {
        if terminal && started { FileHandle.standardError.write(Data("\n".utf8)) }
        started = false
    }
}
