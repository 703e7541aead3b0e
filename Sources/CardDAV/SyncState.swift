import Foundation
import Support

/// What a vdir remembers of its server, in `DIR/.contacts-sync/`: the collection, the sync-token, the
/// conflicts kept (`state.json`), and for every file the member it is (href, ETag), the hash of its bytes
/// and the card both sides last agreed on (the base of the three-way merge), in a members file of plain
/// records that loads in milliseconds where JSON took a tenth of a second per 10,000 contacts; and the
/// journal of pushes under way.
struct SyncState: Sendable, Equatable {
    /// The URL the user gave and the book chosen, and the collection they led to (discovery is skipped while
    /// they stay the same).
    var sourceURL: String = ""
    var bookName: String?
    var collection: String = ""
    var supportsSyncCollection = false
    var syncToken: String?
    var items: [String: Item] = [:]
    var conflicts: [SyncConflict] = []
    /// The members file the state was read from (nil before the first save).
    private(set) var membersFile: String?

    struct Item: Sendable, Equatable {
        var href: String
        var etag: String
        /// The hash of the file's bytes when it was last synced (a different hash: changed locally).
        var hash: String
        /// The card as last synced.
        var base: [UInt8]
    }

    /// `state.json`: everything but the members, and the name of their file (a new name each time they
    /// change, so that the state and its members are replaced together by the state's own atomic write).
    private struct Stored: Codable {
        var sourceURL: String
        var bookName: String?
        var collection: String
        var supportsSyncCollection: Bool
        var syncToken: String?
        var conflicts: [SyncConflict]
        var members: String?
        /// The members, in states written before they had a file of their own.
        var items: [String: StoredItem]?
    }

    private struct StoredItem: Codable {
        var href: String
        var etag: String
        var hash: String
        var base: String
    }

    static let folderName = ".contacts-sync"

    static func folder(_ vdir: String) -> String { vdir + "/" + folderName }
    static func path(_ vdir: String) -> String { folder(vdir) + "/state.json" }
    static func journal(_ vdir: String) -> String { folder(vdir) + "/journal" }
    static func conflictFolder(_ vdir: String) -> String { folder(vdir) + "/conflicts" }

    /// The state of `vdir` (an empty one before the first sync).
    static func load(_ vdir: String) throws -> SyncState {
        let path = path(vdir)
        guard let data = FileManager.default.contents(atPath: path) else { return SyncState() }
        let stored: Stored
        do { stored = try JSONDecoder().decode(Stored.self, from: data) } catch {
            throw CardDAVError.local(
                path: path, message: "the sync state cannot be read (\(error)); move the folder away to sync afresh")
        }
        var state = SyncState(
            sourceURL: stored.sourceURL, bookName: stored.bookName, collection: stored.collection,
            supportsSyncCollection: stored.supportsSyncCollection, syncToken: stored.syncToken,
            conflicts: stored.conflicts)
        for (file, item) in stored.items ?? [:] {
            state.items[file] = Item(href: item.href, etag: item.etag, hash: item.hash, base: Array(item.base.utf8))
        }
        if let members = stored.members {
            state.items = try readMembers(folder(vdir) + "/" + members)
            state.membersFile = members
        }
        return state
    }

    /// Writes the state atomically: a new members file when the members changed since `previous`, then
    /// `state.json` naming it; the members file it replaces is removed after.
    mutating func save(_ vdir: String, previous: SyncState? = nil) throws {
        do {
            try PrivateFiles.makeDirectories(Self.folder(vdir))
            if membersFile == nil || items != previous?.items {
                let name = "members-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
                try AtomicFiles.replace(Self.folder(vdir) + "/" + name, with: membersBytes())
                membersFile = name
            }
            let stored = Stored(
                sourceURL: sourceURL, bookName: bookName, collection: collection,
                supportsSyncCollection: supportsSyncCollection, syncToken: syncToken, conflicts: conflicts,
                members: membersFile, items: nil)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFiles.replace(Self.path(vdir), with: Array(try encoder.encode(stored)))
        } catch let error as PrivateFilesError {
            throw CardDAVError.local(path: error.path, message: error.reason)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder(vdir))) ?? []
        for name in names where name.hasPrefix("members-") && name != membersFile {
            unlink(Self.folder(vdir) + "/" + name)
        }
    }

    /// The members file's bytes: for each file (in name order), its name, href, ETag and hash, each ended by
    /// a NUL, then the base's length in decimal, a line feed, and the base's bytes.
    private func membersBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(items.values.reduce(0) { $0 + $1.base.count + $1.href.utf8.count + 128 })
        for file in items.keys.sorted() {
            let item = items[file]!
            for field in [file, item.href, item.etag, item.hash] {
                out += field.utf8
                out.append(0)
            }
            out += String(item.base.count).utf8
            out.append(0x0A)
            out += item.base
        }
        return out
    }

    /// The members kept in the file at `path` (``membersBytes()``).
    private static func readMembers(_ path: String) throws -> [String: Item] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CardDAVError.local(
                path: path, message: "the sync state's members cannot be read; move the folder away to sync afresh")
        }
        let bytes = [UInt8](data)
        var items: [String: Item] = [:]
        var i = 0
        while i < bytes.count {
            var fields: [String] = []
            var k = i
            while fields.count < 4, let nul = bytes[k...].firstIndex(of: 0) {
                fields.append(String(decoding: bytes[k..<nul], as: UTF8.self))
                k = nul + 1
            }
            guard fields.count == 4, let newline = bytes[k...].firstIndex(of: 0x0A),
                let length = Int(String(decoding: bytes[k..<newline], as: UTF8.self)), length >= 0,
                length <= bytes.count - newline - 1
            else {
                throw CardDAVError.local(
                    path: path, message: "byte \(i): a damaged record; move the folder away to sync afresh")
            }
            items[fields[0]] = Item(
                href: fields[1], etag: fields[2], hash: fields[3],
                base: Array(bytes[(newline + 1)..<(newline + 1 + length)]))
            i = newline + 1 + length
        }
        return items
    }

    /// The hash of a file's bytes, as stored.
    static func hash(_ bytes: [UInt8]) -> String {
        var h = ContentHash()
        h.add(bytes)
        return String(h.value, radix: 16)
    }
}

/// A card changed on both sides in the same property: the server's version is in the vdir file, the local
/// one was kept in `copy`.
public struct SyncConflict: Codable, Sendable, Hashable {
    /// The file in the vdir.
    public var file: String
    /// The properties changed differently on both sides.
    public var properties: [String]
    /// Where the local version was kept: relative to the vdir in the state, the path from the current
    /// folder in what ``VDirSync`` returns.
    public var copy: String
    /// When (ISO 8601, UTC).
    public var date: String
}

extension SyncConflict {
    /// The conflict with ``copy`` as a path from the current folder (states before this kept the path the
    /// sync was given, which holds only from the folder it ran in).
    func inFolder(_ vdir: String) -> SyncConflict {
        var c = self
        if copy.hasPrefix(SyncState.folderName + "/") { c.copy = vdir + "/" + copy }
        return c
    }
}
