import Foundation

/// The one rule for files that hold people's data (saved indexes, outboxes and their journal, drafts):
/// whatever the umask, a file this tool creates is readable by its owner only (0600) and a folder it
/// creates is open to its owner only (0700). Existing files and folders keep their modes.
///
/// ```swift
/// try PrivateFiles.makeDirectories("/tmp/out/drafts")       // each folder it creates: 0700
/// let fd = PrivateFiles.open("/tmp/out/drafts/a.eml", O_WRONLY | O_CREAT | O_EXCL)   // 0600
/// ```
package enum PrivateFiles {
    /// Mode of the files created.
    package static let fileMode: mode_t = 0o600
    /// Mode of the folders created.
    package static let directoryMode: mode_t = 0o700

    /// `open(2)` of `path` with `flags` (`O_CLOEXEC` added); a file it creates is 0600 whatever the umask.
    /// Returns the descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
            let fd = Glibc.open(path, flags | O_CLOEXEC, fileMode)
        #else
            let fd = Darwin.open(path, flags | O_CLOEXEC, fileMode)
        #endif
        // The umask can only take bits away; an owner-only umask (0277 and the like) is put right here
        // for a file this call created (O_EXCL: it is new).
        if fd >= 0, flags & O_CREAT != 0, flags & O_EXCL != 0 { _ = fchmod(fd, fileMode) }
        return fd
    }

    /// `mkdir(2)` of one folder, 0700 whatever the umask. Returns 0, or -1 with `errno` set (EEXIST when
    /// something is there).
    package static func makeDirectory(_ path: String) -> Int32 {
        guard mkdir(path, directoryMode) == 0 else { return -1 }
        _ = chmod(path, directoryMode)
        return 0
    }

    /// Creates `path` and the folders above it that are missing, each 0700; an existing folder is fine.
    /// Throws the system's reason and the folder it concerns.
    package static func makeDirectories(_ path: String) throws(PrivateFilesError) {
        var st = stat()
        if stat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else { throw PrivateFilesError(path: path, code: ENOTDIR) }
            return
        }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex {
            try makeDirectories(String(trimmed[..<slash]))
        }
        if makeDirectory(trimmed) != 0 && errno != EEXIST { throw PrivateFilesError(path: trimmed, code: errno) }
    }
}

/// A file or folder that could not be created: which, and the system's reason.
package struct PrivateFilesError: Error, CustomStringConvertible {
    package var path: String
    package var code: Int32
    /// The system's words for `code` (`strerror`), never a bare number.
    package var reason: String { String(cString: strerror(code)) }
    package var description: String { "\(path): \(reason)" }
}
