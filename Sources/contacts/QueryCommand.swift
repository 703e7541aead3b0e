import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import TerminalUI

/// `contacts query TEXT…`: email addresses for a mail client's address completion, in its own format.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "Look up email addresses for a mail client (mutt query_command, aerc address-book-cmd)"
    static let formats = ContactPrinter.Format.matchFormats.map(\.rawValue)
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Searches the address book as 'contacts search' does (folded; --keywords: every word starts a word of
            the contact) and prints one line per email address of each contact found, best match first: names
            that start with the query, then names with a word starting with each word of it, then addresses
            that start with it, then the rest, each in list order. Several words are one query ("helene
            dubois" as one argument or as two). A contact without a name has an empty name field. With a
            saved index of the book for email ('contacts index build --mode email FILE'), the answer
            comes from it and only the cards found are read. Formats:
              mutt  a first line of text, then address<TAB>name<TAB>organization or the address's label
                    (muttrc: set query_command = "contacts query --format mutt %s" — mutt quotes %s itself,
                    so write no quotes around it)
              aerc  email<TAB>name, no header line (aerc's address-book-cmd)
              tsv   a header line, then email<TAB>name<TAB>label<TAB>organization<TAB>id
              json  [{"email", "id", "label", "name", "organization"}]
            Exits 1 when nothing matches (aerc then prints nothing). Tabs and line breaks in names become
            spaces, so every address stays one line.
            """,
        options: [
            ListOptions.options[0], ListOptions.options[1], ListOptions.regionOption, groupOption,
            .option("--format", value: "F", help: "output format (default: mutt)", allowed: formats),
            .flag("--keywords", help: #"keyword search ("f b" finds Felipe Baytelman and Bruno Finstein)"#),
        ],
        arguments: [
            ArgumentSpec(
                "TEXT", help: "what to look for (a name, part of an address, …; several words are one query)",
                required: true, repeated: true)
        ],
        examples: [
            "contacts query anna", "contacts query helene dubois", "contacts query --format aerc hele",
            #"contacts query --format json --keywords "f b""#,
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let format = ContactPrinter.Format(rawValue: try args.option("--format") ?? "mutt") ?? .mutt
        let keywords = args.flag("--keywords")
        let options = ListOptions(
            sources: try args.options("--source"), locales: commandLocales(try args.option("--locale")),
            region: try parseRegion(&args), mode: .email, skipUnnamed: false, preferNicknames: false, json: false,
            group: try args.option(groupOption.name))
        let words = try args.positionals(max: Int.max, names: "TEXT")
        guard !words.isEmpty else { throw CLIError.usage("query: missing TEXT") }
        let text = words.joined(separator: " ")
        let (listing, contacts) = try options.openedListing(keywords: keywords, needsContacts: true)
        let matches = try AddressMatch.matches(text, in: listing, contacts: contacts, keywords: keywords)
        var out = Output()
        do { try ContactPrinter(format, formatter: .terminal).write(matches: matches, query: text, to: &out) } catch {
            throw CLIError.failure("query: \(error)")
        }
        out.flush()
        return matches.isEmpty ? .failure : .ok
    }
}
