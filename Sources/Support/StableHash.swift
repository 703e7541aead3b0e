extension String {
    /// FNV-1a of the UTF-8 bytes: the same in every run (Swift's `hashValue` is seeded per process), for
    /// names and ids that must be reproducible.
    package var fnv1a64: UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// ``fnv1a64`` as a non-negative `Int`.
    package var hashValueStable: Int { Int(truncatingIfNeeded: fnv1a64 >> 1) }
}
