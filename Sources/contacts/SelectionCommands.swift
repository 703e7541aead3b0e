import ArgumentModel
import Collation
import ContactsCore
import ContactsSelection
import Foundation
import Locales
import Support
import TerminalUI

/// Options shared by `list`, `search`, `compose`: where contacts come from and how they are listed.
struct ListOptions {
    /// `--source` values in order ([]: the embedded sample).
    var sources: [String]
    /// The one `--source`, when exactly one was given.
    var source: String? { sources.count == 1 ? sources[0] : nil }
    /// Most preferred first: the first names and sorts, the others add index letters and readings.
    var locales: [String]
    var locale: String { locales[0] }
    /// `--region` (else `CONTACTS_REGION`), checked; nil: the library's rule (the locale's region subtag,
    /// else the environment's territory).
    var region: String?
    var mode: SelectionMode
    var skipUnnamed: Bool
    var preferNicknames: Bool
    var json: Bool
    /// `--group NAME`: only the contacts of that group (the book is then read whole: groups need it).
    var group: String? = nil

    /// `--prefer-nicknames` (list, search, index build, compose): ``Configuration/preferNicknames``.
    static let preferNicknamesFlag = OptionSpec.flag(
        "--prefer-nicknames", help: "show contacts by their nickname, and sort and section them by it")

