import Composer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Delivery options shared by `compose` and `outbox send`:
/// `(--out DIR | --smtp URL [--starttls] [--ca-file F] [--user U --password-file F] | --sendmail
/// [--sendmail-program P] | --uri) [--send] [--resume DIR] [--rate N/min] [--from ADDR]`, plus the
/// timeouts and retries of a send.
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
    /// Tries per message in one run and the first backoff (seconds), when given.
    var attempts: Int?
    var backoff: Double?
    var sendmailTimeout: Double?

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
          --resume DIR           continue the outbox DIR of an interrupted --send (without it, --send
                                 always makes a new outbox folder, outbox-YYYYMMDD-HHMMSS[-N])
          --rate N/min|N/hour    at most N messages per minute (or hour); at least 1/hour
          --from ADDR            the sender (one address), "Name <addr>" or addr
          --reply-timeout S      seconds to wait for the server's reply after the end of a message
                                 (default 600, RFC 5321); when it runs out the message is uncertain
          --command-timeout S    seconds to wait for the reply to each other SMTP command (default 300)
          --connect-timeout S    seconds to connect (default 10)
          --sendmail-timeout S   seconds sendmail may take for one message (default 600)
          --attempts N           tries per message in this run for transient failures (default 5)
          --backoff S            seconds before the first retry, doubled for each further one (default 2)
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
        let replyTimeout = try seconds(args.option("--reply-timeout"), "--reply-timeout", command: command)
        let commandTimeout = try seconds(args.option("--command-timeout"), "--command-timeout", command: command)
        let connectTimeout = try seconds(args.option("--connect-timeout"), "--connect-timeout", command: command)
        let sendmailTimeout = try seconds(
            args.option("--sendmail-timeout"), "--sendmail-timeout", command: command)
        let backoff = try seconds(args.option("--backoff"), "--backoff", command: command, allowZero: true)
        var attempts: Int?
        if let text = try args.option("--attempts") {
            guard let n = Int(text), (1...100).contains(n) else {
                throw CLIError.usage("\(command): --attempts: expected a whole number from 1 to 100, got '\(text)'")
            }
            attempts = n
        }

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
            if let replyTimeout { config.dataTimeout = replyTimeout }
            if let commandTimeout { config.commandTimeout = commandTimeout }
            if let connectTimeout { config.connectTimeout = connectTimeout }
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
        } else if starttls || caFile != nil || user != nil || auth != nil || replyTimeout != nil
            || commandTimeout != nil || connectTimeout != nil
        {
            throw CLIError.usage(
                "\(command): --starttls, --ca-file, --user, --auth and the SMTP timeouts go with --smtp")
        }
        if sendmailTimeout != nil, case .smtp = target {
            throw CLIError.usage("\(command): --sendmail-timeout goes with --sendmail")
        }
        let perMinute = try rate.map { try parseRate($0, command: command) }
        var sender: MailAddress?
        if let from {
            if let second = secondAddress(in: from) {
                throw CLIError.usage(
                    "\(command): --from: expected one sender address; column \(second) of '\(from)' starts another "
                        + "(a display name with a comma goes in quotes: \"Doe, Ann\" <ann@example.org>)")
            }
            do { sender = try MailAddress(parsing: from) } catch {
                throw CLIError.usage("\(command): --from: \(error)")
            }
        }
        return DeliveryOptions(
            target: target, send: send, resume: resume.map { URL(fileURLWithPath: $0) }, rate: perMinute,
            from: sender, attempts: attempts, backoff: backoff, sendmailTimeout: sendmailTimeout)
    }

    /// `N/min`, `N/hour` (or `N/h`, `N` alone per minute) as messages per minute; at least one per hour.
    static func parseRate(_ text: String, command: String) throws -> Double {
        let units: [(String, Double)] = [("/min", 1), ("/minute", 1), ("/hour", 60), ("/h", 60)]
        var number = Substring(text)
        var perMinutes = 1.0
        if let (suffix, minutes) = units.first(where: { text.hasSuffix($0.0) }) {
            number = text.dropLast(suffix.count)
            perMinutes = minutes
        }
        guard let n = Double(number), n.isFinite, n > 0 else {
            throw CLIError.usage("\(command): --rate: expected N/min or N/hour with N > 0, got '\(text)'")
        }
        let perMinute = n / perMinutes
        guard perMinute >= 1.0 / 60 else {
            throw CLIError.usage("\(command): --rate: '\(text)' is below the lowest rate, 1/hour")
        }
        return perMinute
    }

    /// A positive, finite number of seconds (at most a day), or nil when the option is absent.
    static func seconds(_ text: String?, _ option: String, command: String, allowZero: Bool = false) throws
        -> Double?
    {
        guard let text else { return nil }
        guard let n = Double(text), n.isFinite, allowZero ? n >= 0 : n > 0, n <= 86_400 else {
            throw CLIError.usage(
                "\(command): \(option): expected seconds (a number \(allowZero ? "from 0" : "above 0") up to 86400), got '\(text)'"
            )
        }
        return n
    }

    /// The 1-based column where a second address starts in `--from` text (a `,` or `;` outside quotes and
    /// angle brackets, or a second `<…>`), or nil for a single address.
    static func secondAddress(in text: String) -> Int? {
        var quoted = false
        var escaped = false
        var angle = false
        var angles = 0
        for (i, c) in text.enumerated() {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if c == "\\" { escaped = true } else if c == "\"" { quoted = false }
                continue
            }
            switch c {
            case "\"": quoted = true
            case "<":
                angles += 1
                if angles > 1 { return i + 1 }
                angle = true
            case ">": angle = false
            case ",", ";": if !angle { return i + 1 }
            default: break
            }
        }
        return nil
    }

    var envelopeTransport: (any EnvelopeTransport)? {
        switch target {
        case .smtp(let config): return try? SMTPTransport(configuration: config)
        case .sendmail(let path):
            var transport = SendmailTransport(path: path)
            if let sendmailTimeout { transport.timeout = sendmailTimeout }
            return transport
        default: return nil
        }
    }

    var policy: OutboxPolicy {
        var p = OutboxPolicy()
        p.messagesPerMinute = rate
        if let attempts { p.maxAttempts = attempts }
        if let backoff {
            p.backoff = backoff
            p.maxBackoff = max(p.maxBackoff, backoff)
        }
        return p
    }

    /// The command that resumes the outbox `dir` with this target (secrets left out).
    func resumeCommand(_ dir: URL) -> String {
        var words = ["contacts", "outbox", "send", dir.path]
        switch target {
        case .smtp(let c): words += ["--smtp", c.url]
        case .sendmail(let p): words += p.map { ["--sendmail-program", $0] } ?? ["--sendmail"]
        default: break
        }
        return words.map(shellQuoted).joined(separator: " ") + " …"
    }
}

