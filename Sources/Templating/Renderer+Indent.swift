// Re-indentation of rendered blocks (a standalone partial or block tag's indent on every line)
extension Renderer {
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
