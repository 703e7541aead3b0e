import Foundation

extension LocalizationFolder {
    func lintCatalog(_ cat: XCStringsDocument, maxLength: Int? = nil, ignores: inout LintIgnores) -> [Diagnostic] {
        var out: [Diagnostic] = cat.duplicateKeys.map { d in
            Diagnostic(
                file: cat.file, line: d.line, column: d.column, severity: .error, code: "duplicate-key",
                message: "duplicate key \"\(d.key)\" (first at line \(d.firstLine), column \(d.firstColumn)); "
                    + "only the first is read")
        }
        let languages = cat.languages.filter { $0 != cat.sourceLanguage }
        for entry in cat.entries where entry.shouldTranslate && !entry.isEmptyLiteral {
            let line = cat.line(ofKey: entry.key)
            let format = Self.CatalogFormatReference(entry: entry, sourceLanguage: cat.sourceLanguage)
            let directives = LintDirectives(comment: entry.comment)
            ignores.add(directives, file: cat.file, key: entry.key)
            let sourceValues = Dictionary(
                entry.localizations[cat.sourceLanguage].map { Self.values($0, place: "") } ?? [],
                uniquingKeysWith: { a, _ in a })
            let mf2 = TextChecks.isMessageFormat2(key: entry.key, source: sourceValues[""] ?? entry.key)
            for language in languages {
                guard let loc = entry.localizations[language] else {
                    out.append(
                        Diagnostic(
                            file: cat.file, line: line, column: 1, severity: .warning, code: "missing-key",
                            message: "\"\(entry.key)\" has no \(language) localization", key: entry.key))
                    continue
                }
                var states: [(place: String, state: String)] = []
                if let st = loc.state { states.append(("", st)) }
                for (c, l) in loc.plural { if let st = l.state { states.append(("plural.\(c)", st)) } }
                for (d, l) in loc.device { if let st = l.state { states.append(("device.\(d)", st)) } }
                for (n, sub) in loc.substitutions {
                    for (c, l) in sub.plural {
                        if let st = l.state { states.append(("substitutions.\(n).plural.\(c)", st)) }
                    }
                }
                let pending = states.filter { $0.state != "translated" }.sorted { $0.place < $1.place }
                if let first = pending.first {
                    let place =
                        first.place.isEmpty
                        ? "" : " (\(first.place)\(pending.count > 1 ? " and \(pending.count - 1) more" : ""))"
                    out.append(
                        Diagnostic(
                            file: cat.file, line: line, column: 1, severity: .note, code: "needs-review",
                            message: "\"\(entry.key)\" \(language) is in state \"\(first.state)\"\(place)",
                            key: entry.key))
                }
                if loc.value?.isEmpty == true {
                    out.append(
                        Diagnostic(
                            file: cat.file, line: line, column: 1, severity: .warning, code: "empty-value",
                            message: "\"\(entry.key)\" \(language) has an empty value", key: entry.key))
                } else {
                    out += Self.catalogFormatFindings(
                        entry: entry, language: language, reference: format, file: cat.file, line: line)
                    out += Self.catalogTextFindings(
                        entry: entry, language: language, sourceLanguage: cat.sourceLanguage,
                        sourceValues: sourceValues,
                        mf2: mf2, maxLength: directives.maxLength ?? maxLength, file: cat.file, line: line)
                }
                var pluralSets: [(String, [String: XCStringsDocument.Localization])] = []
                if !loc.plural.isEmpty { pluralSets.append(("plural", loc.plural)) }
                for (name, sub) in loc.substitutions where !sub.plural.isEmpty { pluralSets.append((name, sub.plural)) }
                for (name, forms) in pluralSets {
                    let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
                    let missing = needed.filter { forms[$0] == nil }
                    let foreign = Self.foreignCategories(Set(forms.keys), language: language, needed: needed)
                    if !foreign.isEmpty {
                        out.append(
                            Diagnostic(
                                file: cat.file, line: line, column: 1, severity: .warning, code: "plural-category",
                                message: "\"\(entry.key)\" \(language) \(name) has the plural categories "
                                    + foreign.joined(separator: ", ")
                                    + ", which \(language) does not use (never shown)",
                                key: entry.key))
                    }
                    if !missing.isEmpty {
                        out.append(
                            Diagnostic(
                                file: cat.file, line: line, column: 1, severity: .warning, code: "plural-category",
                                message: "\"\(entry.key)\" \(language) \(name) lacks the plural categories "
                                    + missing.joined(separator: ", "), key: entry.key))
                    }
                }
            }
        }
        return out
    }

    /// The text checks of each value of a catalog localization against the source's value in the same place
    /// (else the source's plain value, its `other` form, or the key), and translations equal to the source.
    static func catalogTextFindings(
        entry: XCStringsDocument.Entry, language: String, sourceLanguage: String, sourceValues: [String: String],
        mf2: Bool, maxLength: Int?, file: String, line: Int
    ) -> [Diagnostic] {
        guard let loc = entry.localizations[language] else { return [] }
        var out: [Diagnostic] = []
        for (place, value) in values(loc, place: "") where !value.isEmpty {
            let category = place.split(separator: ".").last.map(String.init)
            let other = category.map { String(place.dropLast($0.count)) + "other" }
            let source = sourceValues[place] ?? other.flatMap { sourceValues[$0] } ?? sourceValues[""] ?? entry.key
            let at = place.isEmpty ? "" : " \(place)"
            for t in TextChecks.compare(
                source: source, translation: value, language: language, sourceLanguage: sourceLanguage, mf2: mf2,
                maxLength: maxLength)
            {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: LintCheck.named(t.check)?.severity ?? .warning,
                        code: t.check, message: "\"\(entry.key)\" \(language)\(at): \(t.message)", key: entry.key))
            }
            if value == source && letters(source) && loc.state == "translated" {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .note, code: "same-as-source",
                        message: "\"\(entry.key)\" \(language)\(at) is identical to \(sourceLanguage) (untranslated?)",
                        key: entry.key))
            }
        }
        return out
    }
}
