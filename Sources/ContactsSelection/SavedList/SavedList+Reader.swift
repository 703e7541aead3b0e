import Foundation
import Support

extension SavedList {
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        let path: String
        var position = 0

        mutating func word() throws -> UInt64 {
            guard position + 8 <= bytes.count - 8 else {
                throw SavedListError.corrupt(path: path, reason: "truncated at byte \(position)")
            }
            defer { position += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }

        /// The byte range of the next field.
        mutating func range() throws -> Range<Int> {
            let count = try word()
            guard count <= UInt64(bytes.count - 8 - position) else {
                throw SavedListError.corrupt(path: path, reason: "field of \(count) bytes at byte \(position - 8)")
            }
            let start = position
            position += (Int(count) + 7) & ~7
            guard position <= bytes.count - 8 else {
                throw SavedListError.corrupt(path: path, reason: "truncated at byte \(start)")
            }
            return start..<(start + Int(count))
        }

        mutating func blob() throws -> [UInt8] { Array(bytes[try range()]) }

        mutating func array<T: FixedWidthInteger>() throws -> [T] {
            let r = try range()
            guard r.count % MemoryLayout<T>.size == 0 else {
                throw SavedListError.corrupt(path: path, reason: "field of \(r.count) bytes at byte \(r.lowerBound)")
            }
            let n = r.count / MemoryLayout<T>.size
            return [T](unsafeUninitializedCapacity: n) { out, count in
                _ = memcpy(out.baseAddress!, bytes.baseAddress! + r.lowerBound, r.count)
                for i in 0..<n { out[i] = T(littleEndian: out[i]) }
                count = n
            }
        }

        /// The next field as keys used in place (fields start at multiples of 8 in a page-aligned
        /// mapping, so they are aligned); copied on a big-endian machine, where the bytes need swapping.
        mutating func keys<T: FixedWidthInteger>(owner: MappedFile) throws -> KeyBuffer<T> {
            #if _endian(little)
                let r = try range()
                guard r.count % MemoryLayout<T>.size == 0 else {
                    throw SavedListError.corrupt(
                        path: path, reason: "field of \(r.count) bytes at byte \(r.lowerBound)")
                }
                let start = (bytes.baseAddress! + r.lowerBound).assumingMemoryBound(to: T.self)
                return KeyBuffer(
                    mapped: UnsafeBufferPointer(start: start, count: r.count / MemoryLayout<T>.size), owner: owner)
            #else
                return KeyBuffer(try array() as [T])
            #endif
        }

        mutating func strings() throws -> [String] {
            let ends: [UInt32] = try array()
            let text = try blob()
            var out: [String] = []
            var start = 0
            for end in ends {
                guard Int(end) >= start, Int(end) <= text.count else {
                    throw SavedListError.corrupt(path: path, reason: "string table at byte \(position)")
                }
                out.append(String(decoding: text[start..<Int(end)], as: UTF8.self))
                start = Int(end)
            }
            return out
        }
    }
}
