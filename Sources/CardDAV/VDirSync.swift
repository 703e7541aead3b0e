import ContactsCore
import Foundation
import ICUKit
import Support

/// What one sync did.
public struct SyncSummary: Sendable, Hashable {
    public var collection = ""
    /// Files written or removed from the server's side.
    public var pulled = 0
    public var removedLocally = 0
    /// Members written or removed on the server from the local side.
    public var pushed = 0
    public var removedOnServer = 0
    /// Cards changed on both sides in different properties, merged.
    public var merged = 0
    /// New conflicts (the server's version in place, the local one kept).
    public var conflicts: [SyncConflict] = []
    /// The stored sync-token was refused: everything was listed again.
    public var fullResync = false
    /// HTTP requests made.
    public var requests = 0
}

/// Two-way sync of one CardDAV address book with a vdir folder. Local adds, edits and deletes are pushed
/// with `If-None-Match: *` / `If-Match`; a member changed on both sides is merged property by property
/// against the last synced version (`CardMerge`); the same property changed on both sides keeps the
/// server's version in the file and the local one in `DIR/.contacts-sync/conflicts/`. Local files are
/// written atomically and the state last, so a sync stopped at any point (even by `kill -9`) converges on
/// the next one without a duplicate or a loss: a push that reached the server before the stop comes back
/// as a member equal to the local file.
///
/// ```swift no-compile
/// let client = try CardDAVClient(account: CardDAVAccount(url: "https://dav.example.org/", user: "ada", password: pw))
/// let summary = try VDirSync(client: client, folder: "contacts/family").run(bookName: nil)
/// ```
public final class VDirSync {
    public let client: CardDAVClient
    public let folder: String
    /// Notes for the user (an interrupted sync resumed), one line each.
    public var notes: [String] = []

    private var state = SyncState()
    private var summary = SyncSummary()
    /// The files of the folder this sync wrote or removed (made durable before the state is saved).
    private var writtenPaths: [String] = []

