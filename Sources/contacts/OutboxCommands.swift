import ArgumentModel
import Composer
import Foundation
import TerminalUI

/// `contacts outbox status DIR [--json]`
struct OutboxStatusCommand: Command {
    static let name = "outbox status"
    static let summary = "List the messages of an outbox and where each stands"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Lists every message of the outbox DIR (made by 'contacts compose --send') with its state:
            queued, deferred (transient failure: resume to retry), uncertain (handed over, then no reply: the
            server may have accepted it; see 'contacts outbox settle'), sent or failed (permanent, with the
            SMTP reply).
            """,
        options: [.flag("--json", help: "machine-readable output")],
        arguments: [ArgumentSpec("DIR", help: "the outbox folder", required: true, completion: .directory)],
        examples: ["contacts outbox status outbox-20260101-120000"])

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
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Sends every queued or deferred message of the outbox DIR exactly once; already sent or failed ones
            are skipped. Transient failures (4xx, network) are retried with backoff and stay deferred if they
            persist; permanent ones (5xx) are reported as failed. A message handed over without a reply (the
            connection dropped or timed out after its end) is uncertain: it is listed, never sent again by
            itself; settle it with 'contacts outbox settle DIR ID --sent|--resend'.
            The first Ctrl-C or SIGTERM finishes the message in flight, prints the summary and exits with 130
            (run the same command to resume); a second one stops at once.
            With --wait DURATION it keeps the deferred messages and tries again, with backoff, until all
            are settled or DURATION ends: a connection refused, an unknown host and 4xx replies mean "not
            yet", a 5xx reply is final. For sending once the connection or the server is back.
            --smtp URL, --sendmail or --sms-program is required.
            """,
        options: [
            .flag(
                "--resend-uncertain",
                help: """
                    also send every uncertain message (the server may already have it: it
                    may arrive twice; 'contacts outbox settle' decides one by one)
                    """),
            .option(
                "--wait", value: "DURATION",
                help: "retry deferred messages until sent or DURATION (90s, 30m, 2h, 1d) has passed"),
        ] + DeliveryOptions.transportOptions,
        arguments: [ArgumentSpec("DIR", help: "the outbox folder", required: true, completion: .directory)],
        examples: [
            "contacts outbox send outbox-20260101-120000 --smtp smtp://mail.example.com --rate 30/min"
                + "   # [exit 1] while a message stays uncertain"
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let resendUncertain = args.flag("--resend-uncertain")
        let wait = try args.option("--wait").map { try parseDuration($0, option: "--wait", command: name) }
        let options = try DeliveryOptions.parse(&args, command: name)
        let positionals = try args.positionals(max: 1, names: "DIR")
        guard let path = positionals.first else { throw CLIError.usage("\(name): expected DIR") }
        let dir = URL(fileURLWithPath: path)
        guard Outbox.exists(at: dir) else {
            throw CLIError.usage("\(name): \(path): no outbox here (journal.jsonl missing)")
        }
        guard options.target.needsOutbox || options.smsProgram != nil else {
            throw CLIError.usage("\(name): --smtp URL, --sendmail or --sms-program is required")
        }
        let outbox = try ComposeDelivery.openOutbox(dir, command: name)
        let summary = try ComposeDelivery.send(
            outbox, options: options, command: name, resendUncertain: resendUncertain,
            retryUntil: wait.map { Date().addingTimeInterval($0) })
        var out = Output()
        ComposeDelivery.printSummary(summary, out: &out)
        return ComposeDelivery.finish(summary, outbox: outbox, options: options, out: &out)
    }
}

/// `contacts outbox settle DIR ID… (--sent | --resend)`: records what became of uncertain messages.
struct OutboxSettleCommand: Command {
    static let name = "outbox settle"
    static let summary = "Record whether uncertain messages of an outbox arrived (--sent) or must be sent again"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            A message is uncertain when it was handed to the server and then no reply came (the connection
            dropped or timed out after the end of the message, or the run was killed at that moment): the
            server may or may not have accepted it, so it is never sent again by itself. Find out (ask the
            recipient, look in the server's log for its Message-ID, which 'contacts outbox status' and the
            file DIR/messages/ID.eml show), then settle it with exactly one of --sent or --resend.
            Only uncertain messages can be settled; 'contacts outbox status DIR' lists them.
            """,
        options: [
            .flag("--sent", help: "it arrived: mark it sent"),
            .flag("--resend", help: "it did not arrive: queue it again; the next 'contacts outbox send DIR' sends it"),
        ],
        arguments: [
            ArgumentSpec("DIR", help: "the outbox folder", required: true, completion: .directory),
            ArgumentSpec("ID", help: "the uncertain messages to settle", required: true, repeated: true),
        ],
        examples: ["contacts outbox settle outbox-20260101-120000 000017 000042 --resend"])

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
        let result: OutboxSettleResult
        do { result = try outbox.settle(Array(positionals.dropFirst()), as: sent ? .sent : .resend) } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        var out = Output()
        for id in result.settled { out.line("\(id): \(sent ? "sent" : "queued again")") }
        for refusal in result.refused { printError("contacts: \(name): \(refusal.id): \(refusal.error)") }
        out.flush()
        return result.refused.isEmpty ? .ok : .failure
    }
}
