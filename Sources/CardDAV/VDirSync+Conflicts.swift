import Foundation
import Support

/// Which side a conflict is settled for.
public enum ConflictSide: String, Sendable, CaseIterable {
    /// The local version of the conflicting properties (from the kept copy); sent by the next sync.
    case mine
    /// The server's version, already in the folder.
    case theirs
}

extension VDirSync {
    /// The conflicts of `folder` whose kept copy is still there (removing the copy settles one), with the
    /// copy's path from the current folder, wherever the sync ran.
    public static func conflicts(in folder: String) throws -> [SyncConflict] {
        try SyncState.load(folder).conflicts.map { $0.inFolder(folder) }.filter {
            FileManager.default.fileExists(atPath: $0.copy)
        }
    }

    /// Settles the conflict of `id` (the file's name, with or without `.vcf`, or the card's UID) in `folder`:
    /// `mine` puts the kept copy's lines of the conflicting properties into the file — every other change,
    /// of both sides, stays — for the next sync to send; `theirs` keeps the file as it is. The kept copy
    /// goes either way. Returns the conflict settled.
    ///
    /// ```swift no-compile
    /// try VDirSync.resolve("bob.vcf", in: "family", take: .mine)
    /// ```
    @discardableResult
    public static func resolve(_ id: String, in folder: String, take side: ConflictSide) throws -> SyncConflict {
        let conflict = try matching(id, in: folder)
        let choice: PropertyChoice = side == .mine ? .mine : .theirs
        return try resolve(
            conflict.file, in: folder,
            choosing: Dictionary(uniqueKeysWithValues: conflict.properties.map { ($0, choice) }))
    }
}
