import ContactsCore
import Foundation
import Support

/// The folder of saved lists and the one rule for opening an address book as a listing: its saved list
/// (``SavedList``) when one is there and current, else the book read as a ``CompactContactList`` — and a
/// stale or unreadable saved list written again. A saved list belongs to one file (by absolute path) and
/// one options key (``ContactsDataSource/savedListOptions(_:)``): locales, mode, name rules, phone region.
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

    /// The saved list's file of the book at `book` listed with `configuration`: the book's file name, then a
    /// hash of its absolute path and the options key (the same in every run).
    public func path(book: String, configuration: Configuration) -> String {
        let absolute = URL(fileURLWithPath: book).standardizedFileURL.path
        let options = ContactsDataSource.savedListOptions(configuration)
        let name = (absolute as NSString).lastPathComponent
        return directory + "/" + name + "-" + String((absolute + "\u{0}" + options).fnv1a64, radix: 16) + ".index"
    }

    /// How ``open(book:configuration:reading:)`` answered.
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
    }

    /// Opens the vCard file at `book` as a listing for `configuration`: its saved list when current, else
    /// the file read as a compact list by `reading` (which may show progress; it is given a label and the
    /// work). A saved list that is stale or unreadable is noted and written again from what was read, unless
    /// the book changed while it was read. Throws what reading the book throws.
    public func open(
        book: String, configuration: Configuration,
        reading: (String, () throws -> CompactContactList) throws -> CompactContactList = { try $1() }
    ) throws -> Opened {
        let indexPath = path(book: book, configuration: configuration)
        let options = ContactsDataSource.savedListOptions(configuration)
        func read() throws -> CompactContactList {
            try reading("reading and sorting \(book)") {
                try CompactContactList(contentsOfFile: book, configuration: configuration)
            }
        }
        func opened(_ list: CompactContactList, notes: [String]) -> Opened {
            Opened(listing: list, origin: .read, diagnostics: list.diagnostics.map(\.description), notes: notes)
        }
        guard FileManager.default.fileExists(atPath: indexPath), let identity = try? BookIdentity(path: book) else {
            return opened(try read(), notes: [])
        }
        var notes: [String] = []
        do {
            let saved = try SavedList(path: indexPath, book: identity, options: options)
            return Opened(listing: saved, origin: .saved, diagnostics: saved.diagnostics, notes: [])
        } catch {
            notes.append("\(error); rebuilding it")
        }
        let list = try read()
        // The book may have changed while it was read: save only what matches the identity read after.
        if let after = try? BookIdentity(path: book), after == identity {
            do {
                try SavedList.write(
                    list, to: indexPath, book: identity, diagnostics: list.diagnostics.map(\.description))
            } catch {
                notes.append("could not save the index: \(error)")
            }
        }
        return opened(list, notes: notes)
    }

    /// Reads the vCard file at `book` and saves its list for `configuration` (what `contacts index build`
    /// does), whether or not one is there; returns the list and the saved file's path. Throws when the
    /// book changed while it was read (nothing is then left saved).
    public func save(
        book: String, configuration: Configuration,
        reading: (String, () throws -> CompactContactList) throws -> CompactContactList = { try $1() },
        saving: (String, () throws -> Void) throws -> Void = { try $1() }
    ) throws -> (list: CompactContactList, path: String) {
        let identity = try BookIdentity(path: book)
        let list = try reading("reading and sorting \(book)") {
            try CompactContactList(contentsOfFile: book, configuration: configuration)
        }
        let indexPath = path(book: book, configuration: configuration)
        try PrivateFiles.makeDirectories(directory)
        try saving("saving the index of \(list.rowCount) contacts") {
            try SavedList.write(list, to: indexPath, book: identity, diagnostics: list.diagnostics.map(\.description))
        }
        guard let after = try? BookIdentity(path: book), after == identity else {
            try? FileManager.default.removeItem(atPath: indexPath)
            throw SavedListError.changedWhileRead(path: book)
        }
        return (list, indexPath)
    }
}
