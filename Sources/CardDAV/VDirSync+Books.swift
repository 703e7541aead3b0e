import Foundation
import Support

/// What ``VDirSync/syncAll(client:into:readOnly:prune:)`` did.
public struct BooksSyncSummary: Sendable {
    /// One address book's sync.
    public struct Book: Sendable {
        /// The book's folder name (its last path segment, made safe) and path.
        public var name: String
        public var folder: String
        /// What the sync did, or why it failed (the other books were synced all the same).
        public var summary: SyncSummary?
        public var error: String?
        public var notes: [String]
    }

    public var books: [Book] = []
    /// Folders synced before whose address book is no longer on the server: kept, unless pruned.
    public var gone: [String] = []
    /// Such folders removed (`prune`).
    public var pruned: [String] = []
}

extension VDirSync {
    /// Syncs every address book the account leads to, each into `parent/<book>/` (the last segment of its
    /// URL, made safe by `SafeFileName`), like vdirsyncer's pairs with `collections = ["from b"]`: books new
    /// on the server are picked up; a folder whose book is gone is reported and removed only with `prune`.
    /// A book that fails is named and the others are synced; a refused password or a lost connection stops
    /// all.
    ///
    /// ```swift no-compile
    /// let all = try VDirSync.syncAll(client: client, into: "contacts")
    /// for book in all.books { print(book.name, book.summary?.pulled ?? 0) }
    /// ```
    public static func syncAll(
        client: CardDAVClient, into parent: String, readOnly: Bool = false, prune: Bool = false
    ) throws -> BooksSyncSummary {
        let books = try client.addressBooks().sorted { $0.url < $1.url }
        var result = BooksSyncSummary()
        var names: Set<String> = []
        for book in books {
            let last = book.url.split(separator: "/").last.map(String.init) ?? "book"
            let segment = CardDAVClient.percentDecoded(last)
            var name = SafeFileName.make(segment)
            var n = 2
            while names.contains(name) {
                name = SafeFileName.make(segment, suffix: "-\(n)")
                n += 1
            }
            names.insert(name)
            let sync = VDirSync(client: client, folder: parent + "/" + name)
            sync.readOnly = readOnly
            var outcome = BooksSyncSummary.Book(name: name, folder: sync.folder, notes: [])
            do {
                outcome.summary = try sync.run(bookName: segment, known: book)
            } catch let error as CardDAVError {
                switch error {
                case .authenticationFailed, .transfer: throw error
                default: outcome.error = "\(error)"
                }
            }
            outcome.notes = sync.notes
            result.books.append(outcome)
        }
        let listed = Set(books.map(\.url))
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for entry in entries.sorted() where !names.contains(entry) {
            let folder = parent + "/" + entry
            guard let state = try? SyncState.load(folder), !state.collection.isEmpty,
                state.sourceURL == client.account.url, !listed.contains(state.collection)
            else { continue }
            if prune {
                do { try FileManager.default.removeItem(atPath: folder) } catch {
                    throw CardDAVError.local(path: folder, message: "cannot be removed: \(error.localizedDescription)")
                }
                result.pruned.append(folder)
            } else {
                result.gone.append(folder)
            }
        }
        return result
    }
}
