import ArgumentModel
import Campaigns
import Composer
import Foundation
import StringsCatalog
import TerminalUI

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
        } else if summary.capped > 0 {
            out.line(
                "daily cap reached: \(summary.capped) message(s) wait in the outbox; send them on a later day with: "
                    + options.resumeCommand(outbox.directory))
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
    static func printSummary(_ s: DeliverySummary, noAddress: Int = 0, suppressed: Int = 0, out: inout Output) {
        var parts = ["sent \(s.sent)", "failed \(s.failed)", "skipped \(s.skipped)"]
        if noAddress > 0 { parts.append("no address \(noAddress) (see stderr)") }
        if suppressed > 0 { parts.append("suppressed \(suppressed) (see stderr)") }
        if s.saved > 0 { parts.insert("saved \(s.saved)", at: 1) }
        if s.deferred > 0 { parts.append("deferred \(s.deferred) (retry with --resume)") }
        if !s.refusedRecipients.isEmpty { parts.append("recipients refused \(s.refusedRecipients.count) (see stderr)") }
        if s.deferredRecipients > 0 {
            parts.append("recipients deferred \(s.deferredRecipients) (the others got it; retry with --resume)")
        }
        if s.uncertain > 0 { parts.append("uncertain \(s.uncertain) (see below: 'contacts outbox settle')") }
        if s.capped > 0 { parts.append("held by the daily cap \(s.capped)") }
        if s.copiesSaved > 0 || !s.copyProblems.isEmpty {
            parts.append(
                "copies saved \(s.copiesSaved)"
                    + (s.copyProblems.isEmpty
                        ? "" : ", not saved \(s.copyProblems.count) (see stderr; run the outbox again)"))
        }
        for problem in s.copyProblems { printError("sent copy: " + terminalSafe(problem)) }
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
