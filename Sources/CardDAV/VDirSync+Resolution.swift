import ContactsCore
import Foundation
import Support

/// What a conflicting property is settled with, property by property (the interactive resolution).
public enum PropertyChoice: String, Sendable, CaseIterable {
    /// The kept copy's lines (yours).
    case mine
    /// The lines in the folder (the server's).
    case theirs
    /// The server's lines and, after them, each of yours it does not have (for a property that holds
    /// several values, such as `EMAIL` or `TEL`).
    case both
}

/// One property changed differently on both sides: its lines (unfolded) in the kept copy and in the folder.
public struct ConflictingProperty: Sendable, Hashable {
    /// The property's name (`EMAIL`, `NOTE`…).
    public var name: String
    /// Its lines in your version (the kept copy).
    public var mine: [String]
    /// Its lines in the server's version (the file in the folder).
    public var theirs: [String]
    /// Whether the property may hold several values, so that ``PropertyChoice/both`` makes sense.
    public var multiValued: Bool
}

extension VDirSync {
    /// The conflict of `id` (the file's name, with or without `.vcf`, or the card's UID) in `folder`, and
    /// each of its properties with both sides' lines, for a person to choose from.
    /// - Throws: `CardDAVError` when there is no such conflict or its files cannot be read.
    public static func conflictingProperties(_ id: String, in folder: String) throws -> (
        conflict: SyncConflict, properties: [ConflictingProperty]
    ) {
        let conflict = try matching(id, in: folder)
        let (copy, current) = try sides(of: conflict, in: folder)
        let mine = CardMerge.lines(CardLines(copy[...]))
        let theirs = CardMerge.lines(CardLines(current[...]))
        let text = { (lines: [(key: String, raw: [UInt8])]?) in
            (lines ?? []).map { CardLines($0.raw[...]).unfolded(0) }
        }
        let properties = conflict.properties.map { name in
            ConflictingProperty(
                name: name, mine: text(mine[name]), theirs: text(theirs[name]),
                multiValued: CardMerge.multiValued.contains(name))
        }
        return (conflict, properties)
    }

    /// Settles the conflict of `id` in `folder` property by property: each property named in `choices`
    /// takes yours, the server's, or both sides' lines (a property not named keeps the server's). Every
    /// other change, of both sides, stays; the kept copy goes. Returns the conflict settled.
    ///
    /// ```swift no-compile
    /// try VDirSync.resolve("bob.vcf", in: "family", choosing: ["EMAIL": .both, "NOTE": .mine])
    /// ```
    @discardableResult
    public static func resolve(_ id: String, in folder: String, choosing choices: [String: PropertyChoice]) throws
        -> SyncConflict
    {
        let conflict = try matching(id, in: folder)
        let path = folder + "/" + conflict.file
        do {
            let wanted = choices.filter { conflict.properties.contains($0.key) && $0.value != .theirs }
            if !wanted.isEmpty {
                let (copy, current) = try sides(of: conflict, in: folder)
                try AtomicFiles.replace(path, with: CardMerge.choosing(wanted, from: copy, into: current))
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

    /// The open conflict of `id` (file name, with or without `.vcf`, or UID) in `folder`.
    static func matching(_ id: String, in folder: String) throws -> SyncConflict {
        let open = try conflicts(in: folder)
        let match = open.last { c in
            c.file == id || c.file == id + ".vcf"
                || FileManager.default.contents(atPath: folder + "/" + c.file).flatMap { uid(of: [UInt8]($0)) } == id
        }
        guard let match else {
            let listed = open.map(\.file).joined(separator: ", ")
            throw CardDAVError.local(
                path: folder, message: "no conflict for '\(id)'" + (listed.isEmpty ? "" : " (conflicts: \(listed))"))
        }
        return match
    }

    /// The kept copy's bytes and the file's.
    static func sides(of conflict: SyncConflict, in folder: String) throws -> (copy: [UInt8], current: [UInt8]) {
        let path = folder + "/" + conflict.file
        guard let copy = FileManager.default.contents(atPath: conflict.copy),
            let current = FileManager.default.contents(atPath: path)
        else { throw CardDAVError.local(path: path, message: "the file or its kept copy cannot be read") }
        return ([UInt8](copy), [UInt8](current))
    }
}
