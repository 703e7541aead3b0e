import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import Support
import TerminalUI

extension ListOptions {
    /// The list to answer from: the book opened by the library's one rule (`ListingCache.open`: its saved
    /// list when one is there and current, else the book read as a compact list, and a stale or unreadable
    /// saved list written again), its notes and diagnostics on stderr. Standard input and pipes are read as
    /// a compact list; the embedded sample as an address book.
    func listing(keywords: Bool = false) throws -> any ContactListing {
        if readsAsOneBook { return try sourcedListing(keywords: keywords).listing }
        // A group needs the whole book (its group cards and categories): a saved list does not keep them.
        guard let path = source, group == nil else { return try dataSource(keywords: keywords) }
        guard !isPipeInput(path) else { return try compactList(keywords: keywords) }
        try checkInputFile(path, command: "source")
        let opened: ListingCache.Opened
        do {
            opened = try ListingCache.standard().open(
                book: path, configuration: configuration(keywords: keywords),
                reading: { label, work in try TerminalProgress.run(label, work) })
        } catch {
            throw readFailure(error)
        }
        for note in opened.notes { printError("contacts: note: \(note)") }
        for diagnostic in opened.diagnostics { printError(terminalSafe(diagnostic)) }
        if let list = opened.listing as? CompactContactList, list.nothingRead {
            throw nothingReadFailure(path, command: "source")
        }
        return opened.listing
    }

    /// The error of reading the book at `source`, as the command reports it.
    func readFailure(_ error: any Error) -> CLIError {
        switch error {
        case let error as ContactsCoreError: return CLIError.failure("source: \(error)")
        case let error as CLIError: return error
        default: return CLIError.usage("cannot use locale '\(locale)': \(error)")
        }
    }

    /// Several sources, or a vdir folder: read as one address book (no compact list, no saved index).
    var readsAsOneBook: Bool {
        sources.count > 1 || sources.contains { if case .vdir = ContactSource(path: $0) { true } else { false } }
    }

    /// The list of several sources, or of a vdir folder (read as one book, ``SourcedAddressBook``), with the
    /// merged book when there are several; one file or stdin is ``listing(keywords:)``.
    func sourcedListing(keywords: Bool = false) throws -> (listing: any ContactListing, sources: SourcedAddressBook?) {
        guard readsAsOneBook else { return (try listing(keywords: keywords), nil) }
        let (book, merged) = try sourcedBook()
        return (try dataSource(book: book, keywords: keywords), merged)
    }

    /// The whole book of these options: the embedded sample without `--source`, one file, stdin or vdir
    /// folder as it is, several merged (with where each contact came from); diagnostics on stderr, and a
    /// failure when no card at all could be read.
    func sourcedBook() throws -> (book: AddressBook, sources: SourcedAddressBook?) { try readSources(sources) }

    /// The book at `source` (standard input for `-`; a pipe is read whole) read as a compact list, its
    /// diagnostics printed on stderr.
    func compactList(keywords: Bool = false) throws -> CompactContactList {
        guard let path = source else { throw CLIError.usage("--source: expected FILE.vcf") }
        let config = configuration(keywords: keywords)
        let list: CompactContactList
        do {
            if isPipeInput(path) {
                let data = try readInput(path, command: "source")
                let name = path == "-" ? "<stdin>" : path
                list = try TerminalProgress.run("reading \(name)") {
                    try CompactContactList(data: data, fileName: name, configuration: config)
                }
            } else {
                try checkInputFile(path, command: "source")
                list = try TerminalProgress.run("reading and sorting \(path)") {
                    try CompactContactList(contentsOfFile: path, configuration: config)
                }
            }
        } catch {
            throw readFailure(error)
        }
        for diagnostic in list.diagnostics { printError(terminalSafe(diagnostic.description)) }
        if list.nothingRead { throw nothingReadFailure(path, command: "source") }
        return list
    }
}

enum IndexBuildCommand: Command {
    static let name = "index build"
    static let summary = "Save an address book's list and search index for fast list/search"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads the address book, sorts, sections and indexes it as 'contacts list' and 'contacts search' do
            with the same options, and saves the result in the index folder. The next list or search of FILE
            with these options reads the saved index (memory-mapped) instead of the book, as long as the book is
            the same file (inode) with the same size, modification and status-change times and the same content
            (a hash of every byte); a stale or unreadable index is ignored and saved again, with a note on
            stderr. The index holds every name, email and phone of the book: it and its folder are readable by
            you only (0600 in 0700 folders).

            Index folder: CONTACTS_INDEX_DIR, else $XDG_CACHE_HOME/contacts/index, else ~/.cache/contacts/index.
            """,
        options: ListOptions.options.filter { !["--source", "--json", groupOption.name].contains($0.name) },
        arguments: [ArgumentSpec("FILE.vcf", help: "the address book", required: true, completion: .file)],
        examples: [
            "contacts index build contacts.vcf --locale de", "contacts search anna --source contacts.vcf --locale de",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let positionals = try args.positionals(max: 1, names: "one FILE.vcf")
        guard let path = positionals.first, path != "-" else {
            throw CLIError.usage("index build: expected the address book FILE.vcf")
        }
        if isPipeInput(path) {
            throw CLIError.usage(
                "index build: \(path) is a pipe or device, not a file: a saved index belongs to a file "
                    + "(its size, modification time and content); save the book to a file first")
        }
        try checkInputFile(path, command: name)
        let options = ListOptions(
            sources: [path], locales: commandLocales(try args.option("--locale")), region: try parseRegion(&args),
            mode: try parseMode(try args.option("--mode") ?? "messages"), skipUnnamed: args.flag("--skip-unnamed"),
            preferNicknames: args.flag(ListOptions.preferNicknamesFlag.name), json: false)
        let saved: (list: CompactContactList, path: String)
        do {
            saved = try ListingCache.standard().save(
                book: path, configuration: options.configuration(keywords: false),
                reading: { label, work in
                    // The book's problems first; a book without a card is not saved (nor its folder made).
                    let list = try TerminalProgress.run(label, work)
                    for diagnostic in list.diagnostics { printError(terminalSafe(diagnostic.description)) }
                    if list.nothingRead { throw nothingReadFailure(path, command: "source") }
                    return list
                },
                saving: { label, work in try TerminalProgress.run(label, work) })
        } catch let error as SavedListError {
            throw CLIError.failure("index build: \(error)")
        } catch let error as PrivateFilesError {
            throw CLIError.failure("index build: \(error)")
        } catch {
            throw options.readFailure(error)
        }
        let (source, indexPath) = saved
        print("\(indexPath): \(source.rowCount) contacts")
        _ = Unmanaged.passRetained(source)  // the process ends now: no teardown of every row
        return .ok
    }
}
