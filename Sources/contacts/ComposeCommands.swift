import Composer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Delivery options shared by `compose` and `outbox send`:
/// `(--out DIR | --smtp URL [--starttls] [--ca-file F] [--user U --password-file F] | --sendmail
/// [--sendmail-program P] | --uri) [--send] [--resume DIR] [--rate N/min] [--from ADDR]`.
struct DeliveryOptions {
    enum Target {
        case files(URL)
        case smtp(SMTPConfiguration)
        case sendmail(String?)
        case uri
    }
    var target: Target
    var send: Bool
    var resume: URL?
    var rate: Double?
    var from: MailAddress?

    static let help = """
          --out DIR              write one .eml per mail draft and messages.sms.txt (sms: URIs) into DIR
          --smtp URL             deliver through smtp://host[:port] or smtps://host[:port]
            --starttls           require STARTTLS (default: use it when offered)
            --ca-file FILE       trust the CAs in FILE (PEM)
            --user U --password-file F   AUTH with the first line of F as password
            --auth plain|login   restrict the AUTH mechanism
          --sendmail             pipe to sendmail (--sendmail-program PATH to choose it)
          --uri                  print mailto:/sms: URIs
          --send                 with --smtp/--sendmail: really deliver (default: dry run)
          --resume DIR           continue the outbox DIR of an interrupted --send
          --rate N/min           at most N messages per minute
          --from ADDR            sender, "Name <addr>" or addr
        """

    /// Reads the options; `command` names the command in errors. Without a target option the drafts go to
    /// files in the current directory.
    static func parse(_ args: inout Arguments, command: String) throws -> DeliveryOptions {
        let out = try args.option("--out")
        let smtp = try args.option("--smtp")
        let sendmail = args.flag("--sendmail")
        let sendmailProgram = try args.option("--sendmail-program")
        let uri = args.flag("--uri")
        let starttls = args.flag("--starttls")
        let caFile = try args.option("--ca-file")
        let user = try args.option("--user")
        let passwordFile = try args.option("--password-file")
        let auth = try args.option("--auth")
        let send = args.flag("--send")
        let resume = try args.option("--resume")
        let rate = try args.option("--rate")
        let from = try args.option("--from")

        let chosen = [out != nil, smtp != nil, sendmail || sendmailProgram != nil, uri].filter { $0 }.count
        guard chosen <= 1 else {
            throw CLIError.usage("\(command): choose one of --out, --smtp, --sendmail, --uri")
        }
        var target: Target
        if let out {
            target = .files(URL(fileURLWithPath: out))
        } else if let smtp {
            var config: SMTPConfiguration
            do { config = try SMTPConfiguration(url: smtp) } catch {
                throw CLIError.usage("\(command): --smtp: \(error)")
            }
            config.startTLS = config.isImplicitTLS ? .off : (starttls ? .required : .optional)
            config.caFile = caFile
            if let user {
                guard let passwordFile else { throw CLIError.usage("\(command): --user needs --password-file") }
                let data = try readInput(passwordFile, command: command)
                config.username = user
                config.password =
                    String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                    .first.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r")) } ?? ""
            } else if passwordFile != nil {
                throw CLIError.usage("\(command): --password-file needs --user")
            }
            if let auth {
                guard let mech = SMTPConfiguration.AuthMechanism(rawValue: auth.uppercased()) else {
                    throw CLIError.usage("\(command): --auth: expected plain or login, got '\(auth)'")
                }
                config.authMechanism = mech
            }
            target = .smtp(config)
        } else if sendmail || sendmailProgram != nil {
            target = .sendmail(sendmailProgram)
        } else if uri {
            target = .uri
        } else {
            target = .files(URL(fileURLWithPath: "."))
        }
        if case .smtp = target {
        } else if starttls || caFile != nil || user != nil || auth != nil {
            throw CLIError.usage("\(command): --starttls, --ca-file, --user and --auth go with --smtp")
        }
        var perMinute: Double?
        if let rate {
            let number = rate.hasSuffix("/min") ? String(rate.dropLast(4)) : rate
            guard let n = Double(number), n > 0 else {
                throw CLIError.usage("\(command): --rate: expected N/min with N > 0, got '\(rate)'")
            }
            perMinute = n
        }
        var sender: MailAddress?
        if let from {
            do { sender = try MailAddress(parsing: from) } catch {
                throw CLIError.usage("\(command): --from: \(error)")
            }
        }
        return DeliveryOptions(
            target: target, send: send, resume: resume.map { URL(fileURLWithPath: $0) }, rate: perMinute,
            from: sender)
    }

