import ICUKit

/// The sections of an index bar for a locale: ICU `AlphabeticIndex(locale)` with `addLabels(en)`.
/// A name's section is its ICU bucket; underflow, inflow and overflow buckets (digits, symbols, emoji,
/// other scripts) all become `#`, which is placed last. Thread-safe.
///
/// ```swift
/// let ja = try SectionIndex(locale: "ja")
/// ja.title(for: "さとう")   // "さ"
/// ja.title(for: "Smith")    // "S"
/// ja.title(for: "😀 Fan")    // "#"
/// ```
public final class SectionIndex: Sendable {
    /// The title of the catch-all section.
    public static let otherTitle = "#"

    public let locale: String
    let icu: ICUKit.AlphabeticIndex
    /// Title per ICU bucket (`#` for the special ones).
    let bucketTitles: [String]
    /// Position of each bucket's title in `indexTitles`.
    let bucketOrder: [Int]
    /// Every normal label in ICU's order, then `#`.
    public let indexTitles: [String]

    /// - Parameters:
    ///   - locale: whose index letters (plus the English ones) make the sections.
    ///   - collator: the collator the list is sorted with: names are bucketed by the same rules (with
    ///     alternate shifted, "(Anna)" sorts among the A names and is in section A), so that sections follow
    ///     the list's order. Nil keeps the locale's own collator.
    public init(locale: String, collator: Collator? = nil) throws {
        self.locale = locale
        icu = try ICUKit.AlphabeticIndex(locale: locale, addingLabelsFrom: ["en"], collator: collator)
        var titles: [String] = []
        var normal: [String] = []
        for (label, type) in zip(icu.labels, icu.labelTypes) {
            if type == .normal {
                titles.append(label)
                normal.append(label)
            } else {
                titles.append(Self.otherTitle)
            }
        }
        bucketTitles = titles
        indexTitles = normal + [Self.otherTitle]
        var position: [String: Int] = [:]
        for (i, t) in indexTitles.enumerated() where position[t] == nil { position[t] = i }
        bucketOrder = titles.map { position[$0] ?? normal.count }
    }

    /// The section title of one name (`#` for empty names).
    public func title(for name: String) -> String {
        if name.isEmpty { return Self.otherTitle }
        return bucketTitles[icu.bucket(of: name)]
    }

    func bucket(_ name: String) -> Int { name.isEmpty ? -1 : icu.bucket(of: name) }

    /// Groups the names at positions `0..<count` (`sortedName(i)`), already in this locale's collation order, into sections (index order, `#`
    /// last); a section's ranges, concatenated, keep collation order (the `#` section gathers the
    /// underflow run at the start, inflow runs between scripts and the overflow run at the end). Bucket numbers grow monotonically along a collation-sorted list, so the boundaries are found
    /// by galloping + binary search: O(sections × log n) ICU calls instead of one per name.
    func sections(count: Int, sortedName name: (Int) -> String) -> [(title: String, ranges: [Range<Int>])] {
        var runs: [(position: Int, title: String, range: Range<Int>)] = []
        var start = 0
        while start < count {
            let b = bucket(name(start))
            // Gallop to find an index past the run, then binary search the run's end.
            var step = 1
            var lo = start  // bucket(name(lo)) == b
            var hi = start + 1
            while hi < count && bucket(name(hi)) == b {
                lo = hi
                step *= 2
                hi = min(count, hi + step)
            }
            // invariant: bucket(lo) == b, hi == count or bucket(hi) != b
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if bucket(name(mid)) == b { lo = mid } else { hi = mid }
            }
            let title = b < 0 ? Self.otherTitle : bucketTitles[b]
            let position = b < 0 ? indexTitles.count - 1 : bucketOrder[b]
            runs.append((position, title, start..<hi))
            start = hi
        }
        // Merge runs with the same title (all `#` buckets) keeping collation order inside, `#` last.
        var merged: [(title: String, ranges: [Range<Int>], position: Int)] = []
        var byTitle: [String: Int] = [:]
        for run in runs {
            if let i = byTitle[run.title] {
                merged[i].ranges.append(run.range)
            } else {
                byTitle[run.title] = merged.count
                merged.append((run.title, [run.range], run.position))
            }
        }
        merged.sort { $0.position < $1.position }
        return merged.map { ($0.title, $0.ranges) }
    }
}
