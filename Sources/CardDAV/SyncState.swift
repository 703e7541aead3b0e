import Foundation
import Support

/// What a vdir remembers of its server, in `DIR/.contacts-sync/`: the collection, the sync-token, the
/// conflicts kept (`state.json`), and for every file the member it is (href, ETag), the hash of its bytes
/// and the card both sides last agreed on (the base of the three-way merge), in a members file of plain
/// records that loads in milliseconds where JSON took a tenth of a second per 10,000 contacts; and the
/// journal of pushes under way. The bases stay on disk (``Base``): the members file is read and written
/// record by record, so a sync's memory does not grow with the size of the book.
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
    /// The collection's metadata (`displayname`, `color`) as both sides last agreed on it.
    var metadata: [String: String] = [:]
    /// The members file the state was read from (nil before the first save).
    private(set) var membersFile: String?
    /// Why the members could not be read, when they could not (they are then found again, as on a
    /// first sync).
    var damage: String?

    struct Item: Sendable, Equatable {
        var href: String
        var etag: String
        /// The hash of the file's bytes when it was last synced (a different hash: changed locally).
        var hash: String
        /// The card as last synced.
        var base: Base
    }

    /// Where the card as last synced is.
    enum Base: Sendable, Equatable {
        /// Here (a merged or refetched card; states of earlier versions).
        case bytes([UInt8])
        /// Bytes `offset..<offset + length` of the members file the state was read from or saved to.
        case stored(offset: Int, length: Int)
        /// The bytes of the vdir file, written by this sync (until the state is saved).
        case file
    }

    /// The card `file` was as last synced; nil when it cannot be read (a file rewritten since).
    func base(of file: String, in vdir: String) -> [UInt8]? {
        guard let item = items[file] else { return nil }
        switch item.base {
        case .bytes(let bytes): return bytes
        case .file:
            guard let data = FileManager.default.contents(atPath: vdir + "/" + file) else { return nil }
            let bytes = [UInt8](data)
            return Self.hash(bytes) == item.hash ? bytes : nil
        case .stored(let offset, let length):
            guard let members = membersFile else { return nil }
            let fd = open(Self.folder(vdir) + "/" + members, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let n = bytes.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + done, length - done, off_t(offset + done))
                }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                done += n
            }
            return bytes
        }
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
        var metadata: [String: String]?
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
            conflicts: stored.conflicts, metadata: stored.metadata ?? [:])
        for (file, item) in stored.items ?? [:] {
            state.items[file] = Item(
                href: item.href, etag: item.etag, hash: item.hash, base: .bytes(Array(item.base.utf8)))
        }
        if let members = stored.members {
            do {
                state.items = try readMembers(folder(vdir) + "/" + members)
                state.membersFile = members
            } catch let error as CardDAVError {
                // Damaged (by an earlier version that wrote a NUL from an href into a name): the members
                // are found again as on a first sync, each file matched with the server's card by UID.
                state.items = [:]
                state.syncToken = nil
                state.damage = "\(error)"
            }
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
                try writeMembers(Self.folder(vdir) + "/" + name, vdir: vdir)
                membersFile = name
            }
            let stored = Stored(
                sourceURL: sourceURL, bookName: bookName, collection: collection,
                supportsSyncCollection: supportsSyncCollection, syncToken: syncToken, conflicts: conflicts,
                metadata: metadata.isEmpty ? nil : metadata, members: membersFile, items: nil)
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

    /// Writes the members file at `path`, record by record: for each file (in name order), its name, href,
    /// ETag and hash, each ended by a NUL, then the base's length in decimal, a line feed, and the base's
    /// bytes. The items' bases then point into it.
    private mutating func writeMembers(_ path: String, vdir: String) throws {
        var placed: [String: Base] = [:]
        let files = items.keys.sorted()
        try AtomicFiles.replace(path) { write in
            var offset = 0
            var out: [UInt8] = []
            for file in files {
                let item = items[file]!
                // A base that cannot be read any more (its file rewritten during the sync) is left empty:
                // the next merge then keeps both sides rather than guess.
                let base = self.base(of: file, in: vdir) ?? []
                for field in [file, item.href, item.etag, item.hash] {
                    out += field.utf8
                    out.append(0)
                }
                out += String(base.count).utf8
                out.append(0x0A)
                placed[file] = .stored(offset: offset + out.count, length: base.count)
                out += base
                offset += out.count
                if out.count >= 1 << 20 {
                    try write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            try write(out)
        }
        for (file, base) in placed { items[file]?.base = base }
    }

    /// The members kept in the file at `path` (``writeMembers(_:vdir:)``), read in parts: the bases stay
    /// in the file.
    private static func readMembers(_ path: String) throws -> [String: Item] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CardDAVError.local(
                path: path, message: "the sync state's members cannot be read; move the folder away to sync afresh")
        }
        defer { close(fd) }
        var items: [String: Item] = [:]
        var buffer: [UInt8] = []
        /// The offset in the file of `buffer[0]`, and whether the file has been read to its end.
        var start = 0
        var ended = false
        func more() -> Bool {
            guard !ended else { return false }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 {
                ended = true
                return false
            }
            buffer += chunk[..<n]
            return true
        }
        var i = 0
        func damaged() -> CardDAVError {
            .local(path: path, message: "byte \(start + i): a damaged record; move the folder away to sync afresh")
        }
        while true {
            if i == buffer.count && !more() { break }
            var fields: [String] = []
            var k = i
            while fields.count < 5 {
                let stop: UInt8 = fields.count < 4 ? 0 : 0x0A
                if let end = buffer[k...].firstIndex(of: stop) {
                    fields.append(String(decoding: buffer[k..<end], as: UTF8.self))
                    k = end + 1
                } else if !more() {
                    throw damaged()
                }
            }
            guard let length = Int(fields[4]), length >= 0 else { throw damaged() }
            items[fields[0]] = Item(
                href: fields[1], etag: fields[2], hash: fields[3], base: .stored(offset: start + k, length: length))
            // Past the base, without keeping it.
            var skip = length
            while skip > buffer.count - k {
                skip -= buffer.count - k
                start += buffer.count
                buffer.removeAll(keepingCapacity: true)
                k = 0
                guard more() else { throw damaged() }
            }
            i = k + skip
            if i > 1 << 20 {
                start += i
                buffer.removeFirst(i)
                i = 0
            }
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
