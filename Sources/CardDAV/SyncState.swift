import Foundation
import Support

/// What a vdir remembers of its server, in `DIR/.contacts-sync/`: the collection, the sync-token, and for
/// every file the member it is (href, ETag); the conflicts kept; the journal of pushes under way. The cards
/// both sides last agreed on (the bases of the three-way merge) are in a file of their own, read only when a
/// merge needs one, so that a sync with little to do does not read or rewrite every card.
struct SyncState: Codable, Sendable, Equatable {
    /// The URL the user gave and the book chosen, and the collection they led to (discovery is skipped while
    /// they stay the same).
    var sourceURL: String = ""
    var bookName: String?
    var collection: String = ""
    var supportsSyncCollection = false
    var syncToken: String?
    var items: [String: Item] = [:]
    var conflicts: [SyncConflict] = []
    /// The name of the file in the state folder holding the bases (``readBases(_:_:)``); a new name each time
    /// they change, so that the state and its bases are replaced together by the state's own atomic write.
    var basesFile: String?

    struct Item: Codable, Sendable, Equatable {
        var href: String
        var etag: String
        /// The hash of the file's bytes when it was last synced (a different hash: changed locally).
        var hash: String
        /// The card as last synced, in a state written before the bases had a file of their own.
        var base: String?
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
        do { return try JSONDecoder().decode(SyncState.self, from: data) } catch {
            throw CardDAVError.local(
                path: path, message: "the sync state cannot be read (\(error)); move the folder away to sync afresh")
        }
    }

    /// Writes the state atomically.
    func save(_ vdir: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try PrivateFiles.makeDirectories(Self.folder(vdir))
            try AtomicFiles.replace(Self.path(vdir), with: Array(try encoder.encode(self)))
        } catch let error as PrivateFilesError {
            throw CardDAVError.local(path: error.path, message: error.reason)
        }
    }

    /// The bases kept in `name` of the state folder: for each file, its name, a NUL, the card's length in
    /// decimal, a line feed, and the card's bytes.
    static func readBases(_ vdir: String, _ name: String) throws -> [String: [UInt8]] {
        let path = folder(vdir) + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CardDAVError.local(
                path: path, message: "the last synced cards cannot be read; move the folder away to sync afresh")
        }
        let bytes = [UInt8](data)
        var bases: [String: [UInt8]] = [:]
        var i = 0
        while i < bytes.count {
            guard let nul = bytes[i...].firstIndex(of: 0), let newline = bytes[nul...].firstIndex(of: 0x0A),
                let length = Int(String(decoding: bytes[(nul + 1)..<newline], as: UTF8.self)), length >= 0,
                newline + 1 + length <= bytes.count
            else {
                throw CardDAVError.local(
                    path: path, message: "byte \(i): a damaged record; move the folder away to sync afresh")
            }
            bases[String(decoding: bytes[i..<nul], as: UTF8.self)] = Array(bytes[(newline + 1)..<(newline + 1 + length)])
            i = newline + 1 + length
        }
        return bases
    }

    /// Writes `bases` durably to a new file of the state folder and returns its name.
    static func writeBases(_ vdir: String, _ bases: [String: [UInt8]]) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bases.values.reduce(0) { $0 + $1.count + 64 })
        for name in bases.keys.sorted() {
            out += name.utf8
            out.append(0)
            out += String(bases[name]!.count).utf8
            out.append(0x0A)
            out += bases[name]!
        }
        let name = "bases-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        do {
            try PrivateFiles.makeDirectories(folder(vdir))
            try AtomicFiles.replace(folder(vdir) + "/" + name, with: out)
        } catch {
            throw CardDAVError.local(path: error.path, message: error.reason)
        }
        return name
    }

    /// Removes the bases files of the state folder other than `current` (left by an earlier sync, or by one
    /// stopped before its state was saved).
    static func removeOtherBases(_ vdir: String, keeping current: String?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(vdir))) ?? []
        for name in names where name.hasPrefix("bases-") && name != current {
            unlink(folder(vdir) + "/" + name)
        }
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
    /// Where the local version was kept.
    public var copy: String
    /// When (ISO 8601, UTC).
    public var date: String
}
