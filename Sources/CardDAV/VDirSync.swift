import ContactsCore
import Foundation
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
    /// Members of the server that could not be read (not a vCard, too large, no data even by GET), each
    /// "href: why"; nothing was written for them.
    public var unreadable: [String] = []
    /// Local changes the server refused (403 on a read-only book, 409, a name too long…), each "file: why";
    /// they stay here and are tried again by the next sync.
    public var failed: [String] = []
    /// Local changes not sent because the sync was read-only.
    public var notSent = 0
    /// The address book's metadata (`displayname`, `color`) written here from the server, and sent to it.
    public var metadataReceived: [String] = []
    public var metadataSent: [String] = []
    /// Metadata changed differently on both sides: the server's value is in the folder, yours is named.
    public var metadataConflicts: [MetadataConflict] = []
}

/// A metadata file (`displayname`, `color`) changed here while the server's value changed otherwise: the
/// server's value was kept.
public struct MetadataConflict: Sendable, Hashable {
    /// `displayname` or `color`.
    public var name: String
    /// The value of the folder's file before the sync (now replaced), and the server's, kept.
    public var mine: String
    public var theirs: String?
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
    /// Pull only: local changes stay here, unsent (vdirsyncer's `partial_sync = ignore`).
    public var readOnly = false

    var state = SyncState()
    var summary = SyncSummary()
    /// The files of the folder this sync wrote or removed (made durable before the state is saved).
    var writtenPaths: [String] = []
    /// The files this sync pushed (their stored versions are fetched at its end).
    var pushedFiles: [String] = []