    var envelopeTransport: (any EnvelopeTransport)? {
        switch target {
        case .smtp(let config): return try? SMTPTransport(configuration: config)
        case .sendmail(let path): return SendmailTransport(path: path)
        default: return nil
        }
    }

    var policy: OutboxPolicy {
        var p = OutboxPolicy()
        p.messagesPerMinute = rate
        return p
    }
}

/// Delivery of rendered drafts for the CLI: files, URIs, dry runs and outbox sends, with a progress bar on
/// a terminal and a summary (sent / failed / skipped). `compose` renders the drafts and calls `run`.
enum ComposeDelivery {
    struct Summary {
        var sent = 0
        var saved = 0
        var failed = 0
        var skipped = 0
        var deferred = 0
        var uncertain = 0
    }

    /// Delivers `mail` and `messages` (each with a label for messages, e.g. the contact's name) as the
    /// options say. Returns the exit code: 0 when nothing failed.
    static func run(
        mail: [(label: String, draft: MailDraft)], messages: [(label: String, draft: MessageDraft)],
        options: DeliveryOptions, command: String, out: inout Output
    ) throws -> ExitCode {
        var summary = Summary()
        var mailDrafts = mail
        if let from = options.from {
            for i in mailDrafts.indices where mailDrafts[i].draft.from == nil { mailDrafts[i].draft.from = from }
        }
        switch options.target {
        case .files(let dir):
            let files = FileTransport(directory: dir)
            for (n, item) in mailDrafts.enumerated() {
                do {
                    let url = try files.save(item.draft, name: String(format: "%04d-", n + 1) + item.label)
                    out.line("saved \(url.path)")
                    summary.saved += 1
                } catch let error as ComposerError {
                    printError("\(command): \(terminalSafe(item.label)): \(error)")
                    summary.failed += 1
                }
            }
            for item in messages {
                do {
                    _ = try files.send(item.draft)
                    summary.saved += 1
                } catch let error as ComposerError {
                    printError("\(command): \(terminalSafe(item.label)): \(error)")
                    summary.failed += 1
                }
            }
            if !messages.isEmpty { out.line("saved \(dir.appendingPathComponent("messages.sms.txt").path)") }
        case .uri:
            for item in mailDrafts {
                out.line(MailtoURI(draft: item.draft).string)
                summary.saved += 1
            }
            for item in messages {
                do {
                    out.line(try SMSURI(draft: item.draft).string)
                    summary.saved += 1
                } catch let error as ComposerError {
                    printError("\(command): \(terminalSafe(item.label)): \(error)")
                    summary.failed += 1
                }
            }
        case .smtp, .sendmail:
            if !messages.isEmpty {
                printError(
                    "\(command): \(ComposerError.messagingUnavailable(reason: "SMTP and sendmail carry mail only; use --out or --uri for text messages"))"
                )
                summary.failed += messages.count
            }
            if !options.send {
                try dryRun(mailDrafts, options: options, out: &out, summary: &summary)
            } else {
                let dir = options.resume ?? URL(fileURLWithPath: "outbox-" + timestamp())
                let outbox = try openOutbox(dir, command: command)
                let existing = try outbox.status().items.count
                if existing == 0 {
                    let result = try outbox.enqueue(mailDrafts.map(\.draft), labels: mailDrafts.map(\.label))
                    for r in result.rejected {
                        printError("\(command): \(terminalSafe(mailDrafts[r.index].label)): \(r.error)")
                        summary.failed += 1
                    }
                    out.line(
                        "outbox \(dir.path): \(result.ids.count) message(s) queued (resume with --resume \(dir.path))")
                } else {
                    out.line("outbox \(dir.path): resuming \(existing) message(s); drafts are not queued again")
                }
                out.flush()
                let run = try send(outbox, options: options, command: command)
                summary.sent += run.sent
                summary.failed += run.failed
                summary.skipped += run.skipped
                summary.deferred += run.deferred
                summary.uncertain += run.uncertain
            }
        }
        printSummary(summary, out: &out)
        return summary.failed > 0 || summary.deferred > 0 || summary.uncertain > 0 ? .failure : .ok
    }

