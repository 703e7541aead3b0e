/// Line and column of a byte in a UTF-8 document, as the parsers' diagnostics give them: lines counted
/// from 1 at each LF, columns from 1 in Unicode scalars (UTF-8 continuation bytes do not count).
///
/// ```swift
/// let bytes = Array("a\nbé!".utf8)
/// print(TextPosition.of(byte: 5, in: bytes))   // (line: 2, column: 3)
/// ```
package enum TextPosition {
    /// The position of `bytes[offset]`, counting from `start` (e.g. after a byte-order mark).
    package static func of(byte offset: Int, in bytes: [UInt8], skipping start: Int = 0) -> (line: Int, column: Int) {
        of(bytes: [offset], in: bytes, skipping: start)[offset] ?? (1, 1)
    }

    /// The positions of many bytes (in any order, repeats allowed), in one pass over `bytes`.
    package static func of(bytes offsets: [Int], in bytes: [UInt8], skipping start: Int = 0) -> [Int: (
        line: Int, column: Int
    )] {
        var result: [Int: (line: Int, column: Int)] = [:]
        var line = 1
        var column = 1
        var i = start
        for target in Set(offsets).sorted() {
            while i < target && i < bytes.count {
                if bytes[i] == 0x0A {
                    line += 1
                    column = 1
                } else if bytes[i] & 0xC0 != 0x80 {
                    column += 1
                }
                i += 1
            }
            result[target] = (line, column)
        }
        return result
    }
}
