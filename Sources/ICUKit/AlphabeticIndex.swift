import CICU

/// An immutable ICU `AlphabeticIndex` (built with `buildImmutableIndex`): the buckets of an index bar
/// and the bucket of any name. Thread-safe.
///
/// ```swift
/// let index = try AlphabeticIndex(locale: "sv", addingLabelsFrom: ["en"])
/// index.labels.suffix(4)                // ["Z", "Å", "Ä", "Ö", …]
/// index.labels[index.bucket(of: "Örjan")]   // "Ö"
/// ```
public final class AlphabeticIndex: @unchecked Sendable {
    // @unchecked: the handle is an ICU ImmutableIndex (documented thread-safe), set once in init, never mutated.
    public enum LabelType: Int32, Sendable {
        case normal = 0
        case underflow = 1
        case inflow = 2
        case overflow = 3
    }

    let handle: OpaquePointer
    /// Bucket labels in index order (including the underflow, inflow and overflow buckets).
    public let labels: [String]
    public let labelTypes: [LabelType]

    /// - Parameters:
    ///   - locale: the locale whose index characters and collation are used.
    ///   - extraLocales: `AlphabeticIndex::addLabels(Locale)` for each (e.g. `["en"]` so Latin names
    ///     get their letters in a Japanese index).
    ///   - extraLabels: more labels as a UnicodeSet pattern (`"[ÆØÅ]"`).
    ///   - maxLabels: ICU's label limit (default 99, as ICU).
    ///   - collator: buckets with a copy of this collator (its options included) instead of the locale's
    ///     default one, so that bucket numbers grow along a list sorted by it.
    public init(
        locale: String, addingLabelsFrom extraLocales: [String] = [], extraLabels: String? = nil,
        maxLabels: Int = 99, collator: Collator? = nil
    ) throws {
        var status: Int32 = 0
        let opened = withExtendedLifetime(collator) {
            cicu_index_builder_open(locale, collator?.handle, &status)
        }
        guard let builder = opened, status <= 0 else {
            throw ICUError.failure(
                operation: "open AlphabeticIndex for '\(locale)'", code: status, name: ICUError.name(status))
        }
        defer { cicu_index_builder_close(builder) }
        for extra in extraLocales { cicu_index_builder_add_locale(builder, extra, &status) }
        if let extraLabels { cicu_index_builder_add_set(builder, extraLabels, -1, &status) }
        cicu_index_builder_set_max_labels(builder, Int32(clamping: maxLabels), &status)
        try ICUError.check(status, "configure AlphabeticIndex for '\(locale)'")
        guard let h = cicu_index_build(builder, &status), status <= 0 else {
            throw ICUError.failure(operation: "build AlphabeticIndex", code: status, name: ICUError.name(status))
        }
        handle = h
        let n = Int(cicu_index_bucket_count(h))
        var labels: [String] = []
        var types: [LabelType] = []
        labels.reserveCapacity(n)
        for i in 0..<n {
            labels.append(
                try preflightString("bucket label", guess: 32) { out, cap, st in
                    cicu_index_bucket_label(h, Int32(i), out, cap, &st)
                })
            types.append(LabelType(rawValue: cicu_index_bucket_label_type(h, Int32(i))) ?? .normal)
        }
        self.labels = labels
        self.labelTypes = types
    }

    deinit { cicu_index_close(handle) }

    /// The bucket index of a name.
    public func bucket(of name: String) -> Int {
        var status: Int32 = 0
        let b = (try? withUTF8(name) { p, n in cicu_index_bucket_of(handle, p, n, &status) }) ?? 0
        return status > 0 ? 0 : Int(b)
    }

    /// Bucket of a name given as UTF-8 bytes.
    public func bucket(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var status: Int32 = 0
        let b = bytes.withMemoryRebound(to: CChar.self) {
            cicu_index_bucket_of(handle, $0.baseAddress, Int32(clamping: $0.count), &status)
        }
        return status > 0 ? 0 : Int(b)
    }
}
