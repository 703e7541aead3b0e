import TestSupport
import Testing

@testable import ICUKit

/// Sort keys made in parallel chunks and the parallel sort agree with the one-call, one-thread results.
@Suite struct ParallelSortTests {
    static func names(_ count: Int) -> [String] {
        var rng = SplitMix64(seed: 42)
        let parts = ["Anna", "anna", "Åsa", "Zoë", "Ödön", "山田", "张伟", "민준", "Борис", "", "O'Neil", "Müller", "1st"]
        return (0..<count).map { _ in
            parts[Int(rng.next() % UInt64(parts.count))] + " " + parts[Int(rng.next() % UInt64(parts.count))]
        }
    }

    @Test func parallelKeysAndOrderMatchTheSerialOnes() throws {
        let names = Self.names(70_000)
        var text: [UInt8] = []
        var offsets: [Int32] = [0]
        for n in names {
            text += Array(n.utf8)
            offsets.append(Int32(text.count))
        }
        for locale in ["sv", "de", "zh-Hans"] {
            let collator = try Collator(locale: locale)
            let parallel = try text.withUnsafeBufferPointer { try collator.sortKeys(text: $0, offsets: offsets) }
            let serial = try text.withUnsafeBufferPointer { try collator.serialSortKeys(text: $0, offsets: offsets) }
            #expect(parallel.bytes == serial.bytes, "\(locale)")
            #expect(parallel.offsets == serial.offsets, "\(locale)")
            guard locale == "sv" else { continue }  // the order once (a slow reference sort in debug builds)
            let expected = (0..<Int32(names.count)).sorted { a, b in
                let ka = serial.key(Int(a))
                let kb = serial.key(Int(b))
                if ka.elementsEqual(kb) { return a < b }
                return ka.lexicographicallyPrecedes(kb)
            }
            #expect(parallel.sortedIndices() == expected, "\(locale)")
        }
    }
}
