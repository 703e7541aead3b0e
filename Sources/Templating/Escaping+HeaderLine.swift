/// The one-line output of `Escaping.header` (a subject): what the template's own text breaks over lines is
/// folded back into one line. Not RFC 5322 header folding (long lines written over several), which is the
/// MIME writer's (Composer): this keeps CR and LF out of a header value whatever the template says.
enum HeaderLine {
    /// Header output: line breaks (and the whitespace around them) become one space; ends are trimmed.
    static func fold(_ out: inout [UInt8], from start: Int) {
        out.replaceSubrange(start..., with: folded(Array(out[start...])))
    }

    static func folded(_ out: [UInt8]) -> [UInt8] {
        let start = 0
        var result: [UInt8] = []
        result.reserveCapacity(out.count - start)
        var i = start
        var pendingSpace = false
        while i < out.count {
            let b = out[i]
            if b == 0x0A || b == 0x0D {
                while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
                pendingSpace = !result.isEmpty
                i += 1
                while i < out.count, [0x0A, 0x0D, 0x20, 0x09].contains(out[i]) { i += 1 }
                continue
            }
            if pendingSpace {
                result.append(0x20)
                pendingSpace = false
            }
            if result.isEmpty && (b == 0x20 || b == 0x09) {
                i += 1
                continue
            }
            result.append(b)
            i += 1
        }
        while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
        return result
    }
}
