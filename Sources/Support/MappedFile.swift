import Foundation

/// A regular file mapped read-only and private into memory, unmapped when the last holder lets go: the one
/// way a file is mapped (a vCard file streamed or read at one card, a saved list's index). The file is
/// opened, its status taken, anything but a regular file refused (a folder, a FIFO, a device: the open does
/// not wait for a FIFO's writer), and its bytes mapped; an empty file is an empty mapping. `advice`, when
/// given, is passed to the system for the whole mapping (`madvise`), which may ignore it.
///
/// ```swift
/// let file = try MappedFile(path: "contacts.vcf", advice: MADV_SEQUENTIAL)
/// file.bytes.count == Int(file.status.st_size)   // true
/// file.status.st_ino                              // the file's inode when it was mapped
/// ```
package final class MappedFile: @unchecked Sendable {
    /// The file's bytes (no base address for an empty file); valid as long as this object lives.
    package let bytes: UnsafeRawBufferPointer
    /// The status of the open file when it was mapped (`fstat`): size, device, inode, times.
    package let status: stat

    package init(path: String, advice: Int32? = nil) throws(MappedFileError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, code: errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotOpen(path: path, code: errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(path: path) }
        status = st
        let size = Int(st.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .cannotMap(path: path, code: errno)
        }
        if let advice { _ = madvise(base, size, advice) }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

/// Why a file could not be mapped: which file, and the system's reason.
package enum MappedFileError: Error, Equatable, CustomStringConvertible {
    /// `open` or `fstat` failed with `code` (`errno`).
    case cannotOpen(path: String, code: Int32)
    /// The path names a folder, a FIFO, a device or a socket.
    case notRegularFile(path: String)
    /// `mmap` failed with `code` (`errno`).
    case cannotMap(path: String, code: Int32)

    package var path: String {
        switch self {
        case .cannotOpen(let path, _), .notRegularFile(let path), .cannotMap(let path, _): return path
        }
    }

    /// The system's words for what failed (`strerror`), or "not a regular file".
    package var reason: String {
        switch self {
        case .cannotOpen(_, let code), .cannotMap(_, let code): return String(cString: strerror(code))
        case .notRegularFile: return "not a regular file"
        }
    }

    package var description: String { "\(path): \(reason)" }
}
