import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Attachment {
    /// The file at `path`, named by its last path component (non-ASCII names are kept: they are written
    /// with RFC 2231), its media type guessed from its content and extension (``MediaType/guess(_:filename:)``).
    ///
    /// ```swift
    /// let plan = try Attachment(contentsOfFile: "Übersicht.pdf")   // application/pdf, "Übersicht.pdf"
    /// ```
    /// - Throws: `ComposerError.io` naming the file when it is missing, not a plain file, or unreadable.
    public init(contentsOfFile path: String) throws(ComposerError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .io(path: path, message: "cannot read the attachment: \(AtomicFile.errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .io(path: path, message: "cannot attach it: not a plain file")
        }
        var data = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw .io(
                    path: path, message: "cannot read the attachment: \(n < 0 ? AtomicFile.errnoText() : "it shrank")")
            }
            offset += n
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        self.init(filename: name, mediaType: MediaType.guess(data, filename: name), data: data)
    }
}
