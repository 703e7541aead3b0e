import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import Support
import TerminalUI

extension ListOptions {
    /// The list to answer from: the book opened by the library's one rule (`ListingCache.open`: its saved
    /// list when one is there and current, else the book read as a compact list, and a stale or unreadable
    /// saved list written again), its notes and diagnostics on stderr. A file, a vdir folder and several
    /// sources are opened so; standard input and pipes are read as a compact list; the embedded sample and
    /// a `--group` (which needs the whole book) as an address book.
    func listing(keywords: Bool = false) throws -> any ContactListing {
        try openedListing(keywords: keywords).listing
    }

    /// ``listing(keywords:)`` with where the contacts of its rows are found when they are needed (the
    /// sources read again by id, or the contacts in memory). `progressAfter`: seconds before the progress
    /// of reading the book shows (0 for at once; nil for the usual delay).
    func openedListing(keywords: Bool = false, config: Configuration? = nil, progressAfter: Double? = nil) throws
        -> (listing: any ContactListing, contacts: ContactLookup)
    {
        func whole() throws -> (listing: any ContactListing, contacts: ContactLookup) {
            let source = try dataSource(book: try sourcedBook().book, keywords: keywords, config: config)
            return (source, .dataSource(source))
        }
        let configuration = config ?? configuration(keywords: keywords)
        guard !sources.isEmpty, ListingCache.canServe(configuration, group: group) else { return try whole() }
        if sources.contains(where: isPipeInput) {
            guard source != nil, config == nil else { return try whole() }
            return (try compactList(keywords: keywords), .unavailable)
        }
        for path in sources {
            if case .file = ContactSource(path: path) { try checkInputFile(path, command: "source") }
        }
        let opened: ListingCache.Opened
        do {
            opened = try ListingCache.standard().open(
                sources: sources.map(ContactSource.init(path:)), configuration: configuration,
                reading: { label, progress, work in
                    try TerminalProgress.run(label, after: progressAfter, progress: progress, work)
                })
        } catch {
            throw readFailure(error)
        }
        for note in opened.notes { printError("contacts: note: \(note)") }
        for diagnostic in opened.diagnostics { printError(terminalSafe(diagnostic)) }
        if let list = opened.listing as? CompactContactList, list.nothingRead {
            throw nothingReadFailure(sources.joined(separator: ", "), command: "source")
        }
        return (opened.listing, opened.contacts)
    }

    /// The error of reading the book at `source`, as the command reports it.
    func readFailure(_ error: any Error) -> CLIError {
        switch error {
        case let error as ContactsCoreError: return CLIError.failure("source: \(error)")
        case let error as CLIError: return error
        default: return CLIError.usage("cannot use locale '\(locale)': \(error)")
        }
    }

    /// The list of the sources with, for several in `--json`, the merged book (each row then names its
    /// source, which a saved list does not keep: the book is read whole); else ``listing(keywords:)``.
    func sourcedListing(keywords: Bool = false) throws -> (listing: any ContactListing, sources: SourcedAddressBook?) {
        guard json, sources.count > 1 else { return (try listing(keywords: keywords), nil) }
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
    static let summary = "Save an address book's list and search index for fast list/search/pick"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads the address book, sorts, sections and indexes it as 'contacts list' and 'contacts search' do
            with the same options, and saves the result in the index folder. The next list, search or pick of
            the book with these options reads the saved index (memory-mapped) instead of the book, as long as
            the book is the same: the same file (inode) with the same size, modification and status-change
            times and the same content (a hash of every byte). A vdir folder's index is of every .vcf in it (a
            file added, changed or removed makes it stale); several books given together are indexed as the
            one book that the same --source options, in the same order, read. A stale or unreadable index is
            ignored and saved again, with a note on stderr. The index holds every name, email and phone of the
            book: it and its folder are readable by you only (0600 in 0700 folders).

            Index folder: CONTACTS_INDEX_DIR, else $XDG_CACHE_HOME/contacts/index, else ~/.cache/contacts/index.
            """,
        options: ListOptions.options.filter { !["--source", "--json", groupOption.name].contains($0.name) },
        arguments: [
            ArgumentSpec(
                "FILE.vcf|DIR", help: "the address book: a vCard file, a vdir folder, or several as one",
                required: true, repeated: true, completion: .file)
        ],
        examples: [
            "contacts index build contacts.vcf --locale de", "contacts search anna --source contacts.vcf --locale de",
            "contacts index build family work.vcf  # then: list, search or pick --source family --source work.vcf",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let paths = try args.positionals(max: Int.max, names: "FILE.vcf or DIR")
        guard !paths.isEmpty, !paths.contains("-") else {
            throw CLIError.usage("index build: expected the address book FILE.vcf or DIR")
        }
        for path in paths {
            if isPipeInput(path) {
                throw CLIError.usage(
                    "index build: \(path) is a pipe or device, not a file: a saved index belongs to a file "
                        + "(its size, modification time and content); save the book to a file first")
            }
            if case .file = ContactSource(path: path) { try checkInputFile(path, command: name) }
        }
        let options = ListOptions(
            sources: paths, locales: commandLocales(try args.option("--locale")), region: try parseRegion(&args),
            mode: try parseMode(try args.option("--mode") ?? "messages"), skipUnnamed: args.flag("--skip-unnamed"),
            preferNicknames: args.flag(ListOptions.preferNicknamesFlag.name), json: false)
        let saved: (list: CompactContactList, path: String)
        do {
            saved = try ListingCache.standard().save(
                sources: paths.map(ContactSource.init(path:)), configuration: options.configuration(keywords: false),
                reading: { label, progress, work in
                    try TerminalProgress.run(label, after: nil, progress: progress, work)
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
        for diagnostic in source.diagnostics { printError(terminalSafe(diagnostic.description)) }
        // The library saves no index of a book without a readable card (nor makes its folder).
        if source.nothingRead { throw nothingReadFailure(paths.joined(separator: ", "), command: "source") }
        print("\(indexPath): \(source.rowCount) contacts")
        noteOtherChannel(source, mode: options.mode)
        _ = Unmanaged.passRetained(source)  // the process ends now: no teardown of every row
        return .ok
    }
}
