import ContactsCore
import Foundation
import Support

/// The folder of saved lists and the one rule for opening an address book as a listing: its saved list
/// (``SavedList``) when one is there and current, else the book read as a ``CompactContactList`` — and a
/// stale or unreadable saved list written again. A saved list belongs to its sources (a file, a vdir
/// folder, or several in order: by absolute path; ``BookIdentity/init(sources:)`` tells when they changed)
/// and one options key (``ContactsDataSource/savedListOptions(_:)``): locales, mode, name rules, phone region.
///
/// ```swift
/// let cache = ListingCache.standard()
/// let opened = try cache.open(book: "contacts.vcf", configuration: Configuration())
/// for note in opened.notes { print(note) }        // "…: the address book was modified; rebuilding it"
/// opened.listing.rowCount
/// ```
public struct ListingCache: Sendable {
    /// The folder the saved lists are in (created owner-only when a list is first saved).
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// The folder of the environment: `CONTACTS_INDEX_DIR`, else `$XDG_CACHE_HOME/contacts/index`, else
    /// `~/.cache/contacts/index`.
    ///
    /// ```swift
    /// ListingCache.standard(environment: ["XDG_CACHE_HOME": "/tmp/c"]).directory   // "/tmp/c/contacts/index"
    /// ```
    public static func standard(environment: [String: String] = ProcessInfoEnvironment.current) -> ListingCache {
        if let dir = environment["CONTACTS_INDEX_DIR"], !dir.isEmpty { return ListingCache(directory: dir) }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            return ListingCache(directory: cache + "/contacts/index")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return ListingCache(directory: home + "/.cache/contacts/index")
    }

    /// The saved list's file of the book at `book` (a vCard file or a vdir folder) listed with
    /// `configuration` (``path(sources:configuration:)``).
    public func path(book: String, configuration: Configuration) -> String {
        path(sources: [ContactSource(path: book)], configuration: configuration)
    }

    /// The saved list's file of the book read from `sources` with `configuration`: the first source's
    /// name (and `+N` for N more), then a hash of their absolute paths, in order, and the options key (the
    /// same in every run).
    public func path(sources: [ContactSource], configuration: Configuration) -> String {
        let absolute = sources.map { URL(fileURLWithPath: $0.description).standardizedFileURL.path }
        let options = ContactsDataSource.savedListOptions(configuration)
        let more = sources.count > 1 ? "+\(sources.count - 1)" : ""
        let name = ((absolute.first ?? "") as NSString).lastPathComponent + more
        let key = (absolute + [options]).joined(separator: "\u{0}")
        return directory + "/" + name + "-" + String(key.fnv1a64, radix: 16) + ".index"
    }

    /// Whether a saved list can answer for `configuration` with contacts filtered by `group`: not with a
    /// rule over whole contacts (``Configuration/contactEnabledValidation``, `--enable`) nor with a group
    /// (its group cards and categories), which a saved list does not keep — then the book is read whole.
    ///
    /// ```swift
    /// ListingCache.canServe(Configuration(), group: nil)      // true
    /// ListingCache.canServe(Configuration(), group: "Work")   // false
    /// ```
    public static func canServe(_ configuration: Configuration, group: String?) -> Bool {
        group == nil && configuration.contactEnabledValidation == nil
    }

    /// How ``open(sources:configuration:reading:)`` answered.
    public enum Origin: Sendable, Equatable {
        /// The saved list, current for the book and the options.
        case saved
        /// The book itself (no saved list, or the one there was stale or unreadable: then ``Opened/notes``
        /// say why, and it was written again).
        case read
    }

    /// A book opened as a listing.
    public struct Opened: Sendable {
        public let listing: any ContactListing
        public let origin: Origin
        /// The book's diagnostics (kept in a saved list, read from the book otherwise), as text.
        public let diagnostics: [String]
        /// What happened to the saved list on the way: stale and rebuilt, or could not be saved.
        public let notes: [String]
        /// Where the contacts of the listed rows are found when they are needed (composing, vCards, the
        /// values to choose from), by id: with a saved list of one file, each card read alone from where it
        /// begins; else (or when the file changed since) the sources read again.
        public let contacts: ContactLookup
        /// Where each contact came from, when several sources were read whole to say so (`namesSources`).
        public var sources: SourcedAddressBook? = nil
    }

    /// How a book is read when no saved list answers: given a label for the step, the progress the reading
    /// advances (bytes read, known for one file or one vdir folder) and the work, returns what the work
    /// returns; a front end shows the label and the progress while the work runs.
    public typealias Reading = (String, WorkProgress, () throws -> CompactContactList) throws -> CompactContactList

    /// Opens the book at `book` (a vCard file or a vdir folder) as a listing
    /// (``open(sources:configuration:reading:)``).
    public func open(
        book: String, configuration: Configuration,
        reading: Reading = { try $2() }
    ) throws -> Opened {
        try open(sources: [ContactSource(path: book)], configuration: configuration, reading: reading)
    }

