import Testing

@testable import Support

/// Support's one growable buffer: writers that fill the free room in place (the template renderer's escaping
/// writers) grow it as `append` does and keep what was there.
@Suite struct CheckedBufferAppendTests {
    @Test func aWriterFillsTheFreeRoomAndTheBufferGrowsFirst() {
        var buffer = CheckedBuffer<UInt8>(capacity: 2)
        defer { buffer.deallocate() }
        buffer.append(0x61)
        buffer.append(upTo: 6) { start in
            for k in 0..<4 { start[k] = 0x30 + UInt8(k) }
            return 4
        }
        #expect(Array(buffer.all) == Array("a0123".utf8))
        #expect(buffer.capacity >= 7 && buffer.checkInvariants())
        buffer.append(upTo: 3) { _ in 0 }
        #expect(buffer.count == 5)
        buffer.removeLast(2)
        [UInt8](repeating: 0x7A, count: 100).withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(buffer.count == 103 && buffer[2] == 0x31 && buffer[102] == 0x7A && buffer.checkInvariants())
    }
}
