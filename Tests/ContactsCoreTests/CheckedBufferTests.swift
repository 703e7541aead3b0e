import Support
import TestSupport
import Testing

@testable import ContactsCore

/// The reader's one buffer type: bounds, empty buffers, slicing, growth and its invariants.
@Suite struct CheckedBufferTests {
    @Test func emptyBufferHasNoElements() {
        let buffer = CheckedBuffer<UInt8>(capacity: 1)
        defer { buffer.deallocate() }
        #expect(buffer.isEmpty)
        #expect(buffer.count == 0)
        #expect(buffer.capacity == 1)
        #expect(buffer.all.isEmpty)
        #expect(buffer.extracting(0..<0).isEmpty)
        #expect(buffer.checkInvariants())
    }

    @Test func boundsCheckAcceptsOnlyRangesInsideTheElements() {
        #expect(CheckedBuffer<UInt8>.isValid(0..<0, count: 0))
        #expect(CheckedBuffer<UInt8>.isValid(0..<3, count: 3))
        #expect(CheckedBuffer<UInt8>.isValid(3..<3, count: 3))
        #expect(!CheckedBuffer<UInt8>.isValid(0..<4, count: 3))
        #expect(!CheckedBuffer<UInt8>.isValid(2..<4, count: 3))
        #expect(!CheckedBuffer<UInt8>.isValid(-1..<1, count: 3))
        #expect(!CheckedBuffer<UInt8>.isValid(0..<1, count: 0))
    }

    @Test func appendGrowsAndKeepsTheElements() {
        var buffer = CheckedBuffer<Int>(capacity: 2)
        defer { buffer.deallocate() }
        for k in 0..<100 { buffer.append(k * 3) }
        #expect(buffer.count == 100)
        #expect(buffer.capacity == 128)
        #expect(Array(buffer.all) == (0..<100).map { $0 * 3 })
        #expect(buffer.checkInvariants())
    }

    @Test func appendContentsOfGrowsByDoublingUntilItFits() {
        var buffer = CheckedBuffer<UInt8>(capacity: 4)
        defer { buffer.deallocate() }
        let bytes = Array("BEGIN:VCARD".utf8)
        bytes.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(buffer.capacity == 16)
        [UInt8]().withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(Array(buffer.all) == bytes)
        let long = [UInt8](repeating: 0x41, count: 1000)
        long.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(buffer.count == 1011)
        #expect(buffer.capacity == 1024)
        #expect(Array(buffer.all) == bytes + long)
    }

    @Test func slicingGivesTheElementsOfTheRange() {
        var buffer = CheckedBuffer<UInt8>(capacity: 8)
        defer { buffer.deallocate() }
        Array("item1.TEL;TYPE=CELL:+1".utf8).withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(String(decoding: buffer.extracting(0..<5), as: UTF8.self) == "item1")
        #expect(String(decoding: buffer.extracting(6..<9), as: UTF8.self) == "TEL")
        #expect(String(decoding: buffer.extracting(20..<22), as: UTF8.self) == "+1")
        #expect(buffer.extracting(22..<22).isEmpty)
    }

    @Test func writesGoThroughToTheSharedMemory() {
        var buffer = CheckedBuffer<UInt8>(capacity: 4)
        defer { buffer.deallocate() }
        for b in Array("tel".utf8) { buffer.append(b) }
        let view = buffer  // a copy shares the memory
        for k in 0..<view.count { view[k] = view[k] - 0x20 }
        #expect(String(decoding: buffer.all, as: UTF8.self) == "TEL")
    }

    @Test func removingKeepsTheCapacity() {
        var buffer = CheckedBuffer<UInt8>(capacity: 2)
        defer { buffer.deallocate() }
        for b in Array("abc=".utf8) { buffer.append(b) }
        buffer.removeLast()
        #expect(String(decoding: buffer.all, as: UTF8.self) == "abc")
        buffer.removeLast(3)
        #expect(buffer.isEmpty)
        buffer.append(0x7A)
        #expect(Array(buffer.all) == [0x7A])
        buffer.removeAll()
        #expect(buffer.isEmpty)
        #expect(buffer.capacity == 4)
        buffer.reserveCapacity(3)
        #expect(buffer.capacity == 4)
        buffer.reserveCapacity(9)
        #expect(buffer.capacity == 16)
        #expect(buffer.checkInvariants())
    }

    /// Random appends, removals and reserves give what an Array gives, and the invariants hold after each.
    @Test func randomOperationsMatchAnArray() {
        var generator = SplitMix64(seed: 0x5EED_CAFE)
        var buffer = CheckedBuffer<UInt16>(capacity: 1)
        defer { buffer.deallocate() }
        var model: [UInt16] = []
        for _ in 0..<2000 {
            switch generator.next() % 5 {
            case 0, 1:
                let value = UInt16(truncatingIfNeeded: generator.next())
                buffer.append(value)
                model.append(value)
            case 2:
                let more = (0..<Int(generator.next() % 40)).map { UInt16($0) }
                more.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
                model += more
            case 3:
                let n = model.isEmpty ? 0 : Int(generator.next() % UInt64(model.count + 1))
                buffer.removeLast(n)
                model.removeLast(n)
            default:
                buffer.reserveCapacity(Int(generator.next() % 300))
            }
            #expect(buffer.checkInvariants())
            #expect(buffer.count == model.count)
        }
        #expect(Array(buffer.all) == model)
        if model.count >= 2 {
            let mid = model.count / 2
            #expect(Array(buffer.extracting(1..<mid)) == Array(model[1..<mid]))
        }
    }

    /// The reader searches its input only through `firstOffset(of:in:)`: offsets are from the buffer's start.
    @Test func byteSearchFindsTheFirstByteInTheRange() {
        let bytes = Array("A:1\r\nB:2\nC".utf8)
        bytes.withUnsafeBufferPointer { buf in
            #expect(buf.firstOffset(of: 0x0A, in: 0..<buf.count) == 4)
            #expect(buf.firstOffset(of: 0x0A, in: 5..<buf.count) == 8)
            #expect(buf.firstOffset(of: 0x0A, in: 9..<buf.count) == nil)
            #expect(buf.firstOffset(of: 0x0D, in: 0..<3) == nil)
            #expect(buf.firstOffset(of: 0x41, in: 0..<1) == 0)
            #expect(buf.firstOffset(of: 0x43, in: buf.count - 1..<buf.count) == buf.count - 1)
            #expect(buf.firstOffset(of: 0x3A, in: 2..<2) == nil)
        }
        [UInt8]().withUnsafeBufferPointer { empty in
            #expect(empty.firstOffset(of: 0x0A, in: 0..<0) == nil)
        }
    }

    /// The decoder writes into a CheckedBuffer: bytes, soft breaks and the first invalid sequence.
    @Test func quotedPrintableDecodesIntoTheBuffer() {
        var out = CheckedBuffer<UInt8>(capacity: 1)
        defer { out.deallocate() }
        let bad = Array("M=C3=BCller =ZZ x=".utf8).withUnsafeBufferPointer {
            VCardValueDecoder.decodeQuotedPrintable($0, into: &out)
        }
        #expect(String(decoding: out.all, as: UTF8.self) == "Müller =ZZ x")
        #expect(bad == 12)
        out.removeAll()
        let none = Array("a=3Db".utf8).withUnsafeBufferPointer {
            VCardValueDecoder.decodeQuotedPrintable($0, into: &out)
        }
        #expect(String(decoding: out.all, as: UTF8.self) == "a=b")
        #expect(none == nil)
    }
}