    public init(client: CardDAVClient, folder: String) {
        self.client = client
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// The conflicts of `folder` whose kept copy is still there (removing the copy settles one).
    public static func conflicts(in folder: String) throws -> [SyncConflict] {
        try SyncState.load(folder).conflicts.filter { FileManager.default.fileExists(atPath: $0.copy) }
    }

    /// The address book to sync: the one the URL leads to, or the one named `bookName` (display name or last
    /// path segment) among several.
    func chooseCollection(bookName: String?) throws -> AddressBookCollection {
        let books = try client.addressBooks()
        if let bookName {
            let match = books.first {
                $0.displayName == bookName || $0.url.split(separator: "/").last.map(String.init) == bookName
            }
            guard let match else {
                throw CardDAVError.addressBook(
                    "no address book named '\(bookName)' (found: \(books.map(Self.label).joined(separator: ", ")))")
            }
            return match
        }
        guard books.count == 1 else {
            throw CardDAVError.addressBook(
                books.isEmpty
                    ? "no address book found at \(client.account.url)"
                    : "several address books: choose one with --book NAME (\(books.map(Self.label).joined(separator: ", ")))"
            )
        }
        return books[0]
    }

    static func label(_ b: AddressBookCollection) -> String {
        (b.url.split(separator: "/").last.map(String.init) ?? b.url) + (b.displayName.map { " \"\($0)\"" } ?? "")
    }

    /// Runs one sync and returns what it did.
    public func run(bookName: String?) throws -> SyncSummary {
        state = try SyncState.load(folder)
        summary = SyncSummary()
        writtenPaths = []
        var metadata: [(String, String?)] = []
        if let journal = FileManager.default.contents(atPath: SyncState.journal(folder)), !journal.isEmpty {
            let pending = String(decoding: journal, as: UTF8.self).split(separator: "\n").count
            notes.append("resuming after an interrupted sync (\(pending) push\(pending == 1 ? "" : "es") under way)")
        }
        if state.collection.isEmpty || state.sourceURL != client.account.url || state.bookName != bookName {
            let collection = try chooseCollection(bookName: bookName)
            if !state.collection.isEmpty && state.collection != collection.url {
                throw CardDAVError.local(
                    path: folder,
                    message: "this folder is synced with \(state.collection), not \(collection.url); use another folder"
                )
            }
            state.sourceURL = client.account.url
            state.bookName = bookName
            state.collection = collection.url
            state.supportsSyncCollection = collection.supportsSyncCollection
            metadata = [("displayname", collection.displayName), ("color", collection.color)]
        }
        summary.collection = state.collection
        try local { try PrivateFiles.makeDirectories(folder) }
        for (name, value) in metadata { try writeMetadata(name, value) }
        let loaded = state
        try syncOnce()
        // Files written here are made durable before the state that names them; a sync that
        // changed nothing writes nothing (no flush, no state rewrite).
        if !writtenPaths.isEmpty { AtomicFiles.makeDurable(writtenPaths, in: folder) }
        if state != loaded || !FileManager.default.fileExists(atPath: SyncState.path(folder)) {
            try state.save(folder, previous: loaded)
        }
        try? FileManager.default.removeItem(atPath: SyncState.journal(folder))
        summary.requests = client.requestCount
        return summary
    }

    // MARK: The sync

    private func syncOnce() throws {
        let collection = state.collection
        // 1. What the server changed.
        var serverChanged: [String: String] = [:]
        var serverRemoved: Set<String> = []
        var listedAll = false
        var prefetched: [String: (etag: String, card: [UInt8])]?
        if state.syncToken == nil && state.items.isEmpty {
            // A first sync: the token first (changes after it come next time), then every card in one query.
            if state.supportsSyncCollection {
                state.syncToken = try client.syncToken(collection) ?? client.changes(collection, since: nil).token
            }
            let all = try client.allCards(collection)
            prefetched = all
            serverChanged = all.mapValues(\.etag)
            listedAll = true
        } else if state.supportsSyncCollection {
            do {
                let r = try client.changes(collection, since: state.syncToken)
                (serverChanged, serverRemoved, state.syncToken) = (r.changed, r.removed, r.token)
                listedAll = state.syncToken == nil
            } catch is SyncTokenInvalid {
                summary.fullResync = true
                let r = try client.changes(collection, since: nil)
                (serverChanged, serverRemoved, state.syncToken) = (r.changed, [], r.token)
                listedAll = true
            }
        } else {
            serverChanged = try client.etags(collection)
            listedAll = true
        }
        var fileByHref: [String: String] = [:]
        for (file, item) in state.items { fileByHref[Self.key(item.href)] = file }
        if listedAll {
            let listed = Set(serverChanged.keys.map(Self.key))
            for item in state.items.values where !listed.contains(Self.key(item.href)) {
                serverRemoved.insert(item.href)
            }
        }
        // Our own pushes come back with the ETag we stored: not a change.
        serverChanged = serverChanged.filter { href, etag in
            fileByHref[Self.key(href)].flatMap { state.items[$0]?.etag } != etag
        }

        // 2. What changed here.
        // Every file is read (on all cores): a local edit is found by its bytes, whatever its times say.
        let names = try reading { try VDir(path: folder).cardFileNames() }
        let paths = names.map { folder + "/" + $0 }
        let contents = ParallelWork.map(count: paths.count) { k in
            FileManager.default.contents(atPath: paths[k]).map { [UInt8]($0) }
        }
        var localBytes: [String: [UInt8]] = [:]
        localBytes.reserveCapacity(names.count)
        for (name, bytes) in zip(names, contents) { localBytes[name] = bytes }
        func changedLocally(_ file: String) -> Bool {
            guard let item = state.items[file], let bytes = localBytes[file] else { return false }
            return SyncState.hash(bytes) != item.hash
        }
        var handled: Set<String> = []
        var taken = Set(localBytes.keys).union(state.items.keys)
        // The files not synced yet, by UID (a first sync of a vdir another tool filled: no duplicate).
        var untrackedByUID: [String: String] = [:]
        if !serverChanged.isEmpty {
            for (name, bytes) in localBytes where state.items[name] == nil {
                guard let id = AddressBook(data: Data(bytes), fileName: name).contacts.first?.id,
                    untrackedByUID[id] == nil
                else { continue }
                untrackedByUID[id] = name
            }
        }

        // 3. Server changes in.
        var fetched: [String: (etag: String, card: [UInt8])] = [:]
        for (href, value) in try prefetched ?? client.cards(collection, hrefs: serverChanged.keys.sorted()) {
            fetched[Self.key(href)] = value
        }
        for href in serverChanged.keys.sorted() {
            guard let (etag, card) = fetched[Self.key(href)] else { continue }
            if let file = fileByHref[Self.key(href)] {
                handled.insert(file)
                if localBytes[file] == nil {
                    // Deleted here, changed there: the change wins (nothing is lost).
                    try writeFile(file, card)
                    record(file, href: href, etag: etag, card: card, written: card)
                    summary.pulled += 1
                } else if changedLocally(file) {
                    try reconcile(file, href: href, etag: etag, server: card, base: base(of: file))
                } else {
                    try writeFile(file, card)
                    record(file, href: href, etag: etag, card: card, written: card)
                    summary.pulled += 1
                }
            } else {
                let uid =
                    untrackedByUID.isEmpty ? nil : AddressBook(data: Data(card), fileName: "card").contacts.first?.id
                let file: String
                if let uid, let match = untrackedByUID.removeValue(forKey: uid) {
                    file = match
                } else {
                    file = newFileName(for: href, card: card, taken: taken)
                    taken.insert(file)
                }
                if let mine = localBytes[file], state.items[file] == nil {
                    // A local file not synced yet with the same UID or name: a push an interrupted sync made, or
                    // a vdir another tool (vdirsyncer) filled from this server: the file keeps its name.
                    handled.insert(file)
                    let outcome = CardMerge.merge(base: nil, local: mine, server: card)
                    if outcome.conflicts.isEmpty && outcome.card == card {
                        record(file, href: href, etag: etag, card: card, written: mine)
                    } else {
                        try reconcile(file, href: href, etag: etag, server: card, base: nil)
                    }
                } else {
                    try writeFile(file, card)
                    record(file, href: href, etag: etag, card: card, written: card)
                    localBytes[file] = card
                    handled.insert(file)
                    summary.pulled += 1
                }
            }
        }
        for href in serverRemoved.sorted() {
            guard let file = fileByHref[Self.key(href)], !handled.contains(file) else { continue }
            handled.insert(file)
            if changedLocally(file) {
                // Changed here, deleted there: the change wins, pushed again as new.
                state.items[file] = nil
                try pushNew(file, localBytes[file]!)
            } else {
                if localBytes[file] != nil {
                    try local { try AtomicFiles.remove(folder + "/" + file) }
                    summary.removedLocally += 1
                }
                state.items[file] = nil
            }
        }

        // 4. Local changes out.
        for file in state.items.keys.sorted() where !handled.contains(file) {
            guard let item = state.items[file] else { continue }
            if let bytes = localBytes[file] {
                guard SyncState.hash(bytes) != item.hash else { continue }
                try journal("PUT \(file)")
                switch try client.put(item.href, card: bytes, etag: item.etag) {
                case .done(let etag):
                    record(file, href: item.href, etag: etag ?? "", card: bytes, written: bytes)
                    summary.pushed += 1
                case .changedMeanwhile:
                    try refetchAndReconcile(file, href: item.href, base: base(of: file))
                }
            } else {
                try journal("DELETE \(file)")
                switch try client.delete(item.href, etag: item.etag) {
                case .done:
                    state.items[file] = nil
                    summary.removedOnServer += 1
                case .changedMeanwhile:
                    // Changed there meanwhile: the change comes back here instead of being deleted.
                    let server = try client.cards(state.collection, hrefs: [item.href])
                    if let (etag, card) = server[item.href] {
                        try writeFile(file, card)
                        record(file, href: item.href, etag: etag, card: card, written: card)
                        summary.pulled += 1
                    } else {
                        state.items[file] = nil
                    }
                }
            }
        }
        for file in localBytes.keys.sorted() where state.items[file] == nil && !handled.contains(file) {
            try pushNew(file, localBytes[file]!)
        }
    }

    /// Pushes a file the server does not have; an existing member at its href is merged with it instead.
    private func pushNew(_ file: String, _ bytes: [UInt8]) throws {
        let book = AddressBook(data: Data(bytes), fileName: file)
        guard book.contacts.count + book.groups.count > 0 else {
            notes.append("\(file): no vCard in it; not sent")
            return
        }
        let href = Self.withoutTrailingSlash(state.collection) + "/" + Self.encode(file)
        try journal("PUT-NEW \(file)")
        switch try client.put(href, card: bytes, etag: nil) {
        case .done(let etag):
            record(file, href: href, etag: etag ?? "", card: bytes, written: bytes)
            summary.pushed += 1
        case .changedMeanwhile:
            try refetchAndReconcile(file, href: href, base: nil)
        }
    }

    /// A write refused with 412: the server's version is fetched and merged with the local one.
    private func refetchAndReconcile(_ file: String, href: String, base: [UInt8]?) throws {
        let server = try client.cards(state.collection, hrefs: [href])
        guard let (etag, card) = server[href] ?? server.first(where: { Self.key($0.key) == Self.key(href) })?.value
        else {
            // Gone meanwhile: pushed again as new.
            state.items[file] = nil
            if let bytes = FileManager.default.contents(atPath: folder + "/" + file) {
                try pushNew(file, [UInt8](bytes))
            }
            return
        }
        try reconcile(file, href: href, etag: etag, server: card, base: base)
    }

    /// The card of `file` as last synced.
    private func base(of file: String) -> [UInt8]? { state.items[file]?.base }

    /// Both sides changed `file`: merged per property against the last synced version; the result is
    /// written here and pushed; a conflict keeps the server's version here and the local one beside the
    /// state.
    private func reconcile(
        _ file: String, href: String, etag: String, server: [UInt8], base: [UInt8]?
    ) throws {
        guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { return }
        let mine = [UInt8](data)
        let outcome = CardMerge.merge(base: base, local: mine, server: server)
        if !outcome.conflicts.isEmpty {
            let copy = try keepConflict(file, mine)
            summary.conflicts.append(
                SyncConflict(file: file, properties: outcome.conflicts, copy: copy, date: Self.now()))
            state.conflicts.append(summary.conflicts[summary.conflicts.count - 1])
            try writeFile(file, server)
            record(file, href: href, etag: etag, card: server, written: server)
            return
        }
        if outcome.card == server {
            try writeFile(file, server)
            record(file, href: href, etag: etag, card: server, written: server)
            return
        }
        summary.merged += 1
        try writeFile(file, outcome.card)
        try journal("PUT-MERGED \(file)")
        switch try client.put(href, card: outcome.card, etag: etag) {
        case .done(let newETag):
            record(file, href: href, etag: newETag ?? "", card: outcome.card, written: outcome.card)
        case .changedMeanwhile:
            // Changed again meanwhile: the merge is here; the next sync merges again.
            record(file, href: href, etag: etag, card: server, written: server)
        }
    }

    // MARK: Files

    private func record(_ file: String, href: String, etag: String, card: [UInt8], written: [UInt8]) {
        state.items[file] = SyncState.Item(href: href, etag: etag, hash: SyncState.hash(written), base: card)
    }

    private func writeFile(_ file: String, _ bytes: [UInt8]) throws {
        // Made durable all at once, before the state is saved (``run(bookName:)``).
        try local { try AtomicFiles.replace(folder + "/" + file, with: bytes, durable: false) }
        writtenPaths.append(folder + "/" + file)
    }

    private func keepConflict(_ file: String, _ bytes: [UInt8]) throws -> String {
        let dir = SyncState.conflictFolder(folder)
        let stamp = Self.now().replacingOccurrences(of: ":", with: "")
        let path = dir + "/" + file + "." + stamp + ".vcf"
        try local {
            try PrivateFiles.makeDirectories(dir)
            try AtomicFiles.replace(path, with: bytes)
        }
        return path
    }

    private func writeMetadata(_ name: String, _ value: String?) throws {
        guard let value, VDir(path: folder).metadata(name) != value else { return }
        try local { try AtomicFiles.replace(folder + "/" + name, with: Array((value + "\n").utf8)) }
    }

    /// Notes a push before it is made (removed once the state is saved).
    private func journal(_ line: String) throws {
        let path = SyncState.journal(folder)
        try local {
            try PrivateFiles.makeDirectories(SyncState.folder(folder))
            let fd = PrivateFiles.open(path, O_WRONLY | O_CREAT | O_APPEND)
            guard fd >= 0 else { throw CardDAVError.local(path: path, message: String(cString: strerror(errno))) }
            defer { close(fd) }
            try AtomicFiles.writeAll(fd, Array((line + "\n").utf8), path: path)
            _ = fsync(fd)
        }
    }

    /// The file name for a member new here: its href's last segment when that is a safe `.vcf` name not
    /// taken, else its UID (or a fresh one) with `.vcf`.
    private func newFileName(for href: String, card: [UInt8], taken: Set<String>) -> String {
        let last = CardDAVClient.path(of: href).split(separator: "/").last.map(String.init) ?? ""
        let decoded = CardDAVClient.percentDecoded(last)
        if VDir.isCardFileName(decoded), !decoded.contains("/"), !taken.contains(decoded) { return decoded }
        let uid = AddressBook(data: Data(card), fileName: "card").contacts.first?.id ?? UUID().uuidString.lowercased()
        var name = String(uid.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }) + ".vcf"
        var n = 2
        while taken.contains(name) {
            name = "\(uid)-\(n).vcf"
            n += 1
        }
        return name
    }

    private func local(_ body: () throws -> Void) throws {
        do { try body() } catch let error as PrivateFilesError {
            throw CardDAVError.local(path: error.path, message: error.reason)
        } catch let error as ContactsCoreError {
            throw CardDAVError.local(path: folder, message: "\(error)")
        }
    }

    private func reading<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ContactsCoreError {
            throw CardDAVError.local(path: folder, message: "\(error)")
        }
    }

    static func key(_ href: String) -> String {
        let p = CardDAVClient.path(of: href)
        return CardDAVClient.percentDecoded(p)
    }

    static func encode(_ name: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    static func withoutTrailingSlash(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    static func now() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date())
    }
}
