import ArgumentModel
import Campaigns
import Composer
import Foundation
import TerminalUI

/// `compose`'s bulk-mail options: the suppression list it honours, VERP envelope senders, header fields,
/// List-Id and opaque unsubscribe tokens.
struct ComposeListOptions {
    var suppressions: String?
    var verp: String?
    var headers: [String] = []
    var listID: String?
    var tokens: String?

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
        .repeated(
            "--header", value: "'NAME: VALUE'",
            help: """
                add this header field to every mail, VALUE a template rendered per recipient
                (X-Campaign: {{table}}); fields the tool writes (From, Subject, List-Id,
                List-Unsubscribe, Precedence, DKIM-Signature…) are refused
                """, section: section),
        .option(
            "--list-id", value: "'NAME <ID>'",
            help: "the List-Id of the mailing (RFC 2919), e.g. 'Club news <news.example.org>'", section: section),
        .option(
            "--unsubscribe-tokens", value: "FILE",
            help: """
                give each recipient an opaque token, {{unsubscribe_token}} in templates and
                --unsubscribe (https://example.org/leave?t={{unsubscribe_token}}), kept in FILE
                (address<TAB>token, the same every run) for the site that takes the click
                """, completion: .file, section: section),
    ]

    static func parse(_ args: inout Arguments) throws -> ComposeListOptions {
        ComposeListOptions(
            suppressions: try args.option("--suppressions"), verp: try args.option("--verp"),
            headers: try args.options("--header"), listID: try args.option("--list-id"),
            tokens: try args.option("--unsubscribe-tokens"))
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
        do { campaign.headers = try headers.map(CampaignHeader.init(parsing:)) } catch {
            throw CLIError.usage("\(command): --header: \(error)")
        }
        if let listID {
            do { try CampaignHeader.checkListID(listID) } catch {
                throw CLIError.usage("\(command): --list-id: \(error)")
            }
            campaign.listID = listID
        }
        do { campaign.unsubscribeTokens = try tokens.map(UnsubscribeTokens.init(file:)) } catch {
            throw CLIError.failure("\(command): --unsubscribe-tokens: \(error)")
        }
    }
}
