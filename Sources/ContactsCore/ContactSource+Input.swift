import Foundation

extension ContactSource {
    /// Whether `path` is read as a stream: standard input (`-`), or a file that is not a regular file (a
    /// FIFO such as the shell's `<(…)`, a character device); such input has no size to map and no identity
    /// to index.
    ///
    /// ```swift
    /// ContactSource.isStream("-")                // true
    /// ContactSource.isStream("contacts.vcf")     // false
    /// ```
    public static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        let kind = st.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Fails as reading the file at `path` would when there is none (``ContactsCoreError/noSuchFile(path:)``)
    /// or it is a folder (``ContactsCoreError/isDirectory(path:)``).
    public static func checkFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ContactsCoreError.noSuchFile(path: path)
        }
        if isDirectory.boolValue { throw ContactsCoreError.isDirectory(path: path) }
    }

    /// The whole input at `path`: standard input for `-`, a pipe or device read to its end (Foundation
    /// refuses to map one), else the file. Throws ``ContactsCoreError/noSuchFile(path:)``,
    /// ``ContactsCoreError/isDirectory(path:)`` or ``ContactsCoreError/cannotRead(path:reason:)``.
    ///
    /// ```swift
    /// let data = try ContactSource.wholeInput("contacts.vcf")
    /// ```
    public static func wholeInput(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        try checkFile(path)
        do {
            if isStream(path) {
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    throw ContactsCoreError.cannotRead(path: path, reason: String(cString: strerror(errno)))
                }
                let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                return try handle.readToEnd() ?? Data()
            }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ContactsCoreError {
            throw error
        } catch {
            throw ContactsCoreError.cannotRead(path: path, reason: error.localizedDescription)
        }
    }
}
