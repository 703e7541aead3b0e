/// The package's one stable hash, FNV-1a (64 bits): the same in every run (Swift's `hashValue` is seeded per
/// process), for names, ids and keys that must be reproducible. Fed byte by byte or string by string.
@usableFromInline package struct StableHasher {
    /// The hash of what was combined so far.
    @usableFromInline package var value: UInt64

    @inlinable package init() { value = 0xCBF2_9CE4_8422_2325 }

    @inlinable package mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Combines the UTF-8 bytes of `text` (straight from its storage when it is contiguous).
    @inlinable package mutating func combine(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { combine(byte) }
        }
        if done == nil {
            for byte in text.utf8 { combine(byte) }
        }
    }
}

extension String {
    /// FNV-1a of the UTF-8 bytes (``StableHasher``).
    @inlinable package var fnv1a64: UInt64 {
        var hasher = StableHasher()
        hasher.combine(self)
        return hasher.value
    }

    /// ``fnv1a64`` as a non-negative `Int`.
    package var hashValueStable: Int { Int(truncatingIfNeeded: fnv1a64 >> 1) }
}
