import Foundation
import ICUKit
import Locales
import Synchronization

/// The sections of an index bar for a list of locales, as Android's `ContactLocaleUtils` makes them: ICU
/// `AlphabeticIndex` for the first locale, plus the labels of the other locales of the list and of
/// ``commonLabelLocales`` (Latin, kana, Hangul, Thai, Arabic, Hebrew, Greek, Cyrillic), at most ``maxLabels``.
/// So a name in another script gets its script's letter, and `#` (placed last) holds only digits, symbols,
/// emoji and scripts without labels. Where the list reads Han names in Japanese, a kanji name without a
/// reading is filed under 他 ("other", after わ); where it reads them in Simplified Chinese but sorts by
/// another language, a Han name sorts and is filed by its Pinyin (``sortingText(_:)``). Thread-safe.
///
/// ```swift
/// let ja = try SectionIndex(locale: "ja")
/// ja.title(for: "さとう")   // "さ"
/// ja.title(for: "山田")     // "他"
/// ja.title(for: "Smith")    // "S"
/// ja.title(for: "Борис")    // "Б"
/// ja.title(for: "😀 Fan")    // "#"
/// try SectionIndex(locales: ["en", "zh-Hans"]).title(for: "王伟")   // "W"
/// ```
public final class SectionIndex: Sendable {
    /// The title of the catch-all section.
    public static let otherTitle = "#"
    /// The title of the section of kanji names without a reading, where Han names are read in Japanese.
    public static let japaneseOtherTitle = "他"
    /// Locales whose labels every index has after those of its own list (Android's default label locales;
    /// English stands for Latin; Ukrainian, Serbian and Russian give the Cyrillic letters, Russian for Ы and Э).
    public static let commonLabelLocales = ["en", "ja", "ko", "th", "ar", "he", "el", "uk", "sr", "ru"]
    /// ICU's label limit for these indexes (above it ICU drops labels evenly).
    public static let maxLabels = 300
    /// Changes when the same locales give other sections (part of a saved list's options).
    public static let rulesVersion = 2
    /// The general categories of combining marks.
    static let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
    /// The first Han character in collation order: its label starts the 他 bucket.
    static let firstHan = "一"

    /// The first locale (BCP 47, as ICU canonicalizes it).
    public let locale: String
    /// The whole list, first locale first.
    public let locales: [String]
    let icu: ICUKit.AlphabeticIndex
    /// Title per ICU bucket (`#` for the special ones).
    let bucketTitles: [String]
    /// Position of each bucket's title in `indexTitles`.
    let bucketOrder: [Int]
    /// True for ICU's underflow, inflow and overflow buckets.
    let isSpecial: [Bool]
    /// Every normal label in ICU's order, then `#`.
    public let indexTitles: [String]
    /// The Pinyin of Han names, where the list reads them in Simplified Chinese but sorts by another language.
    let pinyin: SearchFolding?

    /// ``init(locales:collator:)`` for one locale.
    public convenience init(locale: String, collator: Collator? = nil) throws {
        try self.init(locales: [locale], collator: collator)
    }

    /// - Parameters:
    ///   - locales: the first locale's index letters and collation, then the others' letters and readings.
    ///   - collator: the collator the list is sorted with: names are bucketed by the same rules (with
    ///     alternate shifted, "(Anna)" sorts among the A names and is in section A), so that sections follow
    ///     the list's order. Nil keeps the first locale's own collator.
    public init(locales: [String], collator: Collator? = nil) throws {
        let tags = (locales.isEmpty ? ["en"] : locales).map(ICULocale.canonicalTag)
        self.locales = tags
        locale = tags[0]
        let reading = LocalePolicy.hanReading(for: tags)
        func isChinese(_ tag: String) -> Bool { LocalePolicy.hanReading(for: [tag])?.isChinese ?? false }
        // Chinese index letters are Pinyin (the Latin ones) or stroke counts that only a Chinese collation
        // fills; as another locale of the list they add no letters of their own (their reading does).
        let others = tags.dropFirst().filter { !isChinese($0) }
        icu = try ICUKit.AlphabeticIndex(
            locale: tags[0], addingLabelsFrom: others + Self.commonLabelLocales,
            extraLabels: reading == .japanese ? "[\(Self.firstHan)]" : nil, maxLabels: Self.maxLabels,
            collator: collator)
        pinyin = reading == .simplifiedChinese && !isChinese(tags[0]) ? try SearchFolding() : nil
        var titles: [String] = []
        var normal: [String] = []
        var special: [Bool] = []
        for (label, type) in zip(icu.labels, icu.labelTypes) {
            special.append(type != .normal)
            if type == .normal {
                let title = reading == .japanese && label == Self.firstHan ? Self.japaneseOtherTitle : label
                titles.append(title)
                if !normal.contains(title) { normal.append(title) }
            } else {
                titles.append(Self.otherTitle)
            }
        }
        bucketTitles = titles
        isSpecial = special
        indexTitles = normal + [Self.otherTitle]
        var position: [String: Int] = [:]
        for (i, t) in indexTitles.enumerated() where position[t] == nil { position[t] = i }
        bucketOrder = titles.map { position[$0] ?? normal.count }
    }

