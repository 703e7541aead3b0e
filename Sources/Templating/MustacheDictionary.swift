/// The dictionary case of ``MustacheValue``: string keys with their hashes precomputed, so that a compiled
/// template (which hashed its names once) finds a key with integer compares instead of hashing strings.
///
/// ```swift
/// var d: MustacheDictionary = ["name": "Ada"]
/// d["age"] = 36
/// d["name"]   // .string("Ada")
/// ```
public struct MustacheDictionary: Sendable, ExpressibleByDictionaryLiteral {
    /// Sorted by hash; parallel arrays; immutable (a change builds new storage).
    final class Storage: Sendable {
        let hashes: [UInt64]
        let keys: [String]
        let values: [MustacheValue]
        init(hashes: [UInt64] = [], keys: [String] = [], values: [MustacheValue] = []) {
            self.hashes = hashes
            self.keys = keys
            self.values = values
        }

        @inline(__always) func position(_ hash: UInt64) -> Int {
            var lo = 0
            var hi = hashes.count
            if hi <= 8 {
                while lo < hi && hashes[lo] < hash { lo += 1 }
                return lo
            }
            while lo < hi {
                let mid = (lo + hi) >> 1
                if hashes[mid] < hash { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        @inline(__always) func index(of key: String, hash: UInt64) -> Int? {
            var i = position(hash)
            while i < hashes.count && hashes[i] == hash {
                if keys[i] == key { return i }
                i += 1
            }
            return nil
        }
    }

    var storage: Storage

    public init() { storage = Storage() }

    public init(_ dictionary: [String: MustacheValue]) {
        self.init(entries: dictionary.map { ($0.key, $0.value) })
    }

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(entries: elements)
    }

    /// Builds from key-value pairs; a later duplicate key wins.
    public init(entries: [(String, MustacheValue)]) {
        var items: [(hash: UInt64, key: String, value: MustacheValue)] = []
        items.reserveCapacity(entries.count)
        for (k, v) in entries { items.append((Self.hash(k), k, v)) }
        // Stable sort keeps the order of duplicates, so the last one can win.
        let order = items.indices.sorted { items[$0].hash != items[$1].hash ? items[$0].hash < items[$1].hash : $0 < $1 }
        var hashes: [UInt64] = []
        var keys: [String] = []
        var values: [MustacheValue] = []
        hashes.reserveCapacity(items.count)
        keys.reserveCapacity(items.count)
        values.reserveCapacity(items.count)
        for i in order {
            let item = items[i]
            var j = hashes.count - 1
            var replaced = false
            while j >= 0 && hashes[j] == item.hash {
                if keys[j] == item.key {
                    values[j] = item.value
                    replaced = true
                    break
                }
                j -= 1
            }
            if !replaced {
                hashes.append(item.hash)
                keys.append(item.key)
                values.append(item.value)
            }
        }
        storage = Storage(hashes: hashes, keys: keys, values: values)
    }

    /// The FNV-1a hash of a key's UTF-8 bytes (what templates precompute for their names).
    @inlinable static func hash(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    public var count: Int { storage.keys.count }
    public var isEmpty: Bool { storage.keys.isEmpty }
    /// The keys, in no particular order.
    public var keys: [String] { storage.keys }
    /// The entries, in no particular order.
    public var entries: [(key: String, value: MustacheValue)] { Array(zip(storage.keys, storage.values)) }

    /// Index of the first entry with `hash`, or where it would go.
    @inline(__always) func position(_ hash: UInt64) -> Int { storage.position(hash) }

    @inline(__always) func index(of key: String, hash: UInt64) -> Int? { storage.index(of: key, hash: hash) }

    /// Lookup with a precomputed hash (the renderer's path).
    @inline(__always) func value(forKey key: String, hash: UInt64) -> MustacheValue? {
        guard let i = storage.index(of: key, hash: hash) else { return nil }
        return storage.values[i]
    }

    public subscript(key: String) -> MustacheValue? {
        get { value(forKey: key, hash: Self.hash(key)) }
        set {
            let hash = Self.hash(key)
            var hashes = storage.hashes
            var keys = storage.keys
            var values = storage.values
            if let i = index(of: key, hash: hash) {
                if let newValue {
                    values[i] = newValue
                } else {
                    hashes.remove(at: i)
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                let at = position(hash)
                hashes.insert(hash, at: at)
                keys.insert(key, at: at)
                values.insert(newValue, at: at)
            }
            storage = Storage(hashes: hashes, keys: keys, values: values)
        }
    }
}
