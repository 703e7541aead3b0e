import Foundation

/// What `sync` changed.
public struct SyncReport: Sendable, Hashable, Codable {
    public var added: [String: [String]] = [:]
    public var removed: [String: [String]] = [:]
    public var written: [String] = []
    /// Keys that could not be added or removed (the others were).
    public var problems: [String] = []

    public init() {}
}

extension LocalizationFolder {
    /// The comment prefix `sync` puts on keys it copies from the source language.
    public static let needsTranslationMarker = "NEEDS TRANSLATION"
    /// Adds every source key missing from a language (source value, source comment prefixed with
    /// ``needsTranslationMarker``) and, with `prune`, removes keys the source no longer has: each format of
    /// ``formats`` in turn (``LocalizationFormat/sync(_:prune:report:)``). Touches nothing else; call
    /// ``save()`` to write.
    public mutating func sync(prune: Bool) -> SyncReport {
        var report = SyncReport()
        for format in formats { format.sync(&self, prune: prune, report: &report) }
        return report
    }

    /// The comment of a key `sync` copies from the source language.
    func copiedComment(_ comment: String?) -> String {
        "\(Self.needsTranslationMarker) (copied from \(developmentLanguage))" + (comment.map { ": \($0)" } ?? "")
    }

    /// `.strings`: the keys a language lacks, unless its `.stringsdict` of the table has them as plurals.
    mutating func syncStrings(prune: Bool, report: inout SyncReport) {
        for language in targetLanguages {
            for table in sourceStringsTables.sorted() {
                guard let source = sourceStrings(table) else { continue }
                let plurals = stringsDicts[language]?[table]?.entries ?? [:]
                var doc =
                    strings[language]?[table]
                    ?? StringsDocument(file: displayPath(url(language: language, table: table, extension: "strings")))
                let present = doc.dictionary
                for e in source.entries where present[e.key] == nil && plurals[e.key] == nil {
                    if report.added[language]?.contains(e.key) == true { continue }
                    doc.setValue(e.value, forKey: e.key, comment: copiedComment(e.comment))
                    report.added[language, default: []].append(e.key)
                }
                if prune {
                    let sourceKeys = Set(source.keys)
                    for key in doc.keys where !sourceKeys.contains(key) {
                        doc.removeEntry(forKey: key)
                        report.removed[language, default: []].append(key)
                    }
                }
                if strings[language]?[table] != nil || !doc.entries.isEmpty {
                    strings[language, default: [:]][table] = doc
                }
            }
        }
    }

    /// `.stringsdict`: the plural keys a language lacks, unless its `.strings` of the table has them.
    mutating func syncStringsDicts(prune: Bool, report: inout SyncReport) {
        for language in targetLanguages {
            for table in sourceDictTables.sorted() {
                let sourceEntries = sourceDictEntries(table)
                var doc =
                    stringsDicts[language]?[table]
                    ?? StringsDictDocument(
                        parsing: Data(StringsDictDocument.xmlDocument([]).utf8),
                        file: displayPath(url(language: language, table: table, extension: "stringsdict")))
                let wasNew = stringsDicts[language]?[table] == nil
                for key in sourceEntries.keys.sorted()
                where doc.entries[key] == nil && strings[language]?[table]?[key] == nil {
                    if doc.addEntry(sourceEntries[key]!, comment: copiedComment(sourceEntries[key]!.comment)) {
                        report.added[language, default: []].append(key)
                    } else {
                        report.problems.append("\(doc.file): cannot add \"\(key)\" (not an editable XML property list)")
                    }
                }
                if prune {
                    for key in doc.entries.keys.sorted() where sourceEntries[key] == nil {
                        if doc.removeEntry(key) {
                            report.removed[language, default: []].append(key)
                        } else {
                            report.problems.append(
                                "\(doc.file): cannot remove \"\(key)\" (not an editable XML property list)")
                        }
                    }
                }
                if !wasNew || doc.isEdited { stringsDicts[language, default: [:]][table] = doc }
            }
        }
    }

    /// `.xcstrings`: with `prune`, the keys Xcode marked stale (no longer in the source code) leave the
    /// catalogs. (Xcode adds the missing ones itself.)
    mutating func pruneStaleCatalogKeys(prune: Bool, report: inout SyncReport) {
        guard prune else { return }
        for (table, var cat) in catalogs {
            let stale = cat.entries.filter { $0.extractionState == "stale" }.map(\.key)
            guard !stale.isEmpty else { continue }
            for key in stale { cat.removeKey(key) }
            report.removed["\(table).xcstrings", default: []] += stale
            catalogs[table] = cat
        }
    }
}
