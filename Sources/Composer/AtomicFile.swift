import Foundation
import Support

/// Crash-safe file writes: a new file appears complete or not at all, and never replaces another file.
/// Every file and folder made here holds people's data (drafts, outbox messages, the journal): it is
/// created owner-only (``PrivateFiles``: 0600 files, 0700 folders) whatever the umask.
enum AtomicFile {
    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Writes `bytes` to a temporary file, fsyncs it, then hard-links it to the first free name
    /// `<base>.<ext>`, `<base>-2.<ext>`, … (link fails instead of overwriting) and fsyncs the directory.
    static func writeNew(_ bytes: [UInt8], directory: URL, base: String, ext: String) throws -> URL {
        do {
            let path = try AtomicFiles.create(in: directory.path, with: bytes) { n in
                n == 1 ? "\(base).\(ext)" : "\(base)-\(n).\(ext)"
            }
            return URL(fileURLWithPath: path)
        } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    static func writeAndSync(_ bytes: [UInt8], path: String, flags: Int32) throws {
        do { try AtomicFiles.writeAndSync(bytes, path: path, flags: flags) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        do { try AtomicFiles.writeAll(fd, bytes, path: path) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    static func syncDirectory(_ path: String) { AtomicFiles.syncDirectory(path) }

    static func ensureDirectory(_ url: URL) throws {
        do { try PrivateFiles.makeDirectories(url.path) } catch {
            throw ComposerError.io(path: error.path, message: "cannot create directory: \(error.reason)")
        }
    }

    /// A file-name-safe slug of `text` (letters and digits of any script, `-`): at most 40 characters and
    /// `maxSlugBytes` bytes of UTF-8, cut between characters (grapheme clusters). A cluster that alone is
    /// longer (a letter under hundreds of combining marks) is kept as its base letter only, so a file name
    /// never exceeds the file system's 255 bytes; `writeNew` keeps names unique.
    static func slug(_ text: String) -> String {
        var out = ""
        var dash = false
        var characters = 0
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                var piece = String(ch)
                if piece.utf8.count > maxClusterBytes, let base = ch.unicodeScalars.first {
                    piece = String(Character(base))
                }
                if out.utf8.count + piece.utf8.count > maxSlugBytes { break }
                out += piece
                dash = false
                characters += 1
            } else if !dash && !out.isEmpty {
                if out.utf8.count + 1 > maxSlugBytes { break }
                out.append("-")
                dash = true
                characters += 1
            }
            if characters >= 40 { break }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    /// Room for a slug in a 255-byte file name, with a `-NNNN` suffix, the extension and a prefix to spare.
    static let maxSlugBytes = 160
    /// Longest single character kept whole in a slug.
    static let maxClusterBytes = 32
}

extension AtomicFile {
    /// Opens `<base>.<ext>` (or `<base>-2.<ext>`, … when that is not a plain file of its own) for appending,
    /// creating it exclusively when absent. Never follows a symbolic link, never blocks on a FIFO.
    static func openForAppending(directory: URL, base: String, ext: String) throws -> (Int32, String) {
        for n in 1...1000 {
            let path = directory.path + "/" + (n == 1 ? "\(base).\(ext)" : "\(base)-\(n).\(ext)")
            var fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 && errno == ENOENT {
                fd = PrivateFiles.open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW)
                if fd >= 0 { syncDirectory(directory.path) }
            }
            if fd < 0 {
                // ELOOP: a symbolic link; ENXIO: a FIFO nobody reads; EEXIST: created meanwhile.
                if [ELOOP, ENXIO, EEXIST, EISDIR, EACCES, ENOENT].contains(errno) { continue }
                throw ComposerError.io(path: path, message: errnoText())
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 {
                _ = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND)
                return (fd, path)
            }
            close(fd)
        }
        throw ComposerError.io(path: directory.path, message: "no usable \(base).\(ext) file name")
    }
}
