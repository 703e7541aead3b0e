import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation

/// `--format` of `list` and `search`: the rows as `pick --output` writes a selection (``ContactPrinter``).
enum ListFormat {
    /// The values of `--format`: the printer's formats of rows, in the order the help lists them.
    static let formats = [ContactPrinter.Format.lines, .tsv, .json, .ids, .vcard].map(\.rawValue)

    static let option = OptionSpec.option(
        "--format",
        help: """
            print the rows without sections, as pick --output does: lines (RFC 5322 addresses), tsv
            (name<TAB>value<TAB>id, no header: for fzf and cut), json ([{"channel", "id", "name", "value"}]),
            ids (joined by ','), vcard (each contact's card); not with --json
            """, allowed: formats)

    /// Reads `--format`; nil when not given. `--json` beside it is a usage error.
    static func parse(_ args: inout Arguments, json: Bool) throws -> ContactPrinter.Format? {
        guard let format = try args.option("--format") else { return nil }
        if json { throw CLIError.usage("\(args.command): give one of --json and --format \(format)") }
        return ContactPrinter.Format(rawValue: format)
    }

    /// Prints what `query` finds (everyone for "") in `format`.
    static func print(_ options: ListOptions, format: ContactPrinter.Format, query: String, keywords: Bool) throws
        -> any ContactListing
    {
        let (listing, contacts) = try options.openedListing(keywords: keywords, needsContacts: format == .vcard)
        let result = listing.search(query, keywords: keywords, refining: nil)
        var out = Output()
        do {
            try ContactPrinter(format, formatter: .terminal).write(
                listing, result, contacts: contacts, query: query, to: &out)
        } catch {
            throw CLIError.failure("\(format.rawValue): \(error)")
        }
        out.flush()
        return listing
    }
}
