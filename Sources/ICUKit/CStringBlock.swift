/// Many strings as NUL-terminated UTF-8 in one contiguous buffer, for bridge calls that take an array of
/// C strings (`const char *const *items` with lengths). One allocation and one pointer per string, built
/// in a loop: the number of strings is limited only by memory (no recursion, no nested closures per
/// string).
///
/// ```swift
/// let block = try CStringBlock(["Alice", "Bob"])
/// try block.withPointers { pointers, lengths in /* pointers[i] is NUL-terminated, lengths[i] bytes */ }
/// ```
struct CStringBlock {
    private var bytes: [CChar] = []
    /// Where each string starts in `bytes`.
    private var starts: [Int] = []
    /// Each string's length in bytes (without its NUL).
    private(set) var lengths: [Int32] = []

    var count: Int { starts.count }
    /// The bytes of all strings, without their NULs.
    var byteCount: Int { bytes.count - starts.count }

    init<S: Sequence>(_ strings: S) throws where S.Element == String {
        for s in strings { try append(s) }
    }

    mutating func append(_ string: String) throws {
        let n = string.utf8.count
        guard n < Int32.max else { throw ICUError.invalidArgument("string of \(n) bytes") }
        starts.append(bytes.count)
        lengths.append(Int32(n))
        bytes.append(contentsOf: string.utf8.lazy.map { CChar(bitPattern: $0) })
        bytes.append(0)
    }

    /// Calls `body` with one pointer per string (valid only during the call) and the lengths.
    func withPointers<R>(_ body: ([UnsafePointer<CChar>?], [Int32]) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { buffer in
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(starts.count)
            if let base = buffer.baseAddress {
                for start in starts { pointers.append(base + start) }
            }
            return try body(pointers, lengths)
        }
    }
}