    /// Opens the book read from `sources` (one vCard file, a vdir folder, or several merged as one book)
    /// as a listing for `configuration`: its saved list when current, else the book read as a compact list
    /// by `reading` (which may show progress; it is given a label and the work). A saved list that is stale
    /// or unreadable is noted and written again from what was read, unless the book changed while it was
    /// read. Throws what reading the book throws.
    public func open(
        sources: [ContactSource], configuration: Configuration,
        reading: Reading = { try $2() }
    ) throws -> Opened {
        let indexPath = path(sources: sources, configuration: configuration)
        let options = ContactsDataSource.savedListOptions(configuration)
        let lookup = ContactLookup.sources(sources)
        func read() throws -> CompactContactList {
            let progress = WorkProgress()
            return try reading("reading and sorting \(Self.names(sources))", progress) {
                try Self.read(sources, configuration, progress: progress)
            }
        }
        func opened(_ list: CompactContactList, notes: [String]) -> Opened {
            Opened(
                listing: list, origin: .read, diagnostics: list.diagnostics.map(\.description), notes: notes,
                contacts: lookup)
        }
        guard FileManager.default.fileExists(atPath: indexPath), let identity = try? BookIdentity(sources: sources)
        else {
            return opened(try read(), notes: [])
        }
        var notes: [String] = []
        do {
            let saved = try SavedList(path: indexPath, book: identity, options: options)
            var contacts = lookup
            if sources.count == 1, case .file(let file) = sources[0] {
                contacts = .cards(of: saved, file: file, identity: identity, fallback: lookup)
            }
            return Opened(
                listing: saved, origin: .saved, diagnostics: saved.diagnostics, notes: [], contacts: contacts)
        } catch {
            notes.append("\(error); rebuilding it")
        }
        let list = try read()
        // The book may have changed while it was read: save only what matches the identity read after.
        if !list.nothingRead, let after = try? BookIdentity(sources: sources), after == identity {
            do {
                try SavedList.write(
                    list, to: indexPath, book: identity, diagnostics: list.diagnostics.map(\.description))
            } catch {
                notes.append("could not save the index: \(error)")
            }
        }
        return opened(list, notes: notes)
    }

    /// Reads the book at `book` (a vCard file or a vdir folder) and saves its list
    /// (``save(sources:configuration:reading:saving:)``).
    public func save(
        book: String, configuration: Configuration,
        reading: Reading = { try $2() },
        saving: (String, () throws -> Void) throws -> Void = { try $1() }
    ) throws -> (list: CompactContactList, path: String) {
        try save(sources: [ContactSource(path: book)], configuration: configuration, reading: reading, saving: saving)
    }

    /// Reads the book of `sources` and saves its list for `configuration` (what `contacts index build`
    /// does), whether or not one is there; returns the list and the saved file's path. Throws when the
    /// book changed while it was read (nothing is then left saved). A book without a readable card is not
    /// saved (no folder is made for it): the list says so (`nothingRead`).
    public func save(
        sources: [ContactSource], configuration: Configuration,
        reading: Reading = { try $2() },
        saving: (String, () throws -> Void) throws -> Void = { try $1() }
    ) throws -> (list: CompactContactList, path: String) {
        let identity = try BookIdentity(sources: sources)
        let progress = WorkProgress()
        let list = try reading("reading and sorting \(Self.names(sources))", progress) {
            try Self.read(sources, configuration, progress: progress)
        }
        let indexPath = path(sources: sources, configuration: configuration)
        if list.nothingRead { return (list, indexPath) }  // no index of a book without a readable card
        try PrivateFiles.makeDirectories(directory)
        try saving("saving the index of \(list.rowCount) contacts") {
            try SavedList.write(list, to: indexPath, book: identity, diagnostics: list.diagnostics.map(\.description))
        }
        guard let after = try? BookIdentity(sources: sources), after == identity else {
            try? FileManager.default.removeItem(atPath: indexPath)
            throw SavedListError.changedWhileRead(path: Self.names(sources))
        }
        return (list, indexPath)
    }

    /// The sources as a progress line or a message names them.
    static func names(_ sources: [ContactSource]) -> String { sources.map(\.description).joined(separator: ", ") }

    /// The book of `sources` as a compact list: one file streamed (never held whole); a vdir folder or
    /// several sources read and merged as one book (`SourcedAddressBook`), then compacted. `progress`
    /// counts the bytes read of one file or one vdir folder; of several sources it stays unknown.
    static func read(_ sources: [ContactSource], _ configuration: Configuration, progress: WorkProgress)
        throws -> CompactContactList
    {
        if sources.count == 1, case .file(let path) = sources[0] {
            return try CompactContactList(contentsOfFile: path, configuration: configuration, progress: progress)
        }
        if sources.count == 1, case .vdir(let path) = sources[0] {
            // One source's book is that source's book (`SourcedAddressBook` merges only several).
            return try CompactContactList(book: VDir(path: path).read(progress: progress), configuration: configuration)
        }
        return try CompactContactList(book: SourcedAddressBook(reading: sources).book, configuration: configuration)
    }
}
