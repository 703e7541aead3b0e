import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import Support
import TerminalUI

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
        } catch let error as ContactsCoreError {
            throw CLIError.failure("source: \(error)")
        } catch {
            throw CLIError.usage("\(SelectionError.unusableLocale(locale: options.locale, reason: "\(error)"))")
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
