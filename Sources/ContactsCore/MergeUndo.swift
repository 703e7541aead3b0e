import Foundation
import Support

/// What a merge changed, enough to put every byte back: for each file of the source it touched, the hash
/// of the file the merge left (nil: the merge removed it) and the byte ranges it replaced, with their old
/// bytes. ``restore()`` puts them back only when every file is still as the merge left it; a file changed
/// since is an error and nothing is written. Saved as JSON (``json()``, ``init(json:file:)``).
///
/// ```swift
/// let undo = try ContactEditor(source: .vdir("contacts")).merge(ids: ["ada", "ada-2"])
/// let saved = undo.json()
/// try MergeUndo(json: Array(saved.utf8), file: "undo.json").restore()
/// ```
public struct MergeUndo: Sendable, Equatable {
    /// One replaced range of a file: at `offset` of the merged file, `afterCount` bytes that were `before`.
    public struct Hunk: Sendable, Equatable {
        public var offset: Int
        public var afterCount: Int
        public var before: [UInt8]
    }

    /// One file the merge changed: `name` inside the vdir ("" for the vCard file itself).
    public struct FileChange: Sendable, Equatable {
        public var name: String
        /// ``hash(_:)`` of the file after the merge; nil when the merge removed the file.
        public var afterHash: String?
        /// In increasing offsets of the merged file.
        public var hunks: [Hunk]
    }

    /// The vCard file or vdir folder merged in.
    public var source: ContactSource
    /// The contact that got the others' values.
    public var kept: String
    /// The contacts merged into it (their cards removed).
    public var merged: [String]
    public var files: [FileChange]

    public init(source: ContactSource, kept: String, merged: [String], files: [FileChange]) {
        self.source = source
        self.kept = kept
        self.merged = merged
        self.files = files
    }

    /// The hash that tells a file changed since the merge (XXH64 and the length, as hex).
    public static func hash(_ bytes: [UInt8]) -> String {
        var h = ContentHash()
        bytes.withUnsafeBytes { h.add($0) }
        return String(h.value, radix: 16) + "-" + String(bytes.count)
    }

    /// `bytes` with the cards at `cards[k]` replaced by `replacements[k]` (empty: removed), and the hunks
    /// that turn the result back into `bytes`.
    static func rewrite(
        _ bytes: [UInt8], cards: [Range<Int>], replacements: [Int: [UInt8]]
    ) -> (after: [UInt8], hunks: [Hunk]) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var hunks: [Hunk] = []
        var cursor = 0
        for k in replacements.keys.sorted() {
            let range = cards[k]
            out += bytes[cursor..<range.lowerBound]
            let replacement = replacements[k] ?? []
            hunks.append(Hunk(offset: out.count, afterCount: replacement.count, before: Array(bytes[range])))
            out += replacement
            cursor = range.upperBound
        }
        out += bytes[cursor...]
        return (out, hunks)
    }

    /// Puts back every byte the merge changed, each file written atomically (a removed file created
    /// again). Throws ``ContactsCoreError/cannotWrite(path:reason:)`` before writing anything when a file is
    /// no longer as the merge left it.
    public func restore() throws {
        let editor = try ContactEditor(source: source)
        var writes: [(path: String, bytes: [UInt8])] = []
        for change in files {
            guard MergeUndo.safeName(change.name) else {
                throw ContactsCoreError.invalidEdit(
                    field: "undo", message: "'\(change.name)' is not a file of \(source)")
            }
            let path = editor.path(ofFile: change.name)
            let current = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            let unchanged = change.afterHash == nil ? current == nil : current.map(Self.hash) == change.afterHash
            guard unchanged else {
                throw ContactsCoreError.cannotWrite(
                    path: path, reason: "it changed since the merge; nothing was restored")
            }
            var bytes = current ?? []
            for hunk in change.hunks.reversed() {
                guard hunk.offset >= 0, hunk.afterCount >= 0, hunk.offset + hunk.afterCount <= bytes.count else {
                    throw ContactsCoreError.invalidEdit(field: "undo", message: "a change lies outside \(path)")
                }
                bytes.replaceSubrange(hunk.offset..<(hunk.offset + hunk.afterCount), with: hunk.before)
            }
            writes.append((path, bytes))
        }
        for (path, bytes) in writes { try editor.write { try AtomicFiles.replace(path, with: bytes) } }
    }

    /// A file name inside the vdir (or "" for the vCard file): one `SafeFileName` leaves as it is.
    static func safeName(_ name: String) -> Bool { name.isEmpty || SafeFileName.isSafe(name) }
}