    /// The options of `list` and `search`.
    static let options: [OptionSpec] = [
        .repeated(
            "--source", value: "FILE.vcf|DIR",
            help: """
                address book to read: a vCard file, '-' for stdin, or a vdir folder (one .vcf per contact);
                repeat to read several as one (JSON rows then name their "source"); default: the embedded
                sample address book
                """, completion: .file),
        .option(
            "--locale", value: "L",
            help:
                "BCP 47 locale for names, sorting and sections, or a list (en,zh-Hans: the others add their letters and readings; default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG)"
        ),
        regionOption,
        .option(
            "--mode",
            help: """
                how contacts are reached (default: messages: a phone that takes text messages, never a fax or
                pager); when it lists no one but the other mode would (an email-only export), a note on stderr
                says which --mode to use
                """, allowed: modes),
        .flag("--skip-unnamed", help: "leave out contacts without a name"),
        preferNicknamesFlag,
        groupOption,
        .flag(
            "--json",
            help: #"{"index": [String], "sections": [{"title", "items": [{"id", "name", "value", "enabled"}]}]}"#),
    ]

    /// The values of `--mode`.
    static let modes = ["email", "messages", "both"]

    /// `--region CC` of every command that reads an address book.
    static let regionOption = OptionSpec.option(
        "--region", value: "CC",
        help: """
            phone region for numbers without a country code (e.g. US, GB); default:
            CONTACTS_REGION, else the region of --locale (en-GB: GB; ja, de: none),
            else of LC_ALL/LC_CTYPE/LANG; numbers no region reads are shown as written
            """)

    static func parse(_ args: inout Arguments) throws -> ListOptions {
        let mode = try parseMode(try args.option("--mode") ?? "messages")
        return ListOptions(
            sources: try args.options("--source"), locales: commandLocales(try args.option("--locale")),
            region: try parseRegion(&args), mode: mode, skipUnnamed: args.flag("--skip-unnamed"),
            preferNicknames: args.flag(preferNicknamesFlag.name), json: args.flag("--json"),
            group: try args.option(groupOption.name))
    }

    /// The list configuration these options make.
    func configuration(keywords: Bool) -> Configuration {
        var config = Configuration()
        config.mode = mode
        config.locales = locales
        config.phoneRegion = region
        config.skipUnnamedContacts = skipUnnamed
        config.preferNicknames = preferNicknames
        config.searchByKeywords = keywords
        return config
    }

    /// Builds the data source of a book already read (of its group `--group` only), with `config` when given
    /// (`pick` adds its own to these options'), else these options' configuration.
    func dataSource(book: AddressBook, keywords: Bool = false, config: Configuration? = nil) throws
        -> ContactsDataSource
    {
        try opening {
            try ListingCache.dataSource(
                book, configuration: config ?? configuration(keywords: keywords), group: group,
                observer: TerminalListingObserver())
        }
    }

    /// The list to answer from and where the contacts of its rows are found, opened by the library's one
    /// rule (``ListingCache/open(paths:configuration:group:needsContacts:namesSources:progressAfter:observer:)``),
    /// its notes and diagnostics on stderr. `config`: `pick`'s own (its contacts are then needed);
    /// `progressAfter`: seconds before the progress of reading the book shows (nil for the usual delay).
    func openedListing(
        keywords: Bool = false, config: Configuration? = nil, progressAfter: Double? = nil, needsContacts: Bool = false
    ) throws -> (listing: any ContactListing, contacts: ContactLookup) {
        let opened = try open(
            keywords: keywords, config: config, progressAfter: progressAfter, needsContacts: needsContacts)
        return (opened.listing, opened.contacts)
    }

    /// The list of the sources with, for several in `--json`, where each row came from.
    func sourcedListing(keywords: Bool = false) throws -> (listing: any ContactListing, sources: SourcedAddressBook?) {
        let opened = try open(keywords: keywords, namesSources: json)
        return (opened.listing, opened.sources)
    }

    private func open(
        keywords: Bool, config: Configuration? = nil, progressAfter: Double? = nil, needsContacts: Bool = false,
        namesSources: Bool = false
    ) throws -> ListingCache.Opened {
        try opening {
            try ListingCache.standard().open(
                paths: sources, configuration: config ?? configuration(keywords: keywords), group: group,
                needsContacts: needsContacts || config != nil, namesSources: namesSources,
                progressAfter: progressAfter, observer: TerminalListingObserver())
        }
    }

    /// The whole book of these options (``readSources(_:)``).
    func sourcedBook() throws -> (book: AddressBook, sources: SourcedAddressBook?) { try readSources(sources) }
}

/// `--region CC`, else `CONTACTS_REGION`: a region libphonenumber knows, upper-cased; nil when neither is
/// given (the library's rule then decides).
func parseRegion(_ args: inout Arguments) throws -> String? {
    let (text, origin): (String?, String) =
        if let option = try args.option("--region") {
            (option, "--region")
        } else {
            (
                ProcessInfoEnvironment.current[LocalePolicy.regionVariable].flatMap { $0.isEmpty ? nil : $0 },
                LocalePolicy.regionVariable
            )
        }
    guard let text else { return nil }
    guard let code = LocalePolicy.regionCode(text), PhoneNumber.isSupportedRegion(code) else {
        throw CLIError.usage("\(origin): expected a two-letter region code such as US, GB or DE, got '\(text)'")
    }
    return code
}

/// `--mode email|messages|both`.
func parseMode(_ text: String) throws -> SelectionMode {
    switch text {
    case "messages": return .messages
    case "email": return .email
    case "both": return .both
    default: throw CLIError.usage("--mode: expected email, messages or both, got '\(text)'")
    }
}

/// The book of `paths` (the `--source` values; ``ListingCache/readBook(_:observer:)``): the embedded
/// sample for none, one file, stdin or vdir folder as it is, several merged (with where each contact came
/// from); diagnostics on stderr, and a failure when no card at all could be read.
func readSources(_ paths: [String]) throws -> (book: AddressBook, sources: SourcedAddressBook?) {
    try opening { try ListingCache.readBook(paths, observer: TerminalListingObserver()) }
}

/// Reads FILE (or stdin for `-`, or a vdir folder) into an address book, with a progress line on a terminal.
func readBook(_ path: String, command: String) throws -> AddressBook {
    try opening(command) { try ListingCache.readSource(path, observer: TerminalListingObserver()) }
}

/// Runs `work`, which reads or lists a book, its errors as the commands report them: what the user named
/// wrong (no such file, an unknown group or locale) a usage error, what failed (unreadable, no card at
/// all) a failure; a source's errors prefixed with `command`.
func opening<T>(_ command: String = "source", _ work: () throws -> T) throws -> T {
    do { return try work() } catch let error as ContactsCoreError {
        if case .noSuchFile = error { throw CLIError.usage("\(command): \(error)") }
        throw CLIError.failure("\(command): \(error)")
    } catch let error as GroupError {
        throw CLIError.usage("--group: " + terminalSafe(error.description))
    } catch let error as SelectionError {
        if case .unusableLocale = error { throw CLIError.usage("\(error)") }
        throw CLIError.failure("\(error)")
    }
}

/// The failure of a command whose input FILE (`-`: stdin) had problems and no card at all: exit 1 with
/// the same words everywhere (`vcard inspect`, `list`, `search`, `compose`, …), after its diagnostics.
func nothingReadFailure(_ path: String, command: String) -> CLIError {
    CLIError.failure("\(command): \(ContactsCoreError.nothingRead(source: path))")
}

/// Shows the steps of opening a book as progress on stderr (a terminal), and prints its notes and
/// diagnostics there.
struct TerminalListingObserver: ListingObserver {
    func step<T>(_ label: String, after: Double?, progress: WorkProgress?, _ work: () throws -> T) rethrows -> T {
        try TerminalProgress.run(label, after: after, progress: progress, work)
    }
    func note(_ text: String) { printError("contacts: note: \(text)") }
    func diagnostic(_ text: String) { printError(terminalSafe(text)) }
}

/// `list`/`search` output (``ContactFormatter/writeListing(_:_:json:sources:to:)``), streamed to stdout.
func printListing(
    _ source: any ContactListing, _ result: SearchResult, json: Bool, sources: SourcedAddressBook? = nil
) throws {
    var out = Output()
    ContactFormatter.terminal.writeListing(source, result, json: json, sources: sources, to: &out)
    out.flush()
}

/// When a listing in `mode` lists no one but the other channel would reach some contacts (an email-only
/// book in messages mode, the default; a phones-only book in email mode), says so on stderr with the
/// `--mode` to use, and returns the note (nil when there is nothing to say).
@discardableResult
func noteOtherChannel(_ listing: any ContactListing, mode: SelectionMode) -> String? {
    guard listing.rowCount == 0, listing.otherChannelCount > 0 else { return nil }
    let n = listing.otherChannelCount
    let note: String
    switch mode {
    case .email:
        note =
            "no contact has an email address (--mode email); \(n) contact\(n == 1 ? " has a phone" : "s have phones")"
            + " for text messages: use --mode messages or --mode both"
    default:
        note =
            "no contact has a phone for text messages (--mode messages, the default); \(n) contact"
            + "\(n == 1 ? " has an email address" : "s have email addresses"): use --mode email or --mode both"
    }
    printError("contacts: note: " + note)
    return note
}

extension ContactFormatter {
    /// The tool's formatter: text for people made safe for a terminal.
    static let terminal = ContactFormatter(safe: { terminalSafe($0) })
}

extension Output: FormattedOutput {}
