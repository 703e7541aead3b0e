import Support

/// The dictionary case of ``MustacheValue``: string keys with their hashes precomputed and, in one
/// contiguous block, what the renderer needs to write text and integer values without touching the
/// values themselves (few cache misses, no reference counting on the hot path).
///
/// ```swift
/// var d: MustacheDictionary = ["name": "Ada"]
/// d["age"] = 36
/// d["name"]   // .string("Ada")
/// ```
public struct MustacheDictionary: @unchecked Sendable, ExpressibleByDictionaryLiteral {
    // @unchecked: `Storage` (a ManagedBuffer) is written only in `make`, before it is shared; edits build a new one.
    struct Header {
        var count: Int
        /// Where the byte area starts, in words.
        var bytesWord: Int
        /// The values that are neither text nor integers (lists, dictionaries, objects, lambdas, …);
        /// an entry of that kind holds its index here.
        var others: [MustacheValue]
    }

    /// One allocation: the n key hashes (scanned first, so a lookup touches few cache lines), then per
    /// entry 3 words (key offset|length; kind; value offset|length or the integer), then the UTF-8 bytes
    /// of keys and text values. Immutable once built.
    final class Storage: ManagedBuffer<Header, UInt64> {
        static let kindOther: UInt64 = 0
        static let kindText: UInt64 = 1
        static let kindInteger: UInt64 = 2

        static func make(hashes: [UInt64], keys: [String], values: [MustacheValue]) -> Storage {
            // Key bytes first (lookups verify keys: they stay in a few cache lines), then value bytes.
            var bytes: [UInt8] = []
            for key in keys { bytes.append(contentsOf: key.utf8) }
            var others: [MustacheValue] = []
            let n = keys.count
            var words = [UInt64](repeating: 0, count: n * 4)
            var keyStart = 0
            for i in keys.indices {
                let keyLength = keys[i].utf8.count
                words[i] = hashes[i]
                words[n + i * 3] = UInt64(keyStart) << 32 | UInt64(keyLength)
                keyStart += keyLength
                switch values[i] {
                case .string(let s):
                    let start = bytes.count
                    bytes.append(contentsOf: s.utf8)
                    words[n + i * 3 + 1] = kindText
                    words[n + i * 3 + 2] = UInt64(start) << 32 | UInt64(bytes.count - start)
                case .int(let v):
                    words[n + i * 3 + 1] = kindInteger
                    words[n + i * 3 + 2] = UInt64(bitPattern: Int64(v))
                default:
                    words[n + i * 3 + 1] = kindOther
                    words[n + i * 3 + 2] = UInt64(others.count)
                    others.append(values[i])
                }
            }
            let byteWords = (bytes.count + 7) / 8
            let buffer = Storage.create(minimumCapacity: words.count + byteWords) { _ in
                Header(count: keys.count, bytesWord: words.count, others: others)
            }
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { p in
                p.initialize(from: words, count: words.count)
                (p + words.count).initialize(repeating: 0, count: byteWords)
                UnsafeMutableRawPointer(p + words.count).copyMemory(from: bytes, byteCount: bytes.count)
            }
            return storage
        }

        deinit {
            _ = withUnsafeMutablePointers { h, p in p.deinitialize(count: h.pointee.bytesWord) }
        }

        var count: Int { header.count }

        /// The key of entry `i`.
        func key(at i: Int) -> String {
            withUnsafeMutablePointers { h, w in
                let k = w[h.pointee.count &+ i &* 3]
                let bytes = UnsafeRawPointer(w + h.pointee.bytesWord) + Int(k >> 32)
                return String(
                    decoding: UnsafeRawBufferPointer(start: bytes, count: Int(k & 0xFFFF_FFFF)), as: UTF8.self)
            }
        }

        /// The value of entry `i`.
        @inline(__always) func value(at i: Int) -> MustacheValue {
            withUnsafeMutablePointers { h, w in
                let n = h.pointee.count
                let kind = w[n &+ i &* 3 &+ 1]
                let v = w[n &+ i &* 3 &+ 2]
                if kind == Storage.kindText {
                    let bytes = UnsafeRawPointer(w + h.pointee.bytesWord) + Int(v >> 32)
                    return .string(
                        String(
                            decoding: UnsafeRawBufferPointer(start: bytes, count: Int(v & 0xFFFF_FFFF)), as: UTF8.self))
                }
                if kind == Storage.kindInteger { return .int(Int(Int64(bitPattern: v))) }
                return h.pointee.others[Int(v)]
            }
        }

        var keys: [String] { (0..<count).map(key(at:)) }
        var values: [MustacheValue] { (0..<count).map(value(at:)) }

        /// Index of the entry for `key` (whose hash is `hash`), or nil.
        @inline(__always) func index(of key: String, hash: UInt64) -> Int? {
            withUnsafeMutablePointers { h, w in
                let n = h.pointee.count
                let bytes = UnsafeRawPointer(w + h.pointee.bytesWord)
                var i = 0
                while i < n {
                    if w[i] == hash {
                        let k = w[n &+ i &* 3]
                        let start = Int(k >> 32)
                        let length = Int(k & 0xFFFF_FFFF)
                        var key = key
                        let equal = key.withUTF8 { u in
                            u.count == length && bytesEqual(UnsafeRawPointer(u.baseAddress), bytes + start, length)
                        }
                        if equal { return i }
                    }
                    i &+= 1
                }
                return nil
            }
        }
    }

    let storage: Storage

    public init() { storage = Storage.make(hashes: [], keys: [], values: []) }

    public init(_ dictionary: [String: MustacheValue]) {
        self.init(entries: dictionary.map { ($0.key, $0.value) })
    }

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(entries: elements)
    }

    /// Builds from key-value pairs; a later duplicate key wins.
    public init(entries: [(String, MustacheValue)]) {
        var hashes: [UInt64] = []
        var keys: [String] = []
        var values: [MustacheValue] = []
        var seen: [String: Int] = [:]
        for (k, v) in entries {
            if let i = seen[k] {
                values[i] = v
                continue
            }
            seen[k] = keys.count
            hashes.append(Self.hash(k))
            keys.append(k)
            values.append(v)
        }
        storage = Storage.make(hashes: hashes, keys: keys, values: values)
    }

    /// The package's stable hash (FNV-1a) of a key's UTF-8 bytes (what templates precompute for their names).
    @inlinable static func hash(_ key: String) -> UInt64 { key.fnv1a64 }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.count == 0 }
    /// The keys, in insertion order.
    public var keys: [String] { storage.keys }
    /// The entries, in insertion order.
    public var entries: [(key: String, value: MustacheValue)] { Array(zip(storage.keys, storage.values)) }

    /// Lookup with a precomputed hash (the renderer's path).
    @inline(__always) func value(forKey key: String, hash: UInt64) -> MustacheValue? {
        guard let i = storage.index(of: key, hash: hash) else { return nil }
        return storage.value(at: i)
    }

    public subscript(key: String) -> MustacheValue? {
        get { value(forKey: key, hash: Self.hash(key)) }
        set {
            var pairs = entries.map { ($0.key, $0.value) }
            if let i = storage.index(of: key, hash: Self.hash(key)) {
                if let newValue { pairs[i].1 = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
            self = MustacheDictionary(entries: pairs)
        }
    }
}

/// Whether `n` bytes at `a` and `b` are equal (short keys: word compares, no library call).
@inline(__always) func bytesEqual(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    guard n > 0, let a else { return n == 0 }
    var i = 0
    while i &+ 8 <= n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            return false
        }
        i &+= 8
    }
    while i < n {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i &+= 1
    }
    return true
}
