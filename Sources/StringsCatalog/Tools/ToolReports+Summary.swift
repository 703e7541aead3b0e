import Foundation

extension SyncReport {
    /// One `LANG: + KEY` or `LANG: - KEY` line per key added or removed, by language.
    public var changeLines: [String] {
        Set(added.keys).union(removed.keys).sorted().flatMap { language in
            (added[language] ?? []).map { "\(language): + \($0)" }
                + (removed[language] ?? []).map { "\(language): - \($0)" }
        }
    }

    /// `3 added, 1 removed`, with ` (dry run, nothing written)` when nothing was saved.
    public func summary(dryRun: Bool) -> String {
        let count = { (keys: [String: [String]]) in keys.values.map(\.count).reduce(0, +) }
        return "\(count(added)) added, \(count(removed)) removed\(dryRunNote(dryRun))"
    }
}

extension XLIFF.ImportReport {
    /// `2 updated, 0 unchanged, 1 skipped`, with ` (dry run, nothing written)` when nothing was saved.
    public func summary(dryRun: Bool) -> String {
        "\(updated) updated, \(unchanged) unchanged, \(problems.count) skipped\(dryRunNote(dryRun))"
    }
}

extension PseudoReport {
    /// `en-XA: 12 strings, 3 plural entries, 4 catalog keys`, with ` (dry run, nothing written)` when nothing
    /// was saved.
    public func summary(dryRun: Bool) -> String {
        "\(language): \(strings) strings, \(plurals) plural entries, \(catalogKeys) catalog keys\(dryRunNote(dryRun))"
    }
}

extension LocalizationFolder {
    /// Adds missing keys (and with `prune` removes stale ones) as ``sync(prune:)`` does, after checking that
    /// no file has syntax or encoding errors or could not be read: then it throws
    /// ``StringsCatalogError/fixSyntaxFirst(_:)`` and changes nothing.
    public mutating func syncChecked(prune: Bool) throws(StringsCatalogError) -> SyncReport {
        if let bad = lint().first(where: { $0.code == "syntax" || $0.code == "encoding" || $0.code == "io" }) {
            throw .fixSyntaxFirst(bad)
        }
        return sync(prune: prune)
    }
}

private func dryRunNote(_ dryRun: Bool) -> String { dryRun ? " (dry run, nothing written)" : "" }