/// `word` quoted for a POSIX shell when it needs it.
func shellQuoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) || "-_./:@=+,%".unicodeScalars.contains($0)
    }
    return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
                    printError("\(command): \(item.label): \(error)")
                    summary.failed += 1
                }
            }
            var smsFiles: [String] = []
            for item in messages {
                do {
                    let url = try files.saveMessage(item.draft)
                    if !smsFiles.contains(url.path) { smsFiles.append(url.path) }
                    summary.saved += 1
                } catch let error as ComposerError {
                    printError("\(command): \(item.label): \(error)")
                    summary.failed += 1
                }
            }
            for path in smsFiles { out.line("saved \(path)") }
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
                    printError("\(command): \(item.label): \(error)")
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
                let outbox: Outbox
                if let dir = options.resume {
                    // Resuming is explicit: the folder must be there (an outbox whose queueing was cut
                    // short, with no journal yet, is filled now).
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory),
                        isDirectory.boolValue
                    else {
                        throw CLIError.usage("\(command): --resume: \(dir.path): no outbox here")
                    }
                    outbox = try openOutbox(dir, command: command)
                } else {
                    do {
                        outbox = try Outbox.create(
                            in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                            name: "outbox-" + timestamp())
                    } catch { throw CLIError.failure("\(command): \(error)") }
                }
                let dir = outbox.directory
                let existing = try outbox.status().items.count
                if existing == 0 {
                    let result = try outbox.enqueue(mailDrafts.map(\.draft), labels: mailDrafts.map(\.label))
                    for r in result.rejected {
                        printError("\(command): \(mailDrafts[r.index].label): \(r.error)")
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
                printSummary(summary, out: &out)
                let code = try finish(run, outbox: outbox, options: options, out: &out)
                // Drafts refused before queueing (and text messages, which SMTP cannot carry) failed too.
                return code == .ok && summary.failed > 0 ? .failure : code
            }
        }
        printSummary(summary, out: &out)
        return summary.failed > 0 || summary.deferred > 0 || summary.uncertain > 0 ? .failure : .ok
    }

    /// After an outbox run's summary: lists the uncertain messages and how to settle them, says how to
    /// resume an interrupted run; returns the exit code (130 interrupted, 1 anything not sent, else 0).
    static func finish(_ run: OutboxRunSummary, outbox: Outbox, options: DeliveryOptions, out: inout Output) throws
        -> ExitCode
    {
        let dir = shellQuoted(outbox.directory.path)
        if run.uncertain > 0, let status = try? outbox.status() {
            for item in status.items where item.state == .uncertain {
                out.line(
                    "uncertain: \(item.id) \(item.recipients.joined(separator: ", "))"
                        + (item.label.map { " (\($0))" } ?? "") + (item.lastError.map { " — \($0)" } ?? ""))
            }
            out.line(
                "the server may have accepted these: check (recipient, server log), then run "
                    + "'contacts outbox settle \(dir) ID… --sent' for those that arrived and '--resend' for the others")
        }
        if run.interrupted {
            out.line(
                "interrupted: \(run.remaining) message(s) not sent yet; resume with: \(options.resumeCommand(outbox.directory))"
            )
            out.flush()
            return .interrupted
        }
        out.flush()
        return run.failed > 0 || run.deferred > 0 || run.uncertain > 0 ? .failure : .ok
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
                    "would send via \(via): \(item.label): \(from) → \(item.draft.envelopeRecipients.joined(separator: ", ")) "
                        + "\"\(item.draft.subject)\" (\(bytes.count) bytes)")
                summary.skipped += 1
            } catch let error as ComposerError {
                printError("\(item.label): \(error)")
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
        let stop = OutboxStop()
        Interrupts.watch(stop, resumeHint: options.resumeCommand(outbox.directory))
        defer { Interrupts.unwatch() }
        do {
            var policy = options.policy
            policy.resendUncertain = resendUncertain
            let result = try outbox.send(using: transport, policy: policy, stop: stop) { p in
                if terminal {
                    let width = 30
                    let filled = p.total == 0 ? width : p.done * width / p.total
                    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                    FileHandle.standardError.write(Data("\r[\(bar)] \(p.done)/\(p.total)".utf8))
                }
                if p.item.state == .failed || p.item.state == .deferred || p.item.state == .uncertain {
                    if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
                    printError(
                        "\(command): \(p.item.label ?? p.item.id): \(p.item.state.rawValue): \(p.item.lastError ?? "")")
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
        if s.uncertain > 0 { parts.append("uncertain \(s.uncertain) (see below: 'contacts outbox settle')") }
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
        queued, deferred (transient failure: resume to retry), uncertain (handed over, then no reply: the
        server may have accepted it; see 'contacts outbox settle'), sent or failed (permanent, with the
        SMTP reply).

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
                    + item.recipients.joined(separator: ", ")
                if let label = item.label { line += "  (\(label))" }
                if item.state != .sent, let error = item.lastError { line += "  — \(error)" }
                out.line(line)
            }
            if !status.orphans.isEmpty {
                out.line("not queued (left by an interrupted compose): " + status.orphans.joined(separator: ", "))
            }
            if status.tornLines > 0 { out.line("journal: \(status.tornLines) torn line(s) from a crash, ignored") }
            if status.count(.uncertain) > 0 {
                out.line(
                    "uncertain messages may have arrived: check, then 'contacts outbox settle \(shellQuoted(path)) ID… "
                        + "--sent' (arrived) or '--resend' (send again)")
            }
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
        persist; permanent ones (5xx) are reported as failed. A message handed over without a reply (the
        connection dropped or timed out after its end) is uncertain: it is listed, never sent again by
        itself; settle it with 'contacts outbox settle DIR ID --sent|--resend'.
        The first Ctrl-C or SIGTERM finishes the message in flight, prints the summary and exits with 130
        (run the same command to resume); a second one stops at once.

        Options:
        \(DeliveryOptions.help)
          --resend-uncertain     also send every uncertain message (the server may already have it: it
                                 may arrive twice; 'contacts outbox settle' decides one by one)

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
        return try ComposeDelivery.finish(run, outbox: outbox, options: options, out: &out)
    }
}

/// `contacts outbox settle DIR ID… (--sent | --resend)`: records what became of uncertain messages.
struct OutboxSettleCommand: Command {
    static let name = "outbox settle"
    static let summary = "Record whether uncertain messages of an outbox arrived (--sent) or must be sent again"
    static let help = """
        Usage: contacts outbox settle DIR ID… (--sent | --resend)

        A message is uncertain when it was handed to the server and then no reply came (the connection
        dropped or timed out after the end of the message, or the run was killed at that moment): the
        server may or may not have accepted it, so it is never sent again by itself. Find out (ask the
        recipient, look in the server's log for its Message-ID, which 'contacts outbox status' and the
        file DIR/messages/ID.eml show), then settle it:
          --sent     it arrived: mark it sent
          --resend   it did not arrive: queue it again; the next 'contacts outbox send DIR' sends it
        Only uncertain messages can be settled; 'contacts outbox status DIR' lists them.

        Example:
          contacts outbox settle outbox-20260101-120000 000017 000042 --resend
        """

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let sent = args.flag("--sent")
        let resend = args.flag("--resend")
        let positionals = try args.positionals(max: Int.max, names: "DIR ID…")
        guard sent != resend else { throw CLIError.usage("\(name): give exactly one of --sent or --resend") }
        guard positionals.count >= 2 else { throw CLIError.usage("\(name): expected DIR and at least one ID") }
        let dir = URL(fileURLWithPath: positionals[0])
        guard Outbox.exists(at: dir) else {
            throw CLIError.usage("\(name): \(positionals[0]): no outbox here (journal.jsonl missing)")
        }
        let outbox = try ComposeDelivery.openOutbox(dir, command: name)
        var out = Output()
        var code = ExitCode.ok
        for id in positionals.dropFirst() {
            do {
                try outbox.settle(id, as: sent ? .sent : .resend)
                out.line("\(id): \(sent ? "sent" : "queued again")")
            } catch let error as ComposerError {
                if case .io = error { throw CLIError.failure("\(name): \(error)") }
                printError("contacts: \(name): \(id): \(error)")
                code = .failure
            }
        }
        out.flush()
        return code
    }
}