    static func dryRun(
        _ mail: [(label: String, draft: MailDraft)], options: DeliveryOptions, out: inout Output,
        summary: inout Summary
    ) throws {
        let via: String
        switch options.target {
        case .smtp(let c): via = c.url
        case .sendmail(let p): via = SendmailTransport(path: p).path
        default: via = ""
        }
        for item in mail {
            do {
                let bytes = try MIMEWriter().write(item.draft)
                let from = item.draft.from?.asciiAddress ?? "?"
                out.line(
                    "would send via \(via): \(terminalSafe(item.label)): \(from) → \(item.draft.envelopeRecipients.joined(separator: ", ")) "
                        + "\"\(terminalSafe(item.draft.subject))\" (\(bytes.count) bytes)")
                summary.skipped += 1
            } catch let error as ComposerError {
                printError("\(terminalSafe(item.label)): \(error)")
                summary.failed += 1
            }
        }
        out.line("dry run: add --send to deliver")
    }

    static func openOutbox(_ dir: URL, command: String) throws -> Outbox {
        do { return try Outbox(directory: dir) } catch { throw CLIError.failure("\(command): \(error)") }
    }

    /// Runs the outbox with a progress bar on a terminal.
    static func send(_ outbox: Outbox, options: DeliveryOptions, command: String, resendUncertain: Bool = false) throws
        -> OutboxRunSummary
    {
        guard let transport = options.envelopeTransport else {
            throw CLIError.usage("\(command): --smtp or --sendmail is needed to send an outbox")
        }
        if case .sendmail(let p) = options.target, !SendmailTransport(path: p).canSendMail {
            throw CLIError.failure(
                "\(command): \(ComposerError.mailUnavailable(reason: "\(SendmailTransport(path: p).path) is not executable"))"
            )
        }
        let terminal = isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        do {
            var policy = options.policy
            policy.resendUncertain = resendUncertain
            let result = try outbox.send(using: transport, policy: policy) { p in
                if terminal {
                    let width = 30
                    let filled = p.total == 0 ? width : p.done * width / p.total
                    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                    FileHandle.standardError.write(Data("\r[\(bar)] \(p.done)/\(p.total)".utf8))
                }
                if p.item.state == .failed || (p.item.state == .deferred) {
                    if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
                    printError(
                        "\(command): \(terminalSafe(p.item.label ?? p.item.id)): \(p.item.state.rawValue): "
                            + terminalSafe(p.item.lastError ?? ""))
                }
            }
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            return result
        } catch let error as ComposerError {
            throw CLIError.failure("\(command): \(error)")
        }
    }

    static func printSummary(_ s: Summary, out: inout Output) {
        var parts = ["sent \(s.sent)", "failed \(s.failed)", "skipped \(s.skipped)"]
        if s.saved > 0 { parts.insert("saved \(s.saved)", at: 1) }
        if s.deferred > 0 { parts.append("deferred \(s.deferred) (retry with --resume)") }
        if s.uncertain > 0 { parts.append("uncertain \(s.uncertain) (see 'contacts outbox status')") }
        out.line("summary: " + parts.joined(separator: ", "))
        out.flush()
    }

    static func timestamp() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd-HHmmss"
        return f.string(from: Date())
    }
}

/// `contacts outbox status DIR [--json]`
struct OutboxStatusCommand: Command {
    static let name = "outbox status"
    static let summary = "List the messages of an outbox and where each stands"
    static let help = """
        Usage: contacts outbox status DIR [--json]

        Lists every message of the outbox DIR (made by 'contacts compose --send') with its state:
        queued, deferred (transient failure: resume to retry), uncertain (interrupted after the server may
        have accepted it), sent or failed (permanent, with the SMTP reply).

        Options:
          --json   machine-readable output

        Example:
          contacts outbox status outbox-20260101-120000
        """

