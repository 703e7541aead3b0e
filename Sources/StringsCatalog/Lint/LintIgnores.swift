/// The checks each key's comments turn off, per file: a translation's own `lint-ignore:` and its source's.
struct LintIgnores {
    var byFile: [String: [String: Set<String>]] = [:]

    mutating func add(_ directives: LintDirectives, file: String, key: String) {
        guard !directives.ignored.isEmpty else { return }
        byFile[file, default: [:]][key, default: []].formUnion(directives.ignored)
    }

    /// Whether a finding's key turns its check off in the finding's file.
    func ignores(_ d: Diagnostic) -> Bool {
        guard let key = d.key, let checks = byFile[d.file]?[key] else { return false }
        return checks.contains(d.code)
    }
}

extension LocalizationFolder {
    /// The directives of the entries whose comments have any, by key.
    static func directives(of entries: [StringsDocument.Entry]) -> [String: LintDirectives] {
        var out: [String: LintDirectives] = [:]
        for e in entries {
            guard let c = e.comment, c.contains("lint-ignore") || c.contains("max-length") else { continue }
            out[e.key] = LintDirectives(comment: c)
        }
        return out
    }

    /// The source files' own directives, for the findings reported on them (MF2 syntax, format types).
    func sourceDirectives(into ignores: inout LintIgnores) {
        for language in [developmentLanguage, "Base"] {
            for (_, doc) in strings[language] ?? [:] {
                for (key, d) in Self.directives(of: doc.entries) { ignores.add(d, file: doc.file, key: key) }
            }
            for (_, doc) in stringsDicts[language] ?? [:] {
                for (key, entry) in doc.entries {
                    ignores.add(LintDirectives(comment: entry.comment), file: doc.file, key: key)
                }
            }
        }
    }
}
