import ContactsCore
import Foundation
import Support

extension BookIdentity {
    /// The identity of an address book read from `sources`: one file's own identity (``init(path:)``);
    /// for a vdir folder or several sources, one identity over every file read — each card file's name,
    /// device and inode, size, times and content hash, in the order they are read. The size is then the
    /// sum, the times the latest, the device and inode the first source's: a card file added, changed,
    /// replaced or removed, or a source added or moved, gives another identity. Standard input has none
    /// (throws ``SavedListError/unsupported(_:)``).
    ///
    /// ```swift
    /// let identity = try BookIdentity(sources: [.vdir("contacts/family"), .file("work.vcf")])
    /// ```
    public init(sources: [ContactSource]) throws {
        if sources.count == 1, case .file(let path) = sources[0] {
            try self.init(path: path)
            return
        }
        var files: [(name: String, path: String)] = []
        var first: (device: UInt64, inode: UInt64)?
        for source in sources {
            switch source {
            case .standardInput:
                throw SavedListError.unsupported("standard input has no saved index")
            case .file(let path):
                files.append((URL(fileURLWithPath: path).standardizedFileURL.path, path))
            case .vdir(let folder):
                if first == nil {
                    var st = stat()
                    guard stat(folder, &st) == 0 else {
                        throw SavedListError.io(path: folder, message: String(cString: strerror(errno)))
                    }
                    first = (UInt64(truncatingIfNeeded: st.st_dev), UInt64(truncatingIfNeeded: st.st_ino))
                }
                let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
                let absolute = URL(fileURLWithPath: base).standardizedFileURL.path
                for name in try VDir(path: folder).readCardFileNames() {
                    files.append((absolute + "/" + name, base + "/" + name))
                }
            }
        }
        var size: UInt64 = 0
        var modified: Int64 = 0
        var changed: Int64 = 0
        var hasher = ContentHash()
        for file in files {
            let one = try BookIdentity(path: file.path)
            if first == nil { first = (one.device, one.inode) }
            size += one.size
            modified = max(modified, one.modified)
            changed = max(changed, one.changed)
            var record = Array(file.name.utf8) + [0]
            for word in [
                one.device, one.inode, one.size, UInt64(bitPattern: one.modified),
                UInt64(bitPattern: one.changed), one.hash,
            ] {
                withUnsafeBytes(of: word.littleEndian) { record += $0 }
            }
            record.withUnsafeBytes { hasher.add($0) }
        }
        self.init(
            size: size, modified: modified, hash: hasher.value, device: first?.device ?? 0, inode: first?.inode ?? 0,
            changed: changed)
    }
}
