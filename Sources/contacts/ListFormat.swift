import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation

/// `--format` of `list` and `search`: the rows as `pick --output` writes a selection (``ContactFormatter``).
enum ListFormat {
    /// The values of `--format`: the formatter's selection formats and `vcard`.
    static let formats = ["lines", "tsv", "json", "ids", "vcard"]

    static let option = OptionSpec.option(
        "--format",
        help: """
            print the rows without sections, as pick --output does: lines (RFC 5322 addresses), tsv
            (name<TAB>value<TAB>id, no header: for fzf and cut), json ([{"channel", "id", "name", "value"}]),
            ids (joined by ','), vcard (each contact's card); not with --json
            """, allowed: formats)

    /// Reads `--format`; nil when not given. `--json` beside it is a usage error.
    static func parse(_ args: inout Arguments, json: Bool) throws -> String? {
        guard let format = try args.option("--format") else { return nil }
        if json { throw CLIError.usage("\(args.command): give one of --json and --format \(format)") }
        return format
    }

    /// Prints what `query` finds (everyone for "") in `format`.
    static func print(_ options: ListOptions, format: String, query: String, keywords: Bool) throws
        -> any ContactListing
    {
        let (listing, contacts) = try options.openedListing(keywords: keywords)
        let result = listing.search(query, keywords: keywords, refining: nil)
        var out = Output()
        if let selection = ContactFormatter.SelectionFormat(rawValue: format) {
            ContactFormatter.terminal.writeRows(listing, result, as: selection, to: &out)
        } else {
            var ids: [String] = []
            var seen = Set<String>()
            for number in result.rowNumbers {
                let id = listing.listedRow(Int(number)).id
                if seen.insert(id).inserted { ids.append(id) }
            }
            do { out.write(try ContactFormatter.vcards(ids, contacts: contacts)) } catch {
                throw CLIError.failure("\(format): \(error)")
            }
        }
        out.flush()
        return listing
    }
}
