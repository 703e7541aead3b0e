import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// The catalog's caches (resolved language chains, opened plural rules) are shared by every thread that
/// looks a string up; used from many threads at once they must give what one thread gets.
@Suite("Catalog caches under concurrent use")
struct SharedCacheTests {
    /// Every language of the catalog (and a few it lacks) in many regions.
    static func locales(in catalog: Catalog) -> [String] {
        let regions = ["US", "GB", "CH", "MX", "BR", "PT", "UA", "IL", "SG", "TW", "HK", "419"]
        let languages = catalog.languages + ["xx", "nb", "gsw", "sr-Latn", "zh-Hant", "zh-Hans", "yue"]
        var locales: [String] = []
        for language in languages {
            locales.append(language)
            for region in regions { locales.append("\(language)-\(region)") }
        }
        return locales
    }

    @Test func resolvedChainsAndStringsMatchOneThread() throws {
        let reference = try Catalog.bundled()
        let locales = Self.locales(in: reference)
        let keys = [Strings.Key.cancel, .select, .searchContacts].map(\.rawValue)
        // One thread, one catalog.
        let expected = locales.map { locale in
            (reference.resolveLanguages(for: [locale]), keys.map { reference.string($0, locale: locale) ?? "" })
        }
        // Eight threads, another catalog (so its cache starts empty), each walking the locales from another
        // place.
        let shared = try Catalog.bundled()
        let mismatches = try concurrently(workers: 8) { worker in
            var wrong: [String] = []
            for step in locales.indices {
                let i = (step + worker * locales.count / 8) % locales.count
                let chain = shared.resolveLanguages(for: [locales[i]])
                let strings = keys.map { shared.string($0, locale: locales[i]) ?? "" }
                if chain != expected[i].0 || strings != expected[i].1 { wrong.append(locales[i]) }
            }
            return wrong
        }
        for (worker, wrong) in mismatches.enumerated() {
            #expect(wrong.isEmpty, "worker \(worker) got other chains or strings for \(wrong.prefix(5))")
        }
        // The chains are the real ones, not empty or all-English.
        #expect(shared.resolveLanguages(for: ["de-CH"]).first == "de")
        #expect(shared.resolveLanguages(for: ["zh-HK"]).first == "zh-Hant")
    }

    @Test func pluralRulesOpenedFromManyThreadsAgree() throws {
        // Locales no other test opens, so the cache is cold for them when the threads start.
        let locales = ["cy", "ga", "gd", "br", "kw", "lt", "lv", "mt", "sl", "dsb", "hsb", "se", "smn", "gv", "ksh"]
        let numbers: [Double] = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 20, 21, 22, 100, 101, 102, 1000, 1_000_000, 1.5]
        @Sendable func categories() -> [String] {
            locales.map { locale in
                numbers.map { PluralRulesCache.category(for: $0, locale: locale).rawValue }.joined(separator: " ")
            }
        }
        let concurrent = try concurrently(workers: 8) { _ in categories() }
        let expected = categories()
        for (worker, got) in concurrent.enumerated() {
            #expect(got == expected, "worker \(worker)")
        }
        // What CLDR says, so that an empty or broken cache cannot pass by agreeing with itself.
        #expect(PluralRulesCache.category(for: 2, locale: "cy") == .two)
        #expect(PluralRulesCache.category(for: 3, locale: "ga") == .few)
        #expect(PluralRulesCache.category(for: 102, locale: "sl") == .two)
        #expect(PluralRulesCache.categories(for: "cy") == [.zero, .one, .two, .few, .many, .other])
    }
}
