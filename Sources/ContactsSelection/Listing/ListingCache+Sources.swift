import ContactsCore
import Foundation
import Support

extension ListingCache {
    /// Opens the sources a command names as one listing — the one front door of `list`, `search`, `query`,
    /// `pick` and every command that lists a book. `paths`: vCard files, `-` for standard input, vdir
    /// folders, several read as one book; none: the embedded sample. The rule: a file, a vdir folder or
    /// several sources are opened through this cache (``open(sources:configuration:reading:)``: the saved
    /// list when current); a stream (standard input, a pipe) is read as a compact list, unless the caller
    /// `needsContacts` (their cards, not only the rows); the sample, a `group`, a rule over whole contacts
    /// (``canServe(_:group:)``) and, with `namesSources`, several sources (each row then names its source,
    /// which a saved list does not keep) read the book whole (``readBook(_:observer:)``).
    ///
    /// The `observer` runs the long steps (the cache's reading shown after `progressAfter` seconds) and
    /// hears the notes and the book's diagnostics. Throws `ContactsCoreError` when a source cannot be read
    /// (`ContactsCoreError.nothingRead(source:)` when no card at all could be), ``GroupError`` for an
    /// unknown group and ``SelectionError/unusableLocale(locale:reason:)`` when the list cannot be made.
    ///
    /// ```swift
    /// let opened = try ListingCache.standard().open(paths: ["contacts.vcf"], configuration: Configuration())
    /// let result = opened.listing.search("ann", keywords: nil, refining: nil)
    /// ```
    public func open(
        paths: [String], configuration: Configuration, group: String? = nil, needsContacts: Bool = false,
        namesSources: Bool = false, progressAfter: Double? = nil,
        observer: some ListingObserver = SilentListingObserver()
    ) throws -> Opened {
        func whole() throws -> Opened {
            let (book, sourced) = try Self.readBook(paths, observer: observer)
            let source = try Self.dataSource(book, configuration: configuration, group: group, observer: observer)
            return Opened(
                listing: source, origin: .read, diagnostics: [], notes: [], contacts: .dataSource(source),
                sources: sourced)
        }
        if namesSources, paths.count > 1 { return try whole() }
        guard !paths.isEmpty, Self.canServe(configuration, group: group) else { return try whole() }
        if paths.contains(where: ContactSource.isStream) {
            guard paths.count == 1, !needsContacts else { return try whole() }
            return try Self.streamed(paths[0], configuration: configuration, observer: observer)
        }
        for path in paths {
            if case .file = ContactSource(path: path) { try ContactSource.checkFile(path) }
        }
        let opened = try Self.making(configuration) {
            try open(
                sources: paths.map(ContactSource.init(path:)), configuration: configuration,
                reading: { label, progress, work in
                    try observer.step(label, after: progressAfter, progress: progress, work)
                })
        }
        for note in opened.notes { observer.note(note) }
        for diagnostic in opened.diagnostics { observer.diagnostic(diagnostic) }
        if let list = opened.listing as? CompactContactList, list.nothingRead {
            throw ContactsCoreError.nothingRead(source: paths.joined(separator: ", "))
        }
        return opened
    }

    /// The whole book of `paths` (as ``open(paths:configuration:group:needsContacts:namesSources:progressAfter:observer:)``
    /// names them): the embedded sample for none, one file, stream or vdir folder as it is, several merged
    /// with where each contact came from. Its diagnostics go to `observer`; a book of which no card at all
    /// could be read throws `ContactsCoreError.nothingRead(source:)`.
    ///
    /// ```swift
    /// let (book, sources) = try ListingCache.readBook(["work.vcf", "friends"])
    /// ```
    public static func readBook(_ paths: [String], observer: some ListingObserver = SilentListingObserver())
        throws -> (book: AddressBook, sources: SourcedAddressBook?)
    {
        guard paths.count > 1 else {
            guard let path = paths.first else {
                do { return (try AddressBook.sample(), nil) } catch {
                    throw SelectionError.sampleUnavailable(reason: "\(error)")
                }
            }
            let book = try readSource(path, observer: observer)
            for diagnostic in book.diagnostics { observer.diagnostic(diagnostic.description) }
            if book.nothingRead { throw ContactsCoreError.nothingRead(source: path) }
            return (book, nil)
        }
        var parts: [(source: ContactSource, book: AddressBook)] = []
        for path in paths {
            parts.append((ContactSource(path: path), try readSource(path, observer: observer)))
        }
        let merged = SourcedAddressBook(parts)
        for diagnostic in merged.book.diagnostics { observer.diagnostic(diagnostic.description) }
        if merged.book.nothingRead { throw ContactsCoreError.nothingRead(source: paths.joined(separator: ", ")) }
        return (merged.book, merged)
    }

