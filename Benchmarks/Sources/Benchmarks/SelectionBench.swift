import Collation
import ContactsCore
import ContactsSelection
import Foundation

/// 1,000,000 generated contacts: load + section, then a query typed one keystroke at a time. The
/// baseline does what KBContactsSelection does per keystroke: rescan every contact's name with a
/// case- and diacritic-insensitive `contains` and regroup (sort + section) the matches.
func runSelectionBench(args: [String]) throws {
    let count = Int(args.first ?? "") ?? 1_000_000
    let locale = args.count > 1 ? args[1] : "en"
    print("== Selection: \(count) generated contacts, locale \(locale)")
    let names = generateNames(count)
    let contacts: [Contact] = names.enumerated().map { i, name in
        var c = Contact(id: "c\(i)")
        let parts = name.split(separator: " ", maxSplits: 1)
        c.givenName = String(parts[0])
        if parts.count > 1 { c.familyName = String(parts[1]) }
        c.phones = [LabeledValue(label: .mobile, value: "+1 415 555 \(String(format: "%04d", i % 10_000))")]
        if i % 3 == 0 { c.emails = [LabeledValue(label: .home, value: "user\(i)@example.com")] }
        return c
    }
    var config = Configuration()
    config.mode = .both
    config.locale = locale
    resetPeakMemory()
    let (loadTime, source) = try measure { try ContactsDataSource(contacts: contacts, configuration: config) }
    print(
        "load + fold + sort + section: \(format(loadTime))s for \(source.rows.count) rows, \(source.sections.count) sections, peak \(format(peakMemoryMiB() ?? 0, 0)) MiB"
    )

    let typed = ["m", "ma", "mar", "mari", "maria", "maria ", "maria g", "maria ga", "maria gar"]
    // Plain, keywords, then fuzzy (ranked by FuzzyScore, best first).
    for (keywords, fuzzy) in [(false, false), (true, false), (false, true)] {
        var latencies: [Double] = []
        var previous: SearchResult?
        var counts: [Int] = []
        // Type the query three times (clearing in between) to get enough samples for a p99.
        for _ in 0..<(Int(ProcessInfo.processInfo.environment["BENCH_REPEAT"] ?? "") ?? 3) {
            previous = nil
            for q in typed {
                let (t, r) = measure { source.search(q, keywords: keywords, fuzzy: fuzzy, refining: previous) }
                latencies.append(t * 1000)
                if ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil {
                    print("  \(q): \(format(t * 1000)) ms, \(r.count) hits")
                }
                previous = r
                counts.append(r.count)
            }
        }
        latencies.sort()
        let median = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        print(
            "\(fuzzy ? "fuzzy   " : keywords ? "keywords" : "plain   ") per keystroke: median \(format(median)) ms, p99 \(format(p99)) ms (hits: \(counts.prefix(typed.count).map(String.init).joined(separator: " ")))"
        )
    }

    // Baseline: rescan + regroup every keystroke (only the display names, as KB does).
    let collation = try LocalizedCollation(locale: locale)
    let displayNames = source.rows.map(\.displayName)
    var baseline: [Double] = []
    for q in typed.prefix(4) {
        let (t, _) = measure { () -> Int in
            let hits = displayNames.filter {
                $0.range(of: q, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil
            }
            return collation.sections(hits).count
        }
        baseline.append(t * 1000)
    }
    baseline.sort()
    print(
        "baseline rescan + regroup per keystroke: median \(format(baseline[baseline.count / 2], 0)) ms, max \(format(baseline.last!, 0)) ms (first 4 keystrokes)"
    )
    print("target: p99 ≤ 16 ms at 1M")
}
