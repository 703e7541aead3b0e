import Foundation
import Support

extension Attachment {
    /// The file at `path`, named by its last path component (non-ASCII names are kept: they are written
    /// with RFC 2231), its media type guessed from its content and extension (``MediaType/guess(_:filename:)``).
    /// The file is looked at now and read again only while a message is written (``Content/file(_:)``): a
    /// batch of 100 drafts with 5 MB each holds none of them.
    ///
    /// ```swift
    /// let plan = try Attachment(contentsOfFile: "Übersicht.pdf")   // application/pdf, "Übersicht.pdf"
    /// ```
    /// - Throws: `ComposerError.io` naming the file when it is missing, not a plain file, or unreadable.
    public init(contentsOfFile path: String) throws(ComposerError) {
        let mapped = try AttachedFile.map(path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let st = mapped.status
        let file = AttachedFile(
            path: path, size: Int(st.st_size), device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
            modified: AttachedFile.modificationTime(st))
        self.init(filename: name, mediaType: MediaType.guess(mapped.bytes, filename: name), data: [])
        content = .file(file)
    }

    /// Calls `body` with the content's bytes: those in memory, or the attached file mapped for the call
    /// (and unmapped after it).
    /// - Throws: `ComposerError.io` when the file cannot be read or is no longer the file attached (its
    ///   size, inode or modification time changed).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ComposerError) -> R) throws(ComposerError) -> R {
        switch content {
        case .bytes(let bytes):
            let result = bytes.withUnsafeBytes { raw in Result { () throws(ComposerError) -> R in try body(raw) } }
            return try result.get()
        case .file(let file):
            let mapped = try AttachedFile.map(file.path)
            let st = mapped.status
            guard Int(st.st_size) == file.size, UInt64(st.st_ino) == file.inode, UInt64(st.st_dev) == file.device,
                AttachedFile.modificationTime(st) == file.modified
            else { throw .io(path: file.path, message: "the attachment changed since it was attached") }
            return try withExtendedLifetime(mapped) { () throws(ComposerError) -> R in try body(mapped.bytes) }
        }
    }

    /// The content's bytes (a file is read now).
    /// - Throws: when the file cannot be read or changed since it was attached.
    public func contents() throws(ComposerError) -> [UInt8] {
        try withBytes { (raw: UnsafeRawBufferPointer) throws(ComposerError) -> [UInt8] in Array(raw) }
    }
}

extension AttachedFile {
    /// `path` mapped read-only (a plain file only; a FIFO or device is refused without waiting on it).
    static func map(_ path: String) throws(ComposerError) -> MappedFile {
        do { return try MappedFile(path: path, advice: MADV_SEQUENTIAL) } catch {
            switch error {
            case .notRegularFile: throw .io(path: path, message: "cannot attach it: not a plain file")
            default: throw .io(path: path, message: "cannot read the attachment: \(error.reason)")
            }
        }
    }

    static func modificationTime(_ st: stat) -> Int64 {
        #if canImport(Darwin)
            return Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
            return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
    }
}
