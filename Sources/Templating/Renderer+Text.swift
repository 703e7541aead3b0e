// Text transformations of rendered output: header folding and re-indentation of blocks
extension Renderer {
    /// Header output: line breaks (and the whitespace around them) become one space; ends are trimmed.
    static func foldHeader(_ out: inout [UInt8], from start: Int) {
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

    /// Removes `remove` from the start of every line that has it and puts `add` before every line
    /// (except the first when `firstLine` is false).
    static func reindent(_ bytes: [UInt8], remove: [UInt8], add: [UInt8], firstLine: Bool) -> [UInt8] {
        var result: [UInt8] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end < bytes.count { end += 1 }
            var s = lineStart
            if !remove.isEmpty, end - s >= remove.count, Array(bytes[s..<s + remove.count]) == remove {
                s += remove.count
            }
            if firstLine || lineStart > 0 { result.append(contentsOf: add) }
            result.append(contentsOf: bytes[s..<end])
            lineStart = end
        }
        return result
    }
}
