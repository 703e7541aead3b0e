import ArgumentModel
import Campaigns
import Composer
import Foundation
import TerminalUI

/// `compose`'s list-hygiene options: the suppression list it honours and VERP envelope senders.
struct ComposeListOptions {
    var suppressions: String?
    var verp: String?

    static let section = "Mail merge"
    static let options: [OptionSpec] = [
        .option(
            "--suppressions", value: "FILE",
            help: """
                addresses never to mail (what 'contacts bounces read --into FILE' writes); each one
                skipped is named (default: suppressions.txt in the current folder, when there is one)
                """, completion: .file, section: section),
        .option(
            "--verp", value: "RETURN-PATH",
            help: """
                give each mail a VERP envelope sender for RETURN-PATH (bounces@example.org gives
                bounces+anna=example.net@example.org for anna@example.net), so a bounce names its
                recipient ('contacts bounces read --return-path RETURN-PATH')
                """, section: section),
    ]

    static func parse(_ args: inout Arguments) throws -> ComposeListOptions {
        ComposeListOptions(suppressions: try args.option("--suppressions"), verp: try args.option("--verp"))
    }

    /// Sets them on `campaign`: reads the suppression list, checks the return path.
    func apply(to campaign: inout Campaign, command: String) throws {
        do {
            let read = try campaign.readSuppressions(
                suppressions, folder: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            for d in read.diagnostics { printError("\(command): " + terminalSafe(d)) }
        } catch { throw CLIError.usage("\(command): --suppressions: \(error)") }
        if let verp {
            do { try VERP.check(returnPath: verp) } catch { throw CLIError.usage("\(command): --verp: \(error)") }
        }
        campaign.verpReturnPath = verp
    }
}
