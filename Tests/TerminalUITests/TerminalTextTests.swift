import TestSupport
import Testing

@testable import TerminalUI

/// The byte scan that decides whether text needs escaping for a terminal agrees with the scalar rule.
@Suite struct TerminalTextTests {
    @Test func byteScanAgreesWithTheScalarRule() {
        var rng = SplitMix64(seed: 5)
        // Scalars around every escaped range, and others of each UTF-8 length.
        let edges: [UInt32] = [
            0x00, 0x09, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xE9, 0x2029, 0x202A, 0x202E, 0x202F,
            0x2065, 0x2066, 0x2069, 0x206A, 0x3042, 0xAC00, 0x1F600, 0xC280, 0x10_0000,
        ]
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 6) {
                let pick = edges[Int(rng.next() % UInt64(edges.count))]
                let value = rng.next() % 3 == 0 ? UInt32(rng.next() % 0x3_0000) : pick
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
            let string = String(text)
            let expected = string.unicodeScalars.contains(where: needsEscape)
            let got = Array(string.utf8).withUnsafeBufferPointer(containsEscape)
            #expect(got == expected, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect((terminalSafe(string) != string) == expected)
        }
    }
}
