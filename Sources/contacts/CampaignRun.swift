import Campaigns
import Composer
import Foundation
import TerminalUI

extension DeliveryOptions {
    /// What the options mean for a campaign (the library's one rule for `compose` and `pick`): the delivery,
    /// `--send`, the outbox folder (the current one), `--resume` and `--new-batch`.
    var sending: CampaignSending {
        var sending = CampaignSending(delivery: delivery, send: send, resume: resume, newBatch: newBatch)
        sending.maxRecipients = throttle.maxRecipients
        return sending
    }
}

extension ComposeDelivery {
    /// This very command again with `--resume DIR` (a `--resume` or `--new-batch` it had left out), quoted
    /// for a shell: what resumes the outbox `dir` of a send that was stopped or killed at any point, even
    /// before its messages were queued.
    static func rerun(resuming dir: URL) -> String {
        var words = ["contacts"]
        var args = CommandLine.arguments.dropFirst()
        while let word = args.popFirst() {
            if word == "--resume" {
                _ = args.popFirst()
            } else if !word.hasPrefix("--resume=") && word != "--new-batch" {
                words.append(word)
            }
        }
        return (words + ["--resume", dir.path]).map(shellQuoted).joined(separator: " ")
    }

    /// Runs a campaign from selection to delivery through the library's one path (`Campaign.deliver`,
    /// called by `deliver` with the event handler), printing what happens: files saved, URIs, what a dry
    /// run would send, the outbox, a progress bar on a terminal, the summary. Each contact that was asked
    /// for and cannot be reached, and each recipient not rendered, is named on stderr and counted.
    ///
    /// Returns the exit code: 0 when nothing failed, 1 when something failed, was left out or is deferred
    /// or uncertain, 130 when interrupted. For a send the caller has given SIGINT and SIGTERM to the stop
    /// (`Interrupts.watch`) before rendering; they are given back to their default action when the
    /// delivery ends.
    static func run(
        options: DeliveryOptions, command: String, locale: String,
        deliver: ((DeliveryEvent) -> Void) throws(ComposerError) -> CampaignDelivery
    ) throws -> ExitCode {
        var out = Output()
        let progress = ProgressPrinter(command: command)
        var outbox: Outbox?
        var stoppedBeforeQueueing = false
        let result: CampaignDelivery
        do {
            result = try deliver { event in
                switch event {
                case .saved(_, let file): out.line("saved \(file.path)")
                case .savedMessages(let file): out.line("saved \(file.path)")
                case .uri(_, _, let uri): out.line(uri)
                case .wouldText(let item, let segments):
                    out.line(
                        "would text via \(options.smsProgram ?? ""): \(terminalSafe(item.label)): "
                            + "\(item.draft.recipients.joined(separator: ", ")) (\(segments) SMS segment(s))")
                case .wouldSend(let item, let size):
                    let from = item.draft.from?.asciiAddress ?? "?"
                    out.line(
                        "would send via \(options.target.via): \(terminalSafe(item.label)): \(from) → "
                            + "\(item.draft.envelopeRecipients.joined(separator: ", ")) "
                            + "\"\(terminalSafe(item.draft.subject))\" (\(size) bytes)")
                    for a in item.draft.attachments {
                        out.line("  attachment \"\(terminalSafe(a.filename))\" (\(a.size) bytes)")
                    }
                case .refused(let label, _, let error):
                    printError(
                        options.sending.isDryRun
                            ? "\(terminalSafe(label)): \(error)" : "\(command): \(terminalSafe(label)): \(error)")
                case .messagesNotCarried(let items, _):
                    printError(
                        "\(command): \(ComposeAlert.cannotSend(mail: false, locale: locale).line) (\(items.count) text "
                            + "message(s): SMTP and sendmail carry mail only; use --sms-program, --out or --uri)")
                case .preparing(let box):
                    Interrupts.preparing(resumeHint: rerun(resuming: box.directory))
                case .queued(let box, let count):
                    out.line(
                        "outbox \(box.directory.path): \(count) message(s) queued (resume with --resume \(box.directory.path))"
                    )
                    out.flush()
                    outbox = box
                    Interrupts.sending(resumeHint: options.resumeCommand(box.directory))
                    progress.begin()
                case .resuming(let box, let count):
                    out.line("outbox \(box.directory.path): resuming \(count) message(s); drafts are not queued again")
                    out.flush()
                    outbox = box
                    Interrupts.sending(resumeHint: options.resumeCommand(box.directory))
                    progress.begin()
                case .stoppedBeforeQueueing: stoppedBeforeQueueing = true
                case .progress(let p): progress.show(p)
                }
            }
        } catch .outboxMissing(let path) {
            throw CLIError.usage("\(command): --resume: \(path): no outbox here")
        } catch .unfinishedBatch(let path) {
            throw CLIError.usage(
                "\(command): \(path): an unfinished outbox of the same batch (same template, data, recipients and "
                    + "transport) is there; sending again into a new one would send its messages twice. "
                    + "Resume with: \(rerun(resuming: URL(fileURLWithPath: path))) "
                    + "(or add --new-batch to send the whole batch again)")
        } catch .missingField("from") {
            throw CLIError.usage("\(command): --from ADDR is needed for mail (the sender of every message)")
        } catch .mailUnavailable(let reason) {
            throw CLIError.failure(
                "\(command): \(ComposeAlert.cannotSend(mail: true, locale: locale).line) (\(reason))")
        } catch .messagingUnavailable(let reason) {
            throw CLIError.failure(
                "\(command): \(ComposeAlert.cannotSend(mail: false, locale: locale).line) (\(reason))")
        } catch {
            throw CLIError.failure("\(command): \(error)")
        }
        Interrupts.unwatch()
        progress.end()
        if stoppedBeforeQueueing {
            out.line(Self.stoppedBeforeQueueing)
            out.flush()
            return .interrupted
        }
        let noAddress = result.notComposed.filter(\.isNoAddress)
        let suppressed = result.notComposed.filter(\.isSuppressed)
        for failure in result.notComposed { printError("\(command): " + terminalSafe("\(failure)")) }
        if options.sending.isDryRun { out.line("dry run: add --send to deliver") }
        printSummary(result.summary, noAddress: noAddress.count, suppressed: suppressed.count, out: &out)
        var code = exitCode(result.summary.outcome)
        if let outbox { code = finish(result.summary, outbox: outbox, options: options, out: &out) }
        if result.alreadyQueued > 0 {
            out.line("already queued by an earlier run of this batch: \(result.alreadyQueued) (not sent again)")
        }
        if result.heldBack > 0 { out.line("held back by --limit: \(result.heldBack) (a later run sends them)") }
        out.flush()
        let notRendered = result.notComposed.count - noAddress.count - suppressed.count
        if notRendered > 0 {
            out.line("not rendered: \(notRendered) recipient(s) (see stderr)")
            out.flush()
        }
        // A suppressed address is the list honoured, not a failure.
        let failed = result.notComposed.contains { !$0.isSuppressed }
        return failed && code != .interrupted ? .failure : code
    }
}

extension CampaignFailure {
    /// Whether the contact was asked for but has no address for the mode (not a rendering failure).
    var isNoAddress: Bool {
        switch error {
        case CampaignError.noAddress, CampaignError.unknownContact: return true
        default: return false
        }
    }

    /// Whether the recipient is on the suppression list (skipped as asked, not a failure).
    var isSuppressed: Bool {
        if case CampaignError.suppressed = error { return true }
        return false
    }
}
