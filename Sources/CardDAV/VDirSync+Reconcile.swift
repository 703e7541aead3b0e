import ContactsCore
import Foundation
import Support

/// Pushes of new files, and the merge of a card changed on both sides.
extension VDirSync {
    /// Pushes a file the server does not have; an existing member at its href is merged with it instead.
    func pushNew(_ file: String, _ bytes: [UInt8]) throws {
        guard Self.isVCard(bytes) else {
            notes.append("\(file): no vCard in it; not sent")
            return
        }
        let href = Self.withoutTrailingSlash(state.collection) + "/" + Self.encode(file)
        try journal("PUT-NEW \(file)")
        switch try client.put(href, card: bytes, etag: nil) {
        case .done(let etag):
            recordPush(file, href: href, etag: etag, card: bytes)
            summary.pushed += 1
        case .changedMeanwhile:
            try refetchAndReconcile(file, href: href, base: nil)
        }
    }

    /// A write refused with 412: the server's version is fetched and merged with the local one.
    func refetchAndReconcile(_ file: String, href: String, base: [UInt8]?) throws {
        var server: DAVMember?
        try client.cards(state.collection, hrefs: [href]) { if Self.key($0.href) == Self.key(href) { server = $0 } }
        guard let server, let card = server.card, Self.isVCard(card) else {
            // Gone meanwhile: pushed again as new.
            state.items[file] = nil
            if let bytes = FileManager.default.contents(atPath: folder + "/" + file) {
                try pushNew(file, [UInt8](bytes))
            }
            return
        }
        try reconcile(file, href: href, etag: server.etag, server: card, base: base)
    }

    /// The card of `file` as last synced.
    func base(of file: String) -> [UInt8]? { state.base(of: file, in: folder) }

    /// Both sides changed `file`: merged per property against the last synced version; the result is
    /// written here and pushed (kept here unsent when read-only). A conflict keeps the server's version of
    /// the conflicting properties here, with every other change of both sides, and the local card whole
    /// beside the state; the local changes that did not conflict go to the server with the next sync.
    func reconcile(_ file: String, href: String, etag: String, server: [UInt8], base: [UInt8]?) throws {
        guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { return }
        let mine = [UInt8](data)
        let outcome = CardMerge.merge(base: base, local: mine, server: server)
        if !outcome.conflicts.isEmpty {
            let copy = try keepConflict(file, mine)
            let conflict = SyncConflict(file: file, properties: outcome.conflicts, copy: copy, date: Self.now())
            summary.conflicts.append(conflict)
            state.conflicts.removeAll { $0.file == file }
            state.conflicts.append(conflict)
        }
        if outcome.card == server {
            try writeFile(file, server)
            recordWritten(file, href: href, etag: etag, card: server)
            return
        }
        if outcome.conflicts.isEmpty { summary.merged += 1 }
        try writeFile(file, outcome.card)
        // Until the merge is on the server, the next sync sees it as a local change.
        record(file, href: href, etag: etag, card: server, written: server)
        if readOnly {
            summary.notSent += 1
            return
        }
        try attempt(file) {
            try journal("PUT-MERGED \(file)")
            if case .done(let newETag) = try client.put(href, card: outcome.card, etag: etag) {
                recordPush(file, href: href, etag: newETag, card: outcome.card)
            }
            // Changed again meanwhile (412): the merge is here; the next sync merges again.
        }
    }

    func record(_ file: String, href: String, etag: String, card: [UInt8], written: [UInt8]) {
        state.items[file] = SyncState.Item(href: href, etag: etag, hash: SyncState.hash(written), base: .bytes(card))
    }

    /// Records `card` as the last synced version of `file`, which holds exactly its bytes: the base stays in
    /// the file (not in memory) until the state is saved.
    func recordWritten(_ file: String, href: String, etag: String, card: [UInt8]) {
        state.items[file] = SyncState.Item(href: href, etag: etag, hash: SyncState.hash(card), base: .file)
    }

    /// Records a card the server took; its stored version is fetched at the end of the sync
    /// (``refetchRewritten()``), as servers may rewrite what they are sent.
    func recordPush(_ file: String, href: String, etag: String?, card: [UInt8]) {
        recordWritten(file, href: href, etag: etag ?? "", card: card)
        pushedFiles.append(file)
    }

    /// The versions the server stored of the cards pushed by this sync become their merge base (Radicale
    /// stores a re-serialised card: keeping the bytes sent as the base made a later change on the server
    /// look like a change of every property it rewrote). One multiget for all of them.
    func refetchRewritten() throws {
        let files = pushedFiles.filter { state.items[$0] != nil }
        pushedFiles = []
        guard !files.isEmpty else { return }
        var fileByKey: [String: String] = [:]
        for file in files { fileByKey[Self.key(state.items[file]!.href)] = file }
        var stored: [(String, DAVMember)] = []
        try client.cards(state.collection, hrefs: files.map { state.items[$0]!.href }) { member in
            if let file = fileByKey[Self.key(member.href)] { stored.append((file, member)) }
        }
        for (file, member) in stored {
            guard var item = state.items[file], let card = member.card, Self.isVCard(card) else { continue }
            // Only the version this sync pushed (the ETag the PUT gave, or none given).
            guard item.etag.isEmpty || item.etag == member.etag else { continue }
            item.etag = member.etag
            item.base = .bytes(card)
            state.items[file] = item
        }
    }
}
