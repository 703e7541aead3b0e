import Foundation
import Support

/// What a vdir remembers of its server, in `DIR/.contacts-sync/`: the collection, the sync-token, and for
/// every file the member it is (href, ETag) and the card both sides last agreed on (the base of the
/// three-way merge); the conflicts kept; the journal of pushes under way.
struct SyncState: Codable, Sendable {
    /// The URL the user gave and the book chosen, and the collection they led to (discovery is skipped while
    /// they stay the same).
    var sourceURL: String = ""
    var bookName: String?
    var collection: String = ""
    var supportsSyncCollection = false
    var syncToken: String?
    var items: [String: Item] = [:]
    var conflicts: [SyncConflict] = []

    struct Item: Codable, Sendable {
        var href: String
        var etag: String
        /// The hash of the file's bytes when it was last synced (a different hash: changed locally).
        var hash: String
        /// The card as last synced.
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
