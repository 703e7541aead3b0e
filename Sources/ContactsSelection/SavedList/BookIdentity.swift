import Foundation
import Support

/// The address book a saved list was built from: which file it is (device and inode), its size, its
/// modification and status-change times, and a hash of every byte of it (XXH64, at memory speed). A saved
/// list is used only when all of them are unchanged: a book edited in place and given back its old size and
/// modification time (`cp -p`, `rsync -t`, `touch -d`, a restore from backup) still has a new status-change
/// time, which no program can set back, and a new hash.
public struct BookIdentity: Sendable, Hashable {
    public var size: UInt64
    /// Nanoseconds since 1970.
    public var modified: Int64
    public var hash: UInt64
    /// The device and inode of the file (another file put in its place has another inode).
    public var device: UInt64
    public var inode: UInt64
    /// Status-change time (`st_ctime`), nanoseconds since 1970: set by the system on every write, rename,
    /// `chmod` or `utime`, and never set back.
    public var changed: Int64

    public init(size: UInt64, modified: Int64, hash: UInt64, device: UInt64 = 0, inode: UInt64 = 0, changed: Int64 = 0)
    {
        self.size = size
        self.modified = modified
        self.hash = hash
        self.device = device
        self.inode = inode
        self.changed = changed
    }

    /// The identity of the file at `path` now (every byte of it read once and hashed).
    ///
    /// ```swift
    /// let identity = try BookIdentity(path: "contacts.vcf")
    /// identity.size   // bytes
    /// ```
    public init(path: String) throws {
        let (fd, st) = try openForReading(path)
        defer { close(fd) }
        size = UInt64(st.st_size)
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        #if canImport(Darwin)
            modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        guard let (hash, bytes) = ContentHash.ofFile(fd) else {
            throw SavedListError.io(path: path, message: String(cString: strerror(errno)))
        }
        guard bytes == size else {
            throw SavedListError.io(
                path: path, message: "the file changed while it was read (\(size) bytes, read \(bytes))")
        }
        self.hash = hash
    }
}

extension BookIdentity {
    /// Whether the file at `path` is still this one, unchanged by what its status tells (device, inode,
    /// size, modification and status-change times; no byte is read: a write always sets a new status-change
    /// time).
    func sameStatus(asFile path: String) -> Bool {
        guard let (fd, st) = try? openForReading(path) else { return false }
        close(fd)
        #if canImport(Darwin)
            let modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            let changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
            let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            let changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        return UInt64(st.st_size) == size && modified == self.modified && changed == self.changed
            && UInt64(truncatingIfNeeded: st.st_dev) == device && UInt64(truncatingIfNeeded: st.st_ino) == inode
    }
}

/// `path` opened read-only, with its status; the caller closes it.
private func openForReading(_ path: String) throws -> (fd: Int32, status: stat) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw SavedListError.io(path: path, message: String(cString: strerror(errno))) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
        let message = String(cString: strerror(errno))
        close(fd)
        throw SavedListError.io(path: path, message: message)
    }
    return (fd, st)
}