    /// The book at `path` (a vCard file, `-` for standard input, a pipe, a vdir folder) as it is, read as
    /// a step of `observer`; its diagnostics are the caller's to report.
    ///
    /// ```swift
    /// let book = try ListingCache.readSource("contacts.vcf")
    /// ```
    public static func readSource(_ path: String, observer: some ListingObserver = SilentListingObserver())
        throws -> AddressBook
    {
        if case .vdir(let folder) = ContactSource(path: path) {
            return try observer.step("reading \(folder)", after: nil, progress: nil) { try VDir(path: folder).read() }
        }
        let name = path == "-" ? "<stdin>" : path
        return try observer.step("reading \(name)", after: nil, progress: nil) {
            AddressBook(data: try ContactSource.wholeInput(path), fileName: name)
        }
    }

    /// The list of `book`'s contacts in `group` (all without one) for `configuration`, sorted and indexed as
    /// a step of `observer`. Throws ``GroupError`` for an unknown group and
    /// ``SelectionError/unusableLocale(locale:reason:)`` when the list cannot be made.
    ///
    /// ```swift
    /// let list = try ListingCache.dataSource(AddressBook.sample(), configuration: Configuration(), group: nil)
    /// ```
    public static func dataSource(
        _ book: AddressBook, configuration: Configuration, group: String?,
        observer: some ListingObserver = SilentListingObserver()
    ) throws -> ContactsDataSource {
        let contacts = try members(of: book, group: group)
        return try making(configuration) {
            try observer.step("sorting and indexing \(contacts.count) contacts", after: nil, progress: nil) {
                try ContactsDataSource(contacts: contacts, configuration: configuration)
            }
        }
    }

    /// The contacts of `book` in the group called `name` (all of them for nil); an unknown group throws
    /// ``GroupError/unknownGroup(name:known:)``, naming the groups the book has.
    ///
    /// ```swift
    /// let work = try ListingCache.members(of: AddressBook.sample(), group: nil)
    /// ```
    public static func members(of book: AddressBook, group name: String?) throws -> [Contact] {
        guard let name else { return book.contacts }
        return try GroupFilter(name: name, in: book).filter(book.contacts)
    }

    /// The book at the stream `path` read as a compact list (its rows only: no contacts to look up).
    static func streamed(_ path: String, configuration: Configuration, observer: some ListingObserver) throws
        -> Opened
    {
        let data = try ContactSource.wholeInput(path)
        let name = path == "-" ? "<stdin>" : path
        let list = try making(configuration) {
            try observer.step("reading \(name)", after: nil, progress: nil) {
                try CompactContactList(data: data, fileName: name, configuration: configuration)
            }
        }
        for diagnostic in list.diagnostics { observer.diagnostic(diagnostic.description) }
        if list.nothingRead { throw ContactsCoreError.nothingRead(source: path) }
        return Opened(
            listing: list, origin: .read, diagnostics: list.diagnostics.map(\.description), notes: [],
            contacts: .unavailable)
    }

    /// Runs `work`, which makes a list for `configuration`: what reading throws (`ContactsCoreError`) as it
    /// is, anything else (the collation, the list's options) as ``SelectionError/unusableLocale(locale:reason:)``.
    static func making<T>(_ configuration: Configuration, _ work: () throws -> T) throws -> T {
        do { return try work() } catch let error as ContactsCoreError { throw error } catch let error as GroupError {
            throw error
        } catch {
            throw SelectionError.unusableLocale(locale: configuration.locale, reason: "\(error)")
        }
    }
}