    public init(client: CardDAVClient, folder: String) {
        self.client = client
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
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
    public func run(bookName: String?) throws -> SyncSummary { try run(bookName: bookName, known: nil) }

    /// Runs one sync of `known` when discovery found it already (``syncAll(client:into:readOnly:prune:)``).
    func run(bookName: String?, known: AddressBookCollection?) throws -> SyncSummary {
        let requestsBefore = client.requestCount
        state = try SyncState.load(folder)
        if let damage = state.damage {
            notes.append("the sync state was damaged (\(damage)); the folder was matched with the server again")
        }
        summary = SyncSummary()
        writtenPaths = []
        var discovered: CollectionProperties?
        if let journal = FileManager.default.contents(atPath: SyncState.journal(folder)), !journal.isEmpty {
            let pending = String(decoding: journal, as: UTF8.self).split(separator: "\n").count
            notes.append("resuming after an interrupted sync (\(pending) push\(pending == 1 ? "" : "es") under way)")
        }
        if known != nil || state.collection.isEmpty || state.sourceURL != client.account.url
            || state.bookName != bookName
        {
            let collection = try known ?? chooseCollection(bookName: bookName)
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
            discovered = collection.properties
        }
        summary.collection = state.collection
        try local { try PrivateFiles.makeDirectories(folder) }
        // Temporary files a killed run left behind.
        for dir in [folder, SyncState.folder(folder), SyncState.conflictFolder(folder)] {
            AtomicFiles.removeTemporaries(in: dir)
        }
        let loaded = state
        try syncMetadata(known: discovered)
        try syncOnce()
        // Files written here are made durable before the state that names them; a sync that
        // changed nothing writes nothing (no flush, no state rewrite).
        if !writtenPaths.isEmpty { AtomicFiles.makeDurable(writtenPaths, in: folder) }
        if state != loaded || !FileManager.default.fileExists(atPath: SyncState.path(folder)) {
            try state.save(folder, previous: loaded)
        }
        try? FileManager.default.removeItem(atPath: SyncState.journal(folder))
        summary.requests = client.requestCount - requestsBefore
        summary.conflicts = summary.conflicts.map { $0.inFolder(folder) }
        return summary
    }

    // MARK: The sync

    /// What one run knows of the local side and of what it handled, while the server's cards stream in.
    struct Pass {
        /// The hash of each card file here (the bytes are read again when needed: memory does not grow
        /// with the folder).
        var localHash: [String: String] = [:]
        var fileByHref: [String: String] = [:]
        var handled: Set<String> = []
        var taken: Set<String> = []
        /// The files not synced yet, by UID (a first sync of a vdir another tool filled: no duplicate).
        var untrackedByUID: [String: String] = [:]
        /// Members whose answer held no card, for GET.
        var withoutData: [String] = []
        /// Members changed on both sides, merged once the answer is read (no request is made while one is
        /// under way).
        var toReconcile: [(file: String, member: DAVMember, base: [UInt8]?)] = []
    }

    private func syncOnce() throws {
        let collection = state.collection
        // 1. What changed here. Every file is read (on all cores): a local edit is found by its bytes,
        // whatever its times say.
        var pass = Pass()
        let names = try reading { try VDir(path: folder).cardFileNames() }
        let paths = names.map { folder + "/" + $0 }
        let hashes = ParallelWork.map(count: paths.count) { k in
            FileManager.default.contents(atPath: paths[k]).map { SyncState.hash([UInt8]($0)) }
        }
        pass.localHash.reserveCapacity(names.count)
        for (name, hash) in zip(names, hashes) { pass.localHash[name] = hash }
        for (file, item) in state.items { pass.fileByHref[Self.key(item.href)] = file }
        pass.taken = Set(pass.localHash.keys).union(state.items.keys)
        for name in pass.localHash.keys.sorted() where state.items[name] == nil {
            guard let bytes = localBytes(name), let id = Self.uid(of: bytes), pass.untrackedByUID[id] == nil
            else { continue }
            pass.untrackedByUID[id] = name
        }

        // 2. Server changes in, each card written as it arrives.
        var serverRemoved: Set<String> = []
        if state.syncToken == nil && state.items.isEmpty {
            // A first sync: one sync-collection from no token, with the cards (the token comes with it:
            // changes after it come next time); on a server that gives no cards there (Xandikos), every
            // card in one query. Members left out of both (Xandikos leaves out of the query those it keeps
            // as octet-stream) come by multiget, then GET.
            var seen: Set<String> = []
            let listing: DAVListing
            if state.supportsSyncCollection {
                do {
                    listing = try client.changes(collection, since: nil, withCards: true) { member in
                        seen.insert(Self.key(member.href))
                        try take(member, &pass)
                    }
                } catch CardDAVError.status(_, _, let code, _) where (400...599).contains(code) && seen.isEmpty {
                    // A server that refuses cards in sync-collection: the listing alone, then the query.
                    listing = try client.changes(collection, since: nil)
                }
                state.syncToken = listing.token
            } else {
                listing = try client.etags(collection)
            }
            if seen.isEmpty && !listing.changed.isEmpty {
                try client.allCards(collection) { member in
                    seen.insert(Self.key(member.href))
                    try take(member, &pass)
                }
            }
            let missing = listing.changed.keys.filter { !seen.contains(Self.key($0)) }.sorted()
            try client.cards(collection, hrefs: missing, sizes: listing.sizes) { member in
                seen.insert(Self.key(member.href))
                try take(member, &pass)
            }
            pass.withoutData += missing.filter { !seen.contains(Self.key($0)) }
        } else {
            var listing: DAVListing
            var listedAll = false
            if state.supportsSyncCollection {
                do {
                    listing = try client.changes(collection, since: state.syncToken)
                } catch is SyncTokenInvalid {
                    summary.fullResync = true
                    listing = try client.changes(collection, since: nil)
                    listing.removed = []
                    listedAll = true
                }
                state.syncToken = listing.token
            } else {
                listing = try client.etags(collection)
                listedAll = true
            }
            serverRemoved = listing.removed
            if listedAll {
                let listed = Set(listing.changed.keys.map(Self.key))
                for item in state.items.values where !listed.contains(Self.key(item.href)) {
                    serverRemoved.insert(item.href)
                }
            }
            // Our own pushes come back with the ETag we stored: not a change.
            let changed = listing.changed.filter { href, etag in
                pass.fileByHref[Self.key(href)].flatMap { state.items[$0]?.etag } != etag
            }
            try client.cards(collection, hrefs: changed.keys.sorted(), sizes: listing.sizes) { try take($0, &pass) }
        }
        // Members the answers gave no card for (Xandikos keeps a non-vCard PUT as octet-stream): by GET.
        for href in pass.withoutData {
            do {
                if let member = try client.get(href) { try take(member, &pass, fetched: true) }
            } catch CardDAVError.status(_, _, let code, let message) {
                summary.unreadable.append("\(href): GET answered HTTP \(code)\(message.isEmpty ? "" : ": " + message)")
            }
        }
        for (file, member, base) in pass.toReconcile {
            try reconcile(file, href: member.href, etag: member.etag, server: member.card ?? [], base: base)
        }
        for href in serverRemoved.sorted() {
            guard let file = pass.fileByHref[Self.key(href)], !pass.handled.contains(file) else { continue }
            pass.handled.insert(file)
            if changedLocally(file, pass) {
                // Changed here, deleted there: the change wins, pushed again as new.
                state.items[file] = nil
                if !readOnly, let bytes = localBytes(file) { try attempt(file) { try pushNew(file, bytes) } }
            } else {
                if pass.localHash[file] != nil {
                    try local { try AtomicFiles.remove(folder + "/" + file) }
                    summary.removedLocally += 1
                }
                state.items[file] = nil
            }
        }

        // 3. Local changes out.
        try pushLocalChanges(pass)
    }

    /// The bytes of a card file here, read now.
    func localBytes(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: folder + "/" + file).map { [UInt8]($0) }
    }

    func changedLocally(_ file: String, _ pass: Pass) -> Bool {
        guard let item = state.items[file], let hash = pass.localHash[file] else { return false }
        return hash != item.hash
    }

