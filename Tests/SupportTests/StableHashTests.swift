import Support
import Testing

/// The package's one stable hash is FNV-1a (64 bits), fed whole or in pieces.
@Suite struct StableHashTests {
    @Test func knownVectors() {
        #expect("".fnv1a64 == 0xCBF2_9CE4_8422_2325)
        #expect("a".fnv1a64 == 0xAF63_DC4C_8601_EC8C)
        #expect("foobar".fnv1a64 == 0x8594_4171_F739_67E8)
    }

    @Test func piecesHashLikeTheWhole() {
        var hasher = StableHasher()
        hasher.combine("Ada ")
        hasher.combine(0x1F)
        hasher.combine("Lovelace, née Byron")
        #expect(hasher.value == "Ada \u{1F}Lovelace, née Byron".fnv1a64)
    }
}
