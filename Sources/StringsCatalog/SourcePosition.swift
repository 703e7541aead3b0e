/// Line and column of a byte in a UTF-8 document, as the parsers' diagnostics give them: lines counted
/// from 1 at each LF, columns from 1 in Unicode scalars (UTF-8 continuation bytes do not count).
enum SourcePosition {
    /// The position of `bytes[offset]`, counting from `start` (e.g. after a byte-order mark).
    static func of(byte offset: Int, in bytes: [UInt8], skipping start: Int = 0) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var i = start
        while i < offset && i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}
