import ICUKit

/// Errors of the Collation module.
public enum CollationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// ICU could not open a collator, index or transliterator for the locale.
    case icu(locale: String, underlying: ICUError)
    /// Input bytes that are not valid UTF-8 (line numbers are 1-based).
    case invalidUTF8(file: String, line: Int)

    public var description: String {
        switch self {
        case .icu(let locale, let error): return "locale '\(locale)': \(error)"
        case .invalidUTF8(let file, let line): return "\(file):\(line): invalid UTF-8 (expected UTF-8 text)"
        }
    }
}

/// A group of items under one index title ("A", "Ö", "か", "ㄱ", "#").
public struct Section<Item> {
    public let title: String
    public let items: [Item]
    public init(title: String, items: [Item]) {
        self.title = title
        self.items = items
    }
}

extension Section: Sendable where Item: Sendable {}
extension Section: Equatable where Item: Equatable {}

/// Sorting and sectioning of names as a native contacts app does it for a list of locales: ICU collation of
/// the first locale for the order, ``SectionIndex`` (the first locale's letters, the others' and those of every
/// major script) for the sections, with every underflow, inflow and overflow bucket merged into one `#`
/// section placed last.
///
/// Keys are computed once per name into one contiguous buffer and sorted with `memcmp` (the fast path).
///
/// ```swift
/// let sv = try LocalizedCollation(locale: "sv")
/// sv.sorted(["Örjan", "Zoe", "Åsa", "Anna"])           // ["Anna", "Zoe", "Åsa", "Örjan"]
/// sv.sections(["Örjan", "Anna", "42"]).map(\.title)    // ["A", "Ö", "#"]
/// sv.sections(["Борис", "Anna"]).map(\.title)          // ["A", "Б"]
/// let enZh = try LocalizedCollation(locales: ["en", "zh-Hans"])
/// enZh.sections(["Wang", "王伟", "Anna"]).map(\.title)  // ["A", "W"]: 王伟 is read "wang wei"
/// ```
public final class LocalizedCollation: Sendable {
    /// The first locale (BCP 47).
    public let locale: String
    /// The whole list, first locale first.
    public let locales: [String]
    public let collator: Collator
    public let index: SectionIndex

    /// ``init(locales:options:)`` for one locale.
    public convenience init(locale: String, options: Collator.Options = Collator.Options()) throws {
        try self.init(locales: [locale], options: options)
    }

    /// - Parameters:
    ///   - locales: BCP 47 tags ("sv", "zh-Hant", "ja"), most preferred first: the first sorts, the others add
    ///     their index letters and readings (`["en", "zh-Hans"]`: a Han name sorts by its Pinyin). Apple
    ///     forms such as "zh_CN" are accepted.
    ///   - options: collator options (strength, numeric, alternate shifted, case level).
    public init(locales: [String], options: Collator.Options = Collator.Options()) throws {
        let tags = (locales.isEmpty ? ["en"] : locales).map(ICULocale.canonicalTag)
        do {
            collator = try Collator(locale: tags[0], options: options)
            // The list's own collator buckets the names when its options change the order; with the
            // locale's defaults the index keeps ICU's locale constructor. Built once per process.
            index = try SectionIndex.shared(locales: tags, collator: options == Collator.Options() ? nil : collator)
        } catch let error as ICUError {
            throw CollationError.icu(locale: locales.first ?? "en", underlying: error)
        }
        self.locale = tags[0]
        self.locales = tags
    }

    /// The sort key of one string (compare keys bytewise).
    public func sortKey(_ string: String) -> [UInt8] {
        let text = index.sortingText(string)
        return (try? collator.sortKey(text)) ?? Array(text.utf8)
    }

    /// -1, 0, 1 by this locale's collation.
    public func compare(_ a: String, _ b: String) -> Int {
        collator.compare(index.sortingText(a), index.sortingText(b))
    }

