import Foundation
import Support
import TestSupport
import Testing

/// XXH64 as the reference implementation computes it, whole or fed in pieces, and of a file.
@Suite struct ContentHashTests {
    func hash(_ bytes: [UInt8]) -> UInt64 {
        var h = ContentHash()
        h.add(bytes)
        return h.value
    }

    /// The reference vectors (xxHash's own and python-xxhash's documented one).
    @Test func referenceValues() {
        #expect(hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
        let long = (0..<4).flatMap { _ in (0...255).map { UInt8($0) } } + Array("xyz".utf8)
        #expect(hash(long) == 0xE146_CB31_B65B_C21A)
    }

    @Test func piecesGiveTheValueOfTheWhole() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<5_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let whole = hash(bytes)
        for piece in [1, 3, 7, 8, 31, 32, 33, 100, 4_096] {
            var h = ContentHash()
            var i = 0
            while i < bytes.count {
                h.add(Array(bytes[i..<min(i + piece, bytes.count)]))
                i += piece
            }
            #expect(h.value == whole, "pieces of \(piece)")
        }
    }

    @Test func ofAFileIsOfEveryByte() throws {
        let path = Scratch.path("hashed", suffix: ".bin").path
        var bytes = [UInt8](repeating: 0x41, count: (3 << 20) + 17)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let first = try #require(ContentHash.ofFile(fd))
        #expect(first.bytes == UInt64(bytes.count) && first.hash == hash(bytes))
        // One byte anywhere (here in the middle of the file, far from either end) changes it.
        bytes[bytes.count / 2 + 12_345] = 0x42
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd2 = open(path, O_RDONLY)
        defer { close(fd2) }
        #expect(try #require(ContentHash.ofFile(fd2)).hash != first.hash)
    }
}