    /// One member from the server: written here, merged with a local change, or matched (by UID) with a
    /// local file not synced yet. A member whose answer held no card is noted for GET (`fetched` false), or
    /// named as unreadable; one that is not a vCard is named and not written.
    private func take(_ member: DAVMember, _ pass: inout Pass, fetched: Bool = false) throws {
        let href = member.href
        if let problem = member.problem {
            summary.unreadable.append("\(href): \(problem)")
            return
        }
        guard let card = member.card else {
            if fetched {
                summary.unreadable.append("\(href): the server gives no vCard for it")
            } else {
                pass.withoutData.append(href)
            }
            return
        }
        guard Self.isVCard(card) else {
            summary.unreadable.append("\(href): not a vCard; not written")
            return
        }
        let etag = member.etag
        if let file = pass.fileByHref[Self.key(href)] {
            pass.handled.insert(file)
            if pass.localHash[file] != nil && changedLocally(file, pass) {
                pass.toReconcile.append((file, member, base(of: file)))
            } else {
                // Unchanged here, or deleted here and changed there: the change wins (nothing is lost).
                try writeFile(file, card)
                recordWritten(file, href: href, etag: etag, card: card)
                summary.pulled += 1
            }
            return
        }
        let uid = pass.untrackedByUID.isEmpty ? nil : Self.uid(of: card)
        let file: String
        if let uid, let match = pass.untrackedByUID.removeValue(forKey: uid) {
            file = match
        } else {
            file = newFileName(for: href, card: card, taken: pass.taken)
            pass.taken.insert(file)
        }
        pass.handled.insert(file)
        pass.fileByHref[Self.key(href)] = file
        if pass.localHash[file] != nil, state.items[file] == nil, let mine = localBytes(file) {
            // A local file not synced yet with the same UID or name: a push an interrupted sync made, or
            // a vdir another tool (vdirsyncer) filled from this server: the file keeps its name.
            let outcome = CardMerge.merge(base: nil, local: mine, server: card)
            if outcome.conflicts.isEmpty && outcome.card == card {
                if card == mine {
                    recordWritten(file, href: href, etag: etag, card: card)
                } else {
                    record(file, href: href, etag: etag, card: card, written: mine)
                }
            } else {
                pass.toReconcile.append((file, member, nil))
            }
        } else {
            try writeFile(file, card)
            recordWritten(file, href: href, etag: etag, card: card)
            pass.localHash[file] = SyncState.hash(card)
            summary.pulled += 1
        }
    }

    /// Local edits, deletes and new files out; each refused write is named and the rest goes on.
    private func pushLocalChanges(_ pass: Pass) throws {
        for file in state.items.keys.sorted() where !pass.handled.contains(file) {
            guard let item = state.items[file] else { continue }
            if let hash = pass.localHash[file] {
                guard hash != item.hash else { continue }
                if readOnly {
                    summary.notSent += 1
                    continue
                }
                guard let bytes = localBytes(file) else { continue }
                try attempt(file) {
                    try journal("PUT \(file)")
                    switch try client.put(item.href, card: bytes, etag: item.etag) {
                    case .done(let etag):
                        recordPush(file, href: item.href, etag: etag, card: bytes)
                        summary.pushed += 1
                    case .changedMeanwhile:
                        try refetchAndReconcile(file, href: item.href, base: base(of: file))
                    }
                }
            } else {
                if readOnly {
                    summary.notSent += 1
                    continue
                }
                try attempt(file) {
                    try journal("DELETE \(file)")
                    switch try client.delete(item.href, etag: item.etag) {
                    case .done:
                        state.items[file] = nil
                        summary.removedOnServer += 1
                    case .changedMeanwhile:
                        // Changed there meanwhile: the change comes back here instead of being deleted.
                        var back: DAVMember?
                        try client.cards(state.collection, hrefs: [item.href]) { back = $0 }
                        if let back, let card = back.card, Self.isVCard(card) {
                            try writeFile(file, card)
                            recordWritten(file, href: item.href, etag: back.etag, card: card)
                            summary.pulled += 1
                        } else {
                            state.items[file] = nil
                        }
                    }
                }
            }
        }
        for file in pass.localHash.keys.sorted() where state.items[file] == nil && !pass.handled.contains(file) {
            if readOnly {
                summary.notSent += 1
                continue
            }
            guard let bytes = localBytes(file) else { continue }
            try attempt(file) { try pushNew(file, bytes) }
        }
        try refetchRewritten()
    }

    /// Runs one write of `file`; a refusal by the server (a status, an unreadable answer) is named in the
    /// summary and the sync goes on; failures of the connection or the folder stop it.
    func attempt(_ file: String, _ body: () throws -> Void) throws {
        do { try body() } catch let error as CardDAVError {
            switch error {
            case .status, .badAnswer: summary.failed.append("\(file): \(error)")
            default: throw error
            }
        }
    }
}
