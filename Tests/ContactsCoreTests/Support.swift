import Foundation
import Testing

@testable import ContactsCore

/// Loads a fixture shipped with the test bundle.
func fixture(_ name: String) throws -> Data {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
        "fixture \(name) missing from the test bundle")
    return try Data(contentsOf: url)
}

/// Reads a fixture into an address book.
func book(_ name: String) throws -> AddressBook {
    AddressBook(data: try fixture(name), fileName: name)
}

/// Reads vCard text (lines joined with CRLF).
func book(lines: [String], fileName: String = "test.vcf") -> AddressBook {
    AddressBook(data: Data((lines.joined(separator: "\r\n") + "\r\n").utf8), fileName: fileName)
}

/// The 1×1 PNG the fixtures embed.
let tinyPNG: Data = {
    let hex =
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        + "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201"
        + "e5f0a3a90000000049454e44ae426082"
    var bytes: [UInt8] = []
    var it = hex.makeIterator()
    while let a = it.next(), let b = it.next() { bytes.append(UInt8(String([a, b]), radix: 16) ?? 0) }
    return Data(bytes)
}()

/// A small deterministic generator (xorshift) for the fuzz tests.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
