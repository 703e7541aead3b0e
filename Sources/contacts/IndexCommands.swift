import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import Support

/// Where saved lists live: `CONTACTS_INDEX_DIR`, else `$XDG_CACHE_HOME/contacts/index`, else
/// `~/.cache/contacts/index`. One file per address book (by absolute path) and list options.
enum SavedListStore {
    static var directory: String {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["CONTACTS_INDEX_DIR"], !dir.isEmpty { return dir }
        if let cache = env["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/contacts/index" }
        return NSHomeDirectory() + "/.cache/contacts/index"
    }

    /// The index file of `book` listed with `options`.
    static func path(book: String, options: String) -> String {
        let absolute = URL(fileURLWithPath: book).standardizedFileURL.path
        // A hash of path and options that is stable across runs.
        let name = (absolute as NSString).lastPathComponent
        return directory + "/" + name + "-" + String((absolute + "\u{0}" + options).fnv1a64, radix: 16) + ".index"
    }
}

extension ListOptions {
    /// The options key of a saved list for these options.
    var savedListOptions: String { ContactsDataSource.savedListOptions(configuration(keywords: false)) }

    /// The list to answer from: the saved list of the book when one is there and current, else the book
    /// itself, read as a compact list (and a stale or unreadable saved list is written again, with a note
    /// on stderr). The embedded sample is read as an address book.
    func listing(keywords: Bool = false) throws -> any ContactListing {
        if readsAsOneBook { return try sourcedListing(keywords: keywords).listing }
        guard let path = source else { return try dataSource(keywords: keywords) }
        guard !isPipeInput(path) else { return try compactList(keywords: keywords) }
        let indexPath = SavedListStore.path(book: path, options: savedListOptions)
        guard FileManager.default.fileExists(atPath: indexPath) else { return try compactList(keywords: keywords) }
        let identity: BookIdentity
        do { identity = try BookIdentity(path: path) } catch { return try compactList(keywords: keywords) }
        do {
            let saved = try SavedList(path: indexPath, book: identity, options: savedListOptions)
            for diagnostic in saved.diagnostics { printError(diagnostic) }
            return saved
        } catch {
            printError("contacts: note: \(error); rebuilding it")
        }
        let list = try compactList(keywords: keywords)
        // The book may have changed while it was read: save only what matches the identity read after.
        if let after = try? BookIdentity(path: path), after == identity {
            do {
                try SavedList.write(list, to: indexPath, book: identity, diagnostics: list.diagnostics.map { "\($0)" })
            } catch {
                printError("contacts: note: could not save the index: \(error)")
            }
        }
        return list
    }

    /// Several sources, or a vdir folder: read as one address book (no compact list, no saved index).
    var readsAsOneBook: Bool {
        sources.count > 1 || sources.contains { if case .vdir = ContactSource(path: $0) { true } else { false } }
    }

    /// The list of several sources, or of a vdir folder (read as one book, ``SourcedAddressBook``), with the
    /// merged book when there are several; one file or stdin is ``listing(keywords:)``.
    func sourcedListing(keywords: Bool = false) throws -> (listing: any ContactListing, sources: SourcedAddressBook?) {
        guard readsAsOneBook else { return (try listing(keywords: keywords), nil) }
        var parts: [(source: ContactSource, book: AddressBook)] = []
        for path in sources {
            parts.append((ContactSource(path: path), try readBook(path, command: "source")))
        }
        let merged = SourcedAddressBook(parts)
        for diagnostic in merged.book.diagnostics { printError(terminalSafe(diagnostic.description)) }
        if merged.book.nothingRead { throw nothingReadFailure(sources.joined(separator: ", "), command: "source") }
        return (try dataSource(book: merged.book, keywords: keywords), sources.count > 1 ? merged : nil)
    }

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
        } catch let error as ContactsCoreError {
            throw CLIError.failure("source: \(error)")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.usage("cannot use locale '\(locale)': \(error)")
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
        options: ListOptions.options.filter { $0.name != "--source" && $0.name != "--json" },
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
        let identity: BookIdentity
        do { identity = try BookIdentity(path: path) } catch { throw CLIError.failure("\(error)") }
        let source = try options.compactList()
        let indexPath = SavedListStore.path(book: path, options: options.savedListOptions)
        do {
            try PrivateFiles.makeDirectories((indexPath as NSString).deletingLastPathComponent)
            try TerminalProgress.run("saving the index of \(source.rowCount) contacts") {
                try SavedList.write(
                    source, to: indexPath, book: identity, diagnostics: source.diagnostics.map { "\($0)" })
            }
        } catch {
            throw CLIError.failure("index build: \(error)")
        }
        guard let after = try? BookIdentity(path: path), after == identity else {
            try? FileManager.default.removeItem(atPath: indexPath)
            throw CLIError.failure("index build: \(path) changed while it was read; run again")
        }
        print("\(indexPath): \(source.rowCount) contacts")
        _ = Unmanaged.passRetained(source)  // the process ends now: no teardown of every row
        return .ok
    }
}
