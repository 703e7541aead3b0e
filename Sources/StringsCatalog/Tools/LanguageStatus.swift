import Foundation

/// Coverage of one language: how many source keys it translates.
public struct LanguageStatus: Sendable, Hashable, Codable {
    public var language: String
    public var total: Int
    public var translated: Int
    public var missing: Int
    /// Present but identical to the source value (or marked for translation by sync).
    public var untranslated: Int
    public var percent: Double { total == 0 ? 100 : Double(translated) * 100 / Double(total) }
}

extension LocalizationFolder {
    /// Per-language coverage of the source keys (`.strings`, `.stringsdict` and `.xcstrings`).
    public func status() -> [LanguageStatus] {
        var result: [String: LanguageStatus] = [:]
        let dev = developmentLanguage
        func bump(_ language: String, translated: Bool, missing: Bool, untranslated: Bool) {
            var s =
                result[language]
                ?? LanguageStatus(language: language, total: 0, translated: 0, missing: 0, untranslated: 0)
            s.total += 1
            if translated { s.translated += 1 }
            if missing { s.missing += 1 }
            if untranslated { s.untranslated += 1 }
            result[language] = s
        }
        var sourceKeys: [(table: String, key: String, value: String, plural: Bool)] = []
        let tables = Set((strings[dev] ?? [:]).keys).union((strings["Base"] ?? [:]).keys)
            .union((stringsDicts[dev] ?? [:]).keys).union((stringsDicts["Base"] ?? [:]).keys)
        for table in tables.sorted() {
            let plurals = sourceDictEntries(table)
            for key in plurals.keys.sorted() { sourceKeys.append((table, key, "", true)) }
            var seen = Set<String>()
            for e in sourceStrings(table)?.entries ?? [] where plurals[e.key] == nil {
                if seen.insert(e.key).inserted { sourceKeys.append((table, e.key, e.value, false)) }
            }
        }
        // Each language's table indexed once (key → its last entry, what a lookup sees), not searched per key.
        var lastEntries: [String: (entries: [StringsDocument.Entry], index: [String: Int])] = [:]
        func lastEntry(_ language: String, _ table: String, _ key: String) -> StringsDocument.Entry? {
            if lastEntries[table] == nil {
                let entries = strings[language]?[table]?.entries ?? []
                var index: [String: Int] = [:]
                index.reserveCapacity(entries.count)
                for (k, e) in entries.enumerated() { index[e.key] = k }
                lastEntries[table] = (entries, index)
            }
            guard let t = lastEntries[table], let k = t.index[key] else { return nil }
            return t.entries[k]
        }
        let languageList = Set(languages).union(languages.isEmpty ? [] : [dev]).subtracting(["Base"])
        for language in languageList.sorted() {
            lastEntries.removeAll()
            for sk in sourceKeys {
                if language == dev {
                    bump(language, translated: true, missing: false, untranslated: false)
                    continue
                }
                if sk.plural {
                    let has = stringsDicts[language]?[sk.table]?.entries[sk.key] != nil
                    bump(language, translated: has, missing: !has, untranslated: false)
                } else if let e = lastEntry(language, sk.table, sk.key) {
                    let untranslated =
                        e.comment?.hasPrefix(Self.needsTranslationMarker) == true
                        || (e.value == sk.value && Self.letters(sk.value)) || e.value.isEmpty
                    bump(language, translated: !untranslated, missing: false, untranslated: untranslated)
                } else {
                    bump(language, translated: false, missing: true, untranslated: false)
                }
            }
        }
        for (_, cat) in catalogs {
            let entries = cat.entries
            for language in cat.languages {
                for entry in entries where entry.shouldTranslate && !entry.isEmptyLiteral {
                    if language == cat.sourceLanguage {
                        bump(language, translated: true, missing: false, untranslated: false)
                        continue
                    }
                    guard let loc = entry.localizations[language] else {
                        bump(language, translated: false, missing: true, untranslated: false)
                        continue
                    }
                    let states =
                        [loc.state] + loc.plural.values.map(\.state) + loc.device.values.map(\.state)
                        + loc.substitutions.values.flatMap { $0.plural.values.map(\.state) }
                    let done = states.compactMap { $0 }.allSatisfy { $0 == "translated" }
                    bump(language, translated: done, missing: false, untranslated: !done)
                }
            }
        }
        return result.values.sorted { $0.language < $1.language }
    }
}
