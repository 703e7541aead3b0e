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
        let open = try conflicts(in: folder)
        let match = open.last { c in
            c.file == id || c.file == id + ".vcf"
                || FileManager.default.contents(atPath: folder + "/" + c.file).flatMap { uid(of: [UInt8]($0)) } == id
        }
        guard let conflict = match else {
            let listed = open.map(\.file).joined(separator: ", ")
            throw CardDAVError.local(
                path: folder, message: "no conflict for '\(id)'" + (listed.isEmpty ? "" : " (conflicts: \(listed))"))
        }
        let path = folder + "/" + conflict.file
        do {
            if side == .mine {
                guard let copy = FileManager.default.contents(atPath: conflict.copy),
                    let current = FileManager.default.contents(atPath: path)
                else { throw CardDAVError.local(path: path, message: "the file or its kept copy cannot be read") }
                let card = CardMerge.taking(conflict.properties, from: [UInt8](copy), into: [UInt8](current))
                try AtomicFiles.replace(path, with: card)
            }
            try AtomicFiles.remove(conflict.copy)
            let loaded = try SyncState.load(folder)
            var state = loaded
            state.conflicts.removeAll { $0.file == conflict.file }
            try state.save(folder, previous: loaded)
        } catch let error as PrivateFilesError {
            throw CardDAVError.local(path: error.path, message: error.reason)
        }
        return conflict
    }
}
