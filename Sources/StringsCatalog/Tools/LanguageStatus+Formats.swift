import Foundation

extension LocalizationFolder {
    /// `.strings` coverage: each development-language key that no `.stringsdict` plural of its table has, per
    /// language: translated, missing, or present but untranslated (marked by `sync`, empty, or the source
    /// value itself when that has letters).
    func stringsStatus() -> [LanguageStatus] {
        var sourceKeys: [(table: String, key: String, value: String)] = []
        for table in sourceStringsTables.sorted() {
            let plurals = sourceDictEntries(table)
            var seen = Set<String>()
            for e in sourceStrings(table)?.entries ?? [] where plurals[e.key] == nil {
                if seen.insert(e.key).inserted { sourceKeys.append((table, e.key, e.value)) }
            }
        }
        var tally = LanguageTally()
        for language in lprojStatusLanguages {
            // Each table indexed once (key → its last entry, what a lookup sees), not searched per key.
            var lastEntries: [String: [String: StringsDocument.Entry]] = [:]
            for sk in sourceKeys {
                guard language != developmentLanguage else {
                    tally.count(language, translated: true, missing: false, untranslated: false)
                    continue
                }
                if lastEntries[sk.table] == nil {
                    var index: [String: StringsDocument.Entry] = [:]
                    for e in strings[language]?[sk.table]?.entries ?? [] { index[e.key] = e }
                    lastEntries[sk.table] = index
                }
                if let e = lastEntries[sk.table]?[sk.key] {
                    let untranslated =
                        e.comment?.hasPrefix(Self.needsTranslationMarker) == true
                        || (e.value == sk.value && Self.letters(sk.value)) || e.value.isEmpty
                    tally.count(language, translated: !untranslated, missing: false, untranslated: untranslated)
                } else {
                    tally.count(language, translated: false, missing: true, untranslated: false)
                }
            }
        }
        return tally.sorted
    }

    /// `.stringsdict` coverage: each plural key of the development language, per language: translated when
    /// the language's table has it, else missing.
    func stringsDictStatus() -> [LanguageStatus] {
        let sourceKeys = sourceDictTables.sorted().flatMap { table in
            sourceDictEntries(table).keys.map { (table: table, key: $0) }
        }
        var tally = LanguageTally()
        for language in lprojStatusLanguages {
            for sk in sourceKeys {
                let has = language == developmentLanguage || stringsDicts[language]?[sk.table]?.entries[sk.key] != nil
                tally.count(language, translated: has, missing: !has, untranslated: false)
            }
        }
        return tally.sorted
    }

    /// `.xcstrings` coverage: each key to translate, per language of its catalog: translated when every
    /// string unit of the language is, missing without a localization, else untranslated.
    func catalogStatus() -> [LanguageStatus] {
        var tally = LanguageTally()
        for (_, cat) in catalogs {
            let entries = cat.entries
            for language in cat.languages {
                for entry in entries where entry.shouldTranslate && !entry.isEmptyLiteral {
                    if language == cat.sourceLanguage {
                        tally.count(language, translated: true, missing: false, untranslated: false)
                        continue
                    }
                    guard let loc = entry.localizations[language] else {
                        tally.count(language, translated: false, missing: true, untranslated: false)
                        continue
                    }
                    let states =
                        [loc.state] + loc.plural.values.map(\.state) + loc.device.values.map(\.state)
                        + loc.substitutions.values.flatMap { $0.plural.values.map(\.state) }
                    let done = states.compactMap { $0 }.allSatisfy { $0 == "translated" }
                    tally.count(language, translated: done, missing: false, untranslated: !done)
                }
            }
        }
        return tally.sorted
    }
}