    /// The index of `locales` bucketing with `collator`, built once and shared (an index is immutable and
    /// thread-safe; building one with its ~250 labels is the costly part).
    ///
    /// ```swift
    /// let index = try SectionIndex.shared(locales: ["en", "ja"])
    /// index === (try SectionIndex.shared(locales: ["en", "ja"]))   // true
    /// index.title(for: "山田太郎")                                  // "他"
    /// ```
    public static func shared(locales: [String], collator: Collator? = nil) throws -> SectionIndex {
        let key = CacheKey(
            locales: locales.map(ICULocale.canonicalTag), collatorLocale: collator?.locale,
            options: collator?.options)
        if let index = cache.withLock({ $0[key] }) { return index }
        let index = try SectionIndex(locales: locales, collator: collator)
        cache.withLock {
            if $0.count >= 64 { $0.removeAll() }
            $0[key] = index
        }
        return index
    }

    private struct CacheKey: Hashable {
        var locales: [String]
        var collatorLocale: String?
        var options: Collator.Options?
    }
    private static let cache = Mutex<[CacheKey: SectionIndex]>([:])

    /// The text a name is sorted and sectioned by: the name itself, or, where the list reads Han names in
    /// Simplified Chinese but sorts by another language, a Han name's Pinyin followed by the name
    /// ("王伟" → "wang wei 王伟", among the W names).
    public func sortingText(_ name: String) -> String {
        guard let pinyin, name.unicodeScalars.contains(where: SearchFolding.isHan) else { return name }
        let reading = pinyin.keys(for: name).folded
        return reading.isEmpty ? name : reading + " " + name
    }

    /// True when ``sortingText(_:)`` may differ from the name (the list reads Han names as Pinyin).
    public var hasReadings: Bool { pinyin != nil }

    /// The section title of one name (`#` for empty names).
    public func title(for name: String) -> String {
        let text = sortingText(name)
        var decomposes: [Unicode.Scalar: Bool] = [:]
        return place(text, bucket: bucket(text), decomposes: &decomposes).title
    }

    /// ICU's bucket of a sorting text (-1 for the empty text).
    func bucket(_ text: String) -> Int { text.isEmpty ? -1 : icu.bucket(of: text) }

    /// The section of a text in bucket `b`: the bucket's own, except that a name ICU leaves outside the
    /// labels only because of a mark on its first letter goes to that letter's section (in most collations
    /// Arabic أ آ إ sort before ا, between the Hebrew and the Arabic labels: أحمد is filed under ا).
    /// `decomposes` remembers, per first scalar, whether it carries a mark (names repeat their first letter).
    func place(_ text: String, bucket b: Int, decomposes: inout [Unicode.Scalar: Bool]) -> (
        title: String, position: Int
    ) {
        if b >= 0, !isSpecial[b] { return (bucketTitles[b], bucketOrder[b]) }
        let other = (Self.otherTitle, indexTitles.count - 1)
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), !first.isASCII else { return other }
        let marked: Bool
        if let known = decomposes[first] {
            marked = known
        } else {
            marked = String(first).decomposedStringWithCanonicalMapping.unicodeScalars.count > 1
            decomposes[first] = marked
        }
        guard marked || scalars.next().map({ Self.marks.contains($0.properties.generalCategory) }) == true,
            let letter = text.first, let base = String(letter).decomposedStringWithCanonicalMapping.unicodeScalars.first
        else { return other }
        let c = bucket(String(base) + text.dropFirst())
        return c >= 0 && !isSpecial[c] ? (bucketTitles[c], bucketOrder[c]) : other
    }

    /// Groups the texts at positions `0..<count` (`sortedName(i)`, ``sortingText(_:)`` of each name), already
    /// in this index's collation order, into sections (index order, `#` last); a section's ranges,
    /// concatenated, keep collation order (the `#` section gathers the underflow run at the start, inflow runs
    /// between scripts and the overflow run at the end). Bucket numbers grow monotonically along a
    /// collation-sorted list, so the boundaries are found by galloping + binary search: O(sections × log n)
    /// ICU calls instead of one per name; only the names of the special buckets are placed one by one.
    func sections(count: Int, sortedName name: (Int) -> String) -> [(title: String, ranges: [Range<Int>])] {
        var runs: [(position: Int, title: String, range: Range<Int>)] = []
        func append(_ title: String, _ position: Int, _ range: Range<Int>) {
            if let last = runs.last, last.title == title, last.range.upperBound == range.lowerBound {
                runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                runs.append((position, title, range))
            }
        }
        var decomposes: [Unicode.Scalar: Bool] = [:]
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
            if b >= 0, !isSpecial[b] {
                append(bucketTitles[b], bucketOrder[b], start..<hi)
            } else {
                for i in start..<hi {
                    let (title, position) = place(name(i), bucket: b, decomposes: &decomposes)
                    append(title, position, i..<(i + 1))
                }
            }
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
