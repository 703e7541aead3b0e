import Foundation

/// Files replaced whole or not at all: the new bytes go to a temporary file in the same folder, which is
/// synced to disk and renamed over the old name, and the folder is synced; a crash at any point leaves the
/// old file or the new one, never a mix. Temporary names start with `.` and end with `.tmp`, which readers
/// of vdir folders and mail folders skip.
///
/// ```swift
/// try AtomicFiles.replace("/tmp/book.vcf", with: Array("BEGIN:VCARD\r\n".utf8))
/// ```
package enum AtomicFiles {
    /// Writes `bytes` at `path`: a new file is created owner-only (``PrivateFiles``); an existing one keeps
    /// its permissions. Throws the system's reason and the file it concerns. `durable` false leaves syncing
    /// to the caller, who writes many files and then makes them all durable at once
    /// (``syncFileSystem(of:)``) before recording that they were written.
    package static func replace(
        _ path: String, with bytes: [UInt8], durable: Bool = true
    ) throws(PrivateFilesError) {
        let folder = directory(of: path)
        let temporary = temporaryName(for: path)
        var st = stat()
        let existingMode: mode_t? = stat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
        do throws(PrivateFilesError) {
            try writeAndSync(
                bytes, path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: existingMode, sync: durable)
            guard rename(temporary, path) == 0 else { throw PrivateFilesError(path: path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { syncDirectory(folder) }
    }

    /// ``replace(_:with:durable:)`` with the bytes written part by part by `body`, through the `write` it is
    /// given (a file of any size, never whole in memory). An error thrown by `body` leaves the old file.
    package static func replace(
        _ path: String, durable: Bool = true, writing body: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        let folder = directory(of: path)
        let temporary = temporaryName(for: path)
        var st = stat()
        let existingMode: mode_t? = stat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
        do {
            let fd = PrivateFiles.open(temporary, O_WRONLY | O_CREAT | O_EXCL)
            guard fd >= 0 else { throw PrivateFilesError(path: temporary, code: errno) }
            defer { close(fd) }
            if let existingMode, fchmod(fd, existingMode) != 0 { throw PrivateFilesError(path: temporary, code: errno) }
            try body { bytes in try writeAll(fd, bytes, path: temporary) }
            guard !durable || fsync(fd) == 0 else { throw PrivateFilesError(path: temporary, code: errno) }
            guard rename(temporary, path) == 0 else { throw PrivateFilesError(path: path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { syncDirectory(folder) }
    }

    /// Creates `path` with `bytes` (owner-only) and fails with `EEXIST` when something is there already:
    /// the bytes are written to a temporary file first and linked to the name, so the name never holds a
    /// partial file.
    package static func create(_ path: String, with bytes: [UInt8]) throws(PrivateFilesError) {
        _ = try create(in: directory(of: path), with: bytes, named: { _ in baseName(of: path) }, tries: 1)
    }

    /// Creates a file with `bytes` (owner-only) in `folder` under the first free name of `name(1)`,
    /// `name(2)`, … (at most `tries`), and returns its path: written once to a temporary file, then linked
    /// to each name in turn (a link never replaces a file), and the folder synced. Past `tries`, throws
    /// `EEXIST` for the last name.
    ///
    /// ```swift
    /// let path = try AtomicFiles.create(in: "/tmp", with: [0x0A], named: { $0 == 1 ? "a.eml" : "a-\($0).eml" })
    /// ```
    package static func create(
        in folder: String, with bytes: [UInt8], named name: (Int) -> String, tries: Int = .max
    ) throws(PrivateFilesError) -> String {
        let temporary = temporaryName(for: folder + "/" + name(1))
        defer { unlink(temporary) }
        try writeAndSync(bytes, path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
        var n = 1
        while true {
            let path = folder + "/" + name(n)
            if link(temporary, path) == 0 {
                syncDirectory(folder)
                return path
            }
            guard errno == EEXIST, n < tries else { throw PrivateFilesError(path: path, code: errno) }
            n += 1
        }
    }

    /// Removes `path` and syncs its folder; a file that is not there is no error.
    package static func remove(_ path: String) throws(PrivateFilesError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw PrivateFilesError(path: path, code: errno) }
        syncDirectory(directory(of: path))
    }

    /// Writes `bytes` to a file opened with `flags` (0600 when created, or `mode`) and syncs it (unless
    /// `sync` is false).
    package static func writeAndSync(
        _ bytes: [UInt8], path: String, flags: Int32, mode: mode_t? = nil, sync: Bool = true
    ) throws(PrivateFilesError) {
        let fd = PrivateFiles.open(path, flags)
        guard fd >= 0 else { throw PrivateFilesError(path: path, code: errno) }
        defer { close(fd) }
        if let mode, fchmod(fd, mode) != 0 { throw PrivateFilesError(path: path, code: errno) }
        try writeAll(fd, bytes, path: path)
        guard !sync || fsync(fd) == 0 else { throw PrivateFilesError(path: path, code: errno) }
    }

    /// Writes every byte to `fd` (again after `EINTR` and short writes).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PrivateFilesError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure != 0 { throw PrivateFilesError(path: path, code: failure) }
    }

    /// Syncs a folder, so that a rename or a new name in it survives a crash (best effort).
    package static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Makes files written with `durable: false` (and names removed) in `folder` durable: a few files are
    /// synced one by one and then the folder; many at once by ``syncFileSystem(of:)``, whose one flush is
    /// cheaper than thousands of `fsync` calls but also flushes whatever else the file system holds.
    package static func makeDurable(_ paths: [String], in folder: String) {
        guard paths.count <= 64 else {
            syncFileSystem(of: folder)
            return
        }
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                close(fd)
            }
        }
        syncDirectory(folder)
    }

    /// Makes everything written to the file system holding `path` durable (`syncfs`, else `sync`): one flush
    /// after many files written with `durable: false`.
    package static func syncFileSystem(of path: String) {
        // glibc declares syncfs only with _GNU_SOURCE, which Swift's Glibc module does not set.
        typealias SyncFS = @convention(c) (Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                defer { close(fd) }
                if unsafeBitCast(symbol, to: SyncFS.self)(fd) == 0 { return }
            }
        }
        sync()
    }

    /// `.<name>-<random>.tmp` beside `path`, the name cut to 200 bytes so that a name of the longest length
    /// a file system takes still has a temporary one.
    private static func temporaryName(for path: String) -> String {
        var name = Substring(baseName(of: path))
        while name.utf8.count > 200 { name = name.dropLast() }
        return directory(of: path) + "/.\(name)-\(UInt64.random(in: 0...UInt64.max)).tmp"
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

extension AtomicFiles {
    /// Removes the temporary files (``replace(_:with:durable:)``, ``create(_:with:)``) a process killed
    /// mid-write left in `folder`: names `.<name>-<digits>.tmp`. Other files are left alone.
    package static func removeTemporaries(in folder: String) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("."), name.hasSuffix(".tmp"), let dash = name.lastIndex(of: "-") else { continue }
            let digits = name[name.index(after: dash)..<name.index(name.endIndex, offsetBy: -4)]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
            unlink(folder + "/" + name)
        }
    }
}
