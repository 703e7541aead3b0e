// The hot path of interpolation: simple values written straight from a dictionary
extension Renderer {
    /// The hot path: a single-part name found in a dictionary whose value is a string or an integer is
    /// written straight from the context (no copies). Returns false to take the general path.
    @inline(__always) mutating func emitSimpleVariable(_ p: Program, _ nameIndex: Int, escaped: Bool) -> Bool {
        if p.dotted[nameIndex] { return false }
        let hash = p.firstHashes[nameIndex]
        let keyStart = p.firstKeyOffsets[nameIndex]
        return p.firstKeyBytes.withUnsafeBufferPointer { all in
            emitSimpleVariable(
                UnsafeBufferPointer(rebasing: all[keyStart..<p.firstKeyOffsets[nameIndex + 1]]), hash, escaped: escaped)
        }
    }

    @inline(__always)
    mutating func emitSimpleVariable(_ keyBytes: UnsafeBufferPointer<UInt8>, _ hash: UInt64, escaped: Bool) -> Bool {
        let html = escaped && escapeHTML
        var i = frames.count - 1
        while i >= 0 {
            let frame = frames[i]
            guard let ref = frame.storage else {
                if frame.isObject { return false }
                i -= 1
                continue
            }
            // 1 = written, 0 = not in this frame, -1 = found but not simple
            let state: Int = ref._withUnsafeGuaranteedRef { storage in
                storage.withUnsafeMutablePointers { h, w -> Int in
                    // Find the entry (4 words each: hash, key, kind, value), then write its value.
                    let n = h.pointee.count
                    let bytes = UnsafeRawPointer(w + h.pointee.bytesWord)
                    var e = 0
                    while e < n {
                        if w[e] == hash {
                            let k = w[n &+ e &* 3]
                            let length = Int(k & 0xFFFF_FFFF)
                            let equal =
                                keyBytes.count == length
                                && bytesEqual(UnsafeRawPointer(keyBytes.baseAddress), bytes + Int(k >> 32), length)
                            if equal { break }
                        }
                        e &+= 1
                    }
                    if e == n { return 0 }
                    let kind = w[n &+ e &* 3 &+ 1]
                    let v = w[n &+ e &* 3 &+ 2]
                    if kind == MustacheDictionary.Storage.kindText {
                        let length = Int(v & 0xFFFF_FFFF)
                        if length == 0 { return 1 }
                        let buf = UnsafeBufferPointer(
                            start: (bytes + Int(v >> 32)).assumingMemoryBound(to: UInt8.self), count: length)
                        if screensValues && Renderer.mayHoldRightToLeft(buf) { return -1 }
                        beginValue()
                        if html { out.appendHTMLEscaped(buf) } else { out.append(buf) }
                        return 1
                    }
                    if kind == MustacheDictionary.Storage.kindInteger {
                        emitInt(Int(Int64(bitPattern: v)))
                        return 1
                    }
                    return -1
                }
            }
            if state != 0 { return state == 1 }
            i -= 1
        }
        return false
    }

    /// Whether UTF-8 `bytes` may hold a right-to-left letter (U+0590–U+08FF, U+FB1D–U+FEFF, plane 1's
    /// RTL scripts): a lead byte D6–DF, E0, EF or F0. Latin, Greek, Cyrillic and CJK text never does.
    @inline(__always) static func mayHoldRightToLeft(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { ($0 >= 0xD6 && $0 <= 0xE0) || $0 == 0xEF || $0 == 0xF0 }
    }
}
