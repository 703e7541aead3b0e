import Foundation

// Name lookup in the context stack: dotted names, precomputed hashes, the fast path of simple values
extension Renderer {
    /// Looks up a dotted name the slow way (hashing its parts), for lambdas.
    static func lookup(_ name: TagName, in stack: [MustacheValue]) -> MustacheValue? {
        lookup(parts: name.parts, hashes: name.parts.map(MustacheDictionary.hash), in: stack)
    }

    @inline(__always)
    static func lookup(parts: [String], hashes: [UInt64], in stack: [MustacheValue]) -> MustacheValue? {
        if parts.isEmpty { return stack.last }
        let key = parts[0]
        let hash = hashes[0]
        var i = stack.count - 1
        var found: MustacheValue?
        while i >= 0 {
            if let v = stack[i].member(key, hash: hash) {
                found = v
                break
            }
            i -= 1
        }
        guard var value = found else { return nil }
        var p = 1
        while p < parts.count {
            guard let next = value.member(parts[p], hash: hashes[p]) else { return nil }
            value = next
            p += 1
        }
        return value
    }

    @inline(__always) func lookup(_ name: Program.Name) -> MustacheValue? {
        Renderer.lookup(parts: name.parts, hashes: name.hashes, in: stack)
    }

    /// The hot path: a name of the program by index; single-part names need no arrays.
    @inline(__always) func lookup(_ p: Program, _ index: Int) -> MustacheValue? {
        if p.dotted[index] { return lookup(p.names[index]) }
        if let found = fastLookup(p, index) { return found.value }
        let key = p.firstKeys[index]
        let hash = p.firstHashes[index]
        var i = stack.count - 1
        while i >= 0 {
            if let v = stack[i].member(key, hash: hash) { return v }
            i -= 1
        }
        return nil
    }

    /// Single-part names through the unretained frames: `nil` when an object frame needs the general
    /// path; `.some(nil)` when no frame has the name.
    @inline(__always) func fastLookup(_ p: Program, _ index: Int) -> (value: MustacheValue?, Void)? {
        let hash = p.firstHashes[index]
        let keyStart = p.firstKeyOffsets[index]
        return p.firstKeyBytes.withUnsafeBufferPointer { all -> (value: MustacheValue?, Void)? in
            let key = UnsafeBufferPointer(rebasing: all[keyStart..<p.firstKeyOffsets[index + 1]])
            var i = frames.count - 1
            while i >= 0 {
                let frame = frames[i]
                guard let ref = frame.storage else {
                    if frame.isObject { return nil }
                    i -= 1
                    continue
                }
                let found: MustacheValue? = ref._withUnsafeGuaranteedRef { storage in
                    storage.withUnsafeMutablePointers { h, w -> MustacheValue? in
                        let n = h.pointee.count
                        let bytes = UnsafeRawPointer(w + h.pointee.bytesWord)
                        var e = 0
                        while e < n {
                            if w[e] == hash {
                                let k = w[n &+ e &* 3]
                                let length = Int(k & 0xFFFF_FFFF)
                                if key.count == length
                                    && bytesEqual(UnsafeRawPointer(key.baseAddress), bytes + Int(k >> 32), length)
                                {
                                    return storage.value(at: e)
                                }
                            }
                            e &+= 1
                        }
                        return nil
                    }
                }
                if let found { return (found, ()) }
                i -= 1
            }
            return (nil, ())
        }
    }

    func missing(_ name: String, _ pos: SourcePosition) -> TemplatingError {
        .missingValue(
            name: name, template: templateName, line: pos.line, column: pos.column,
            recipient: options.recipient)
    }
}
