import Support
import Testing

/// The package's one parallel map keeps the order of its items and rethrows a thrown error.
@Suite struct ParallelWorkTests {
    @Test func parallelMapKeepsOrderAndRethrows() throws {
        #expect(ParallelWork.map(count: 1_000) { $0 * 2 } == (0..<1_000).map { $0 * 2 })
        #expect(ParallelWork.map(count: 0) { $0 }.isEmpty)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try ParallelWork.map(count: 100) { k in
                if k == 57 { throw Stop() }
                return k
            }
        }
    }
}
