import ArgumentModel
import Collation
import ContactsCore
import ContactsSelection
import Foundation
import TerminalUI

/// `--group NAME` of `list`, `search`, `compose`: only the contacts of that group.
let groupOption = OptionSpec.option(
    "--group", value: "NAME",
    help: "only the contacts of this group (a KIND:group card, an Apple group or a CATEGORIES value; any case)")

/// The contacts of `book` in group `name` (all of them when `name` is nil); an unknown group is a usage
/// error naming the groups the book has.
func groupMembers(of book: AddressBook, group name: String?) throws -> [Contact] {
    try opening { try ListingCache.members(of: book, group: name) }
}

enum GroupsCommand: Command {
    static let name = "groups"
    static let summary = "List the groups of an address book with their member counts"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Lists every group of the address book: vCard 4 group cards (KIND:group with MEMBERs), Apple's
            groups (X-ADDRESSBOOKSERVER-KIND:group with X-ADDRESSBOOKSERVER-MEMBERs) and CATEGORIES values,
            sorted for the locale, each with the number of the book's contacts in it. A card group and a
            category of the same name (any case) are one group. 'contacts list --group NAME' lists its contacts.
            """,
        options: [
            ListOptions.options[0], ListOptions.options[1],
            .flag("--json", help: #"[{"name", "members", "kinds": ["card"|"category"]}]"#),
        ],
        examples: ["contacts groups --source contacts.vcf", "contacts groups --json"])

    struct Row: Encodable {
        var name: String
        var members: Int
        var kinds: [String]
    }

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let sources = try args.options("--source")
        let locales = commandLocales(try args.option("--locale"))
        let json = args.flag("--json")
        _ = try args.positionals(max: 0, names: "no arguments (use --source FILE)")
        let book = try readSources(sources).book
        let collation: LocalizedCollation
        do { collation = try LocalizedCollation(locales: locales) } catch {
            throw CLIError.usage("cannot use locale '\(locales[0])': \(error)")
        }
        let summaries = collation.sorted(GroupSummary.summaries(of: book), by: \.name)
        if json {
            let rows = summaries.map { summary in
                Row(
                    name: summary.name, members: summary.memberCount,
                    kinds: summary.kinds.map { $0 == .card ? "card" : "category" })
            }
            print(try jsonString(rows))
        } else if summaries.isEmpty {
            print("no groups")
        } else {
            for summary in summaries {
                let count = "\(summary.memberCount) contact\(summary.memberCount == 1 ? "" : "s")"
                print("\(terminalSafe(summary.name))\t\(count)")
            }
        }
        return .ok
    }
}
