import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import TerminalUI

/// `contacts query TEXT`: email addresses for a mail client's address completion, in its own format.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "Look up email addresses for a mail client (mutt query_command, aerc address-book-cmd)"
    static let formats = ["mutt", "aerc", "tsv", "json"]
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Searches the address book as 'contacts search' does (folded; --keywords: every word starts a word of
            the contact) and prints one line per email address of each contact found, in list order:
              mutt  a first line of text, then address<TAB>name<TAB>organization or the address's label
                    (mutt's query_command: set query_command = "contacts query '%s'")
              aerc  email<TAB>name, no header line (aerc's address-book-cmd)
              tsv   a header line, then email<TAB>name<TAB>label<TAB>organization<TAB>id
              json  [{"email", "name", "label", "organization", "id"}]
            Exits 1 when nothing matches (aerc then prints nothing). Tabs and line breaks in names become
            spaces, so every address stays one line.
            """,
        options: [
            ListOptions.options[0], ListOptions.options[1], ListOptions.regionOption, groupOption,
            .option("--format", value: "F", help: "output format (default: mutt)", allowed: formats),
            .flag("--keywords", help: #"keyword search ("f b" finds Felipe Baytelman and Bruno Finstein)"#),
        ],
        arguments: [ArgumentSpec("TEXT", help: "what to look for (a name, part of an address, …)", required: true)],
        examples: [
            "contacts query anna", "contacts query --format aerc hele",
            #"contacts query --format json --keywords "f b""#,
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let format = try args.option("--format") ?? "mutt"
        let keywords = args.flag("--keywords")
        let options = ListOptions(
            sources: try args.options("--source"), locales: commandLocales(try args.option("--locale")),
            region: try parseRegion(&args), mode: .email, skipUnnamed: false, preferNicknames: false, json: false,
            group: try args.option(groupOption.name))
        let positionals = try args.positionals(max: 1, names: "one TEXT")
        guard let text = positionals.first else { throw CLIError.usage("query: missing TEXT") }
        let matches = try options.dataSource(keywords: keywords).addressMatches(text, keywords: keywords)
        var out = Output()
        switch format {
        case "aerc":
            for m in matches { out.line(field(m.email) + "\t" + field(m.name)) }
        case "tsv":
            out.line("email\tname\tlabel\torganization\tid")
            for m in matches {
                out.line([m.email, m.name, m.label, m.organization, m.id].map(field).joined(separator: "\t"))
            }
        case "json":
            out.line(try jsonString(matches))
        default:
            out.line(
                "searching for '\(field(text))' ... \(matches.count) match\(matches.count == 1 ? "" : "es")")
            for m in matches {
                out.line(
                    field(m.email) + "\t" + field(m.name) + "\t"
                        + field(m.organization.isEmpty ? m.label : m.organization))
            }
        }
        out.flush()
        return matches.isEmpty ? .failure : .ok
    }

    /// One field of a line: tabs and line breaks as spaces, control characters made visible.
    static func field(_ text: String) -> String {
        terminalSafe(
            text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\t", with: " ")
                .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
    }
}
