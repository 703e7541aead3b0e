import Foundation
import Support
import TestSupport
import Testing

/// A regular file mapped read-only: its bytes and status; anything else refused, naming the path.
@Suite struct MappedFileTests {
    func statusOf(_ path: String) -> stat {
        var st = stat()
        _ = stat(path, &st)
        return st
    }

    @Test func aFilesBytesAndStatus() throws {
        let path = Scratch.path("mapped", suffix: ".bin").path
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = statusOf(path)
        for advice in [nil, MADV_SEQUENTIAL, MADV_RANDOM] {
            let file = try MappedFile(path: path, advice: advice)
            #expect(Array(file.bytes) == bytes, "advice \(String(describing: advice))")
            #expect(file.status.st_size == 20_000)
            #expect(file.status.st_ino == expected.st_ino && file.status.st_dev == expected.st_dev)
            #expect(file.status.st_mtim.tv_sec == expected.st_mtim.tv_sec)
            #expect(file.status.st_mtim.tv_nsec == expected.st_mtim.tv_nsec)
            #expect(file.status.st_ctim.tv_nsec == expected.st_ctim.tv_nsec)
        }
        // The mapping keeps the bytes it was given after the file is removed.
        let file = try MappedFile(path: path)
        #expect(unlink(path) == 0)
        #expect(Array(file.bytes) == bytes)
    }

    @Test func anEmptyFileIsAnEmptyMapping() throws {
        let path = Scratch.path("mapped-empty", suffix: ".bin").path
        try Data().write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path, advice: MADV_SEQUENTIAL)
        #expect(file.bytes.isEmpty)
        #expect(file.bytes.baseAddress == nil)
        #expect(file.status.st_size == 0)
        #expect(file.status.st_ino == statusOf(path).st_ino)
    }

    @Test func aFolderIsRefusedByName() throws {
        let folder = try Scratch.directory("mapped-folder").path
        #expect(throws: MappedFileError.notRegularFile(path: folder)) { try MappedFile(path: folder) }
        do { _ = try MappedFile(path: folder) } catch {
            #expect(error.description == folder + ": not a regular file")
        }
    }

    /// A FIFO with no writer is refused at once (the open does not wait for a writer).
    @Test func aFIFOIsRefusedByName() throws {
        let path = Scratch.path("mapped-fifo", suffix: "").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: MappedFileError.notRegularFile(path: path)) { try MappedFile(path: path) }
    }

    @Test func aMissingFileGivesTheSystemsReason() throws {
        let path = Scratch.path("mapped-missing", suffix: ".bin").path
        #expect(throws: MappedFileError.cannotOpen(path: path, code: ENOENT)) { try MappedFile(path: path) }
        do { _ = try MappedFile(path: path) } catch {
            #expect(error.path == path)
            #expect(error.description == path + ": No such file or directory")
        }
    }
}