    struct JSONItem: Encodable {
        var id: String
        var label: String?
        var from: String
        var recipients: [String]
        var state: String
        var attempts: Int
        var code: Int?
        var error: String?
    }
    struct JSONStatus: Encodable {
        var counts: [String: Int]
        var items: [JSONItem]
        var orphans: [String]
        var tornJournalLines: Int
    }

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let json = args.flag("--json")
        let positionals = try args.positionals(max: 1, names: "DIR")
        guard let path = positionals.first else { throw CLIError.usage("outbox status: expected DIR") }
        let dir = URL(fileURLWithPath: path)
        guard Outbox.exists(at: dir) else {
            throw CLIError.usage("outbox status: \(path): no outbox here (journal.jsonl missing)")
        }
        let status: OutboxStatus
        do { status = try Outbox(directory: dir).status() } catch { throw CLIError.failure("outbox status: \(error)") }
        var out = Output()
        if json {
            var counts: [String: Int] = [:]
            for s in OutboxState.allCases { counts[s.rawValue] = status.count(s) }
            let items = status.items.map {
                JSONItem(
                    id: $0.id, label: $0.label, from: $0.from, recipients: $0.recipients, state: $0.state.rawValue,
                    attempts: $0.attempts, code: $0.lastCode, error: $0.lastError)
            }
            out.write(
                try jsonString(
                    JSONStatus(
                        counts: counts, items: items, orphans: status.orphans, tornJournalLines: status.tornLines)))
            out.line()
        } else {
            out.line(OutboxState.allCases.map { "\($0.rawValue) \(status.count($0))" }.joined(separator: ", "))
            for item in status.items {
                var line =
                    "\(item.id)  \(item.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                    + terminalSafe(item.recipients.joined(separator: ", "))
                if let label = item.label { line += "  (\(terminalSafe(label)))" }
                if item.state != .sent, let error = item.lastError { line += "  — \(terminalSafe(error))" }
                out.line(line)
            }
            if !status.orphans.isEmpty {
                out.line(
                    "not queued (left by an interrupted compose): "
                        + terminalSafe(status.orphans.joined(separator: ", ")))
            }
            if status.tornLines > 0 { out.line("journal: \(status.tornLines) torn line(s) from a crash, ignored") }
        }
        out.flush()
        return .ok
    }
}

/// `contacts outbox send DIR (--smtp URL … | --sendmail) [--rate N/min]`: delivers what an outbox still holds.
struct OutboxSendCommand: Command {
    static let name = "outbox send"
    static let summary = "Deliver the queued and deferred messages of an outbox (resume)"
    static let help = """
        Usage: contacts outbox send DIR (--smtp URL [options] | --sendmail) [--rate N/min] [--resend-uncertain]

        Sends every queued or deferred message of the outbox DIR exactly once; already sent or failed ones
        are skipped. Transient failures (4xx, network) are retried with backoff and stay deferred if they
        persist; permanent ones (5xx) are reported as failed.

        Options:
        \(DeliveryOptions.help)
          --resend-uncertain     also send messages interrupted after the server may have accepted them

        Example:
          contacts outbox send outbox-20260101-120000 --smtp smtp://mail.example.com --rate 30/min
        """

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let resendUncertain = args.flag("--resend-uncertain")
        let options = try DeliveryOptions.parse(&args, command: name)
        let positionals = try args.positionals(max: 1, names: "DIR")
        guard let path = positionals.first else { throw CLIError.usage("\(name): expected DIR") }
        let dir = URL(fileURLWithPath: path)
        guard Outbox.exists(at: dir) else {
            throw CLIError.usage("\(name): \(path): no outbox here (journal.jsonl missing)")
        }
        switch options.target {
        case .smtp, .sendmail: break
        default: throw CLIError.usage("\(name): --smtp URL or --sendmail is required")
        }
        let outbox = try ComposeDelivery.openOutbox(dir, command: name)
        let run = try ComposeDelivery.send(outbox, options: options, command: name, resendUncertain: resendUncertain)
        var out = Output()
        ComposeDelivery.printSummary(
            .init(
                sent: run.sent, failed: run.failed, skipped: run.skipped, deferred: run.deferred,
                uncertain: run.uncertain), out: &out)
        return run.failed > 0 || run.deferred > 0 || run.uncertain > 0 ? .failure : .ok
    }
}