    /// Sort keys of `names` in one contiguous buffer (one ICU call for all names).
    public func sortKeys(_ names: [String]) -> SortKeyBuffer {
        textSortKeys(index.hasReadings ? names.map(index.sortingText) : names)
    }

    /// Sort keys of sorting texts (``SectionIndex/sortingText(_:)`` already applied).
    func textSortKeys(_ names: [String]) -> SortKeyBuffer {
        var total = 0
        for name in names { total += name.utf8.count }
        var text: [UInt8] = []
        text.reserveCapacity(total)
        var offsets: [Int32] = []
        offsets.reserveCapacity(names.count + 1)
        offsets.append(0)
        for name in names {
            text.append(contentsOf: name.utf8)
            offsets.append(Int32(truncatingIfNeeded: text.count))
        }
        return textSortKeys(utf8: text, offsets: offsets)
    }

    /// Sort keys of names given as one UTF-8 buffer and `count + 1` offsets (no per-name allocation unless
    /// the list reads Han names as Pinyin).
    public func sortKeys(utf8 text: [UInt8], offsets: [Int32]) -> SortKeyBuffer {
        guard !index.hasReadings else {
            return sortKeys(
                (0..<max(0, offsets.count - 1)).map {
                    String(decoding: text[Int(offsets[$0])..<Int(offsets[$0 + 1])], as: UTF8.self)
                })
        }
        return textSortKeys(utf8: text, offsets: offsets)
    }

    /// ``textSortKeys(_:)`` of one buffer.
    func textSortKeys(utf8 text: [UInt8], offsets: [Int32]) -> SortKeyBuffer {
        let result = text.withUnsafeBufferPointer { try? collator.sortKeys(text: $0, offsets: offsets) }
        if let result { return result }
        // ICU failed on the bulk call (out of memory): fall back to code-point order so nothing is lost.
        var keys: [UInt8] = []
        var keyOffsets: [Int32] = [0]
        for i in 0..<(offsets.count - 1) {
            keys.append(contentsOf: text[Int(offsets[i])..<Int(offsets[i + 1])])
            keys.append(0)
            keyOffsets.append(Int32(keys.count))
        }
        return SortKeyBuffer(bytes: keys, offsets: keyOffsets)
    }

    /// Indices that put `names` in collation order (stable).
    public func sortedIndices(_ names: [String]) -> [Int] {
        sortKeys(names).sortedIndices().map(Int.init)
    }

    /// `names` in collation order.
    public func sorted(_ names: [String]) -> [String] {
        sortedIndices(names).map { names[$0] }
    }

    /// Items in collation order of the name `key` gives for each (computed once per item).
    public func sorted<T>(_ items: [T], by key: (T) -> String) -> [T] {
        let names = items.map(key)
        return sortedIndices(names).map { items[$0] }
    }

    /// The non-empty sections of `names` in index order, `#` last, each sorted by this collation.
    public func sections(_ names: [String]) -> [Section<String>] {
        sections(names, by: { $0 })
    }

    /// The non-empty sections of `items`, keyed by the name `key` gives for each (use the phonetic or
    /// sort-as value when there is one: Japanese kanji names need it).
    public func sections<T>(_ items: [T], by key: (T) -> String) -> [Section<T>] {
        var names = items.map(key)
        if index.hasReadings { names = names.map(index.sortingText) }
        let order = textSortKeys(names).sortedIndices()
        let runs = index.sections(count: order.count) { names[Int(order[$0])] }
        return runs.map { section in
            var sectionItems: [T] = []
            sectionItems.reserveCapacity(section.ranges.reduce(0) { $0 + $1.count })
            for range in section.ranges {
                for position in range { sectionItems.append(items[Int(order[position])]) }
            }
            return Section(title: section.title, items: sectionItems)
        }
    }

    /// The full index bar: every normal label of the index in order, then `#`
    /// (like `UILocalizedIndexedCollation.sectionIndexTitles`).
    public var indexTitles: [String] { index.indexTitles }
}
