import ArgumentModel
import Campaigns
import Composer
import ContactsSelection
import Foundation
import Templating
import TerminalUI

/// `compose`'s options to look before sending: `--preview N|all`, `--limit N`, `--test-to ADDRESS`.
struct ComposePreviewOptions {
    /// `--preview`: given, and how many (nil: all).
    var preview: Int??
    var limit: Int?
    var testTo: MailAddress?

    static let options: [OptionSpec] = [
        .option(
            "--preview", value: "N|all",
            help: """
                print the first N messages (or all) as a mail reader shows them: header fields, the
                text of each part, each attachment's name and size; nothing is written or sent
                """, section: ComposeListOptions.section),
        .option(
            "--limit", value: "N",
            help: """
                deliver only the first N messages (recipients in order); a later run of the same
                batch from the same folder sends only the rest, each once
                """, section: ComposeListOptions.section),
        .option(
            "--test-to", value: "ADDR",
            help: """
                send the first message (or the first --limit N) to ADDR alone, '[TEST]' before its
                subject, as a batch of its own: no real recipient counts as sent
                """, section: ComposeListOptions.section),
    ]

    static func parse(_ args: inout Arguments, command: String) throws -> ComposePreviewOptions {
        var options = ComposePreviewOptions()
        func count(_ option: String, _ text: String?, allowAll: Bool) throws -> Int?? {
            guard let text else { return nil }
            if allowAll && text == "all" { return .some(nil) }
            guard let n = Int(text), n > 0 else {
                throw CLIError.usage(
                    "\(command): \(option): expected a whole number above 0\(allowAll ? " or 'all'" : ""), got '\(text)'"
                )
            }
            return .some(n)
        }
        options.preview = try count("--preview", try args.option("--preview"), allowAll: true)
        options.limit = try count("--limit", try args.option("--limit"), allowAll: false) ?? nil
        if let text = try args.option("--test-to") {
            do { options.testTo = try MailAddress(parsing: text) } catch {
                throw CLIError.usage("\(command): --test-to: \(error)")
            }
        }
        return options
    }

    /// `sending` with the limit and the test address.
    func apply(to sending: CampaignSending) -> CampaignSending {
        var sending = sending
        sending.limit = limit
        sending.testTo = testTo
        return sending
    }

    /// `--preview`: prints the previews (stdout) and the recipients left out (stderr); 1 when any was.
    func printPreviews(
        _ campaign: Campaign, selection: SelectionController, library: TemplateLibrary, sending: CampaignSending,
        leftOut: [CampaignFailure], command: String
    ) -> ExitCode {
        let count = preview ?? nil
        let (previews, failures) = campaign.previews(selection, library: library, sending: sending, count: count)
        var out = Output()
        for text in previews {
            // Line by line: a control character of a value is shown escaped, never sent to the terminal.
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                out.line(terminalSafe(String(line)))
            }
        }
        out.line("preview: \(previews.count) message(s) shown; nothing was sent")
        out.flush()
        for failure in leftOut + failures { printError("\(command): " + terminalSafe("\(failure)")) }
        return (leftOut + failures).isEmpty ? .ok : .failure
    }
}
