import Foundation

extension LocalizationFolder {
    /// All findings with every check's own severity (``LintCheck/all``). Sorted by file, line, column.
    public func lint() -> [Diagnostic] { lint(options: LintOptions()) }

    /// All findings: syntax, duplicates, missing/extra keys, printf mismatches, the text checks
    /// (placeholders, markup, URLs, whitespace, punctuation, length …), empty, untranslated and unreviewed
    /// values, plural categories the language needs but lacks. Severities as `options` set them; a key
    /// whose comment (in its file or in the source's) says `lint-ignore: check` gets none of that check's
    /// findings. Sorted by file, line, column.
    public func lint(options: LintOptions) -> [Diagnostic] {
        var ignores = LintIgnores()
        var out = findings(maxLength: options.maxLength, ignores: &ignores)
        out = out.compactMap { d in
            guard !ignores.ignores(d), let severity = options.severity(of: d.code, default: d.severity) else {
                return nil
            }
            var d = d
            d.severity = severity
            return d
        }
        return out.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    }

    func findings(maxLength: Int?, ignores: inout LintIgnores) -> [Diagnostic] {
        var out = loadErrors
        sourceDirectives(into: &ignores)
        let dev = developmentLanguage
        for language in languages {
            for (_, doc) in strings[language] ?? [:] { out += doc.diagnostics }
            for (_, doc) in stringsDicts[language] ?? [:] { out += doc.diagnostics }
        }
        let devTables = Set((strings[dev] ?? [:]).keys).union((strings["Base"] ?? [:]).keys)
        let bundles = bundleLanguages()
        // A table's source is the development language's file, else Base's (a bundle with Base.lproj and no
        // en.lproj): findings name the one compared with.
        func sourceName(_ table: String, _ ext: String) -> String {
            let own = ext == "strings" ? strings[dev]?[table] != nil : stringsDicts[dev]?[table] != nil
            return own ? dev : "Base"
        }
        if !languages.contains(dev) && !languages.contains("Base") && !languages.isEmpty {
            out.append(
                Diagnostic(
                    file: displayRoot, line: 1, column: 1, severity: .error, code: "no-source",
                    message: "no \(dev).lproj (the development language) to compare translations with"))
        }
        var clashes: [CaseClash: [String]] = [:]
        for language in targetLanguages {
            // .strings tables
            for table in devTables.sorted() {
                guard let source = sourceStrings(table) else { continue }
                let sourceDict = source.dictionary
                let sourcePlurals = sourceDictEntries(table)
                guard let doc = strings[language]?[table] else {
                    if let variant = caseVariant(of: table, in: strings[language]) {
                        clashes[CaseClash(table: table, variant: variant, ext: "strings"), default: []].append(language)
                        continue
                    }
                    // Only the languages of the table's own bundle: another bundle may ship other languages.
                    guard bundles[Self.split(table).folder]?.contains(language) == true else { continue }
                    out.append(
                        Diagnostic(
                            file: displayPath(url(language: language, table: table, extension: "strings")), line: 1,
                            column: 1,
                            severity: .warning, code: "missing-file",
                            message: "\(language) has no \(table).strings (\(sourceDict.count) keys missing)"))
                    continue
                }
                let translated = doc.dictionary
                let sourceDirectives = Self.directives(of: source.entries)
                let pluralKeysHere = Set((stringsDicts[language]?[table]?.entries ?? [:]).keys)
                for key in source.keys
                where translated[key] == nil && !pluralKeysHere.contains(key) && sourcePlurals[key] == nil {
                    out.append(
                        Diagnostic(
                            file: doc.file, line: 1, column: 1, severity: .warning, code: "missing-key",
                            message: "\"\(key)\" is missing (present in \(sourceName(table, "strings")))",
                            key: key))
                }
                for entry in doc.entries {
                    guard let sourceValue = sourceDict[entry.key] else {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: entry.line, column: entry.column, severity: .warning,
                                code: "extra-key",
                                message: "\"\(entry.key)\" is not in \(sourceName(table, "strings")) "
                                    + "(stale; 'strings sync --prune' removes it)", key: entry.key)
                        )
                        continue
                    }
                    let valueLine = entry.valueLine > 0 ? entry.valueLine : entry.line
                    let valueColumn = entry.valueLine > 0 ? entry.valueColumn : entry.column
                    let directives = LintDirectives(comment: entry.comment).merged(
                        with: sourceDirectives[entry.key] ?? LintDirectives())
                    ignores.add(directives, file: doc.file, key: entry.key)
                    if entry.value.isEmpty && !sourceValue.isEmpty {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .warning,
                                code: "empty-value",
                                message: "\"\(entry.key)\" has an empty value", key: entry.key))
                        continue
                    }
                    if entry.comment?.hasPrefix(Self.needsTranslationMarker) == true {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .note,
                                code: "needs-review",
                                message: "\"\(entry.key)\" is marked for translation", key: entry.key))
                    } else if entry.value == sourceValue && Self.letters(sourceValue) {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .note,
                                code: "same-as-source",
                                message: "\"\(entry.key)\" is identical to \(sourceName(table, "strings")) "
                                    + "(untranslated?)", key: entry.key))
                    }
                    if let f = Self.formatFinding(
                        source: sourceValue, translation: entry.value, key: entry.key, file: doc.file,
                        line: valueLine, column: valueColumn)
                    {
                        out.append(f)
                    }
                    let mf2 = TextChecks.isMessageFormat2(key: entry.key, source: sourceValue)
                    for t in TextChecks.compare(
                        source: sourceValue, translation: entry.value, language: language, sourceLanguage: dev,
                        mf2: mf2, maxLength: directives.maxLength ?? maxLength)
                    {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn,
                                severity: LintCheck.named(t.check)?.severity ?? .warning, code: t.check,
                                message: "\"\(entry.key)\": \(t.message)", key: entry.key))
                    }
                }
            }
            // .stringsdict tables
            let dictTables = Set((stringsDicts[dev] ?? [:]).keys).union((stringsDicts["Base"] ?? [:]).keys)
            for table in dictTables.sorted() {
                let sourceEntries = sourceDictEntries(table)
                guard let doc = stringsDicts[language]?[table] else {
                    if let variant = caseVariant(of: table, in: stringsDicts[language]) {
                        clashes[CaseClash(table: table, variant: variant, ext: "stringsdict"), default: []].append(
                            language)
                        continue
                    }
                    if !sourceEntries.isEmpty && bundles[Self.split(table).folder]?.contains(language) == true {
                        out.append(
                            Diagnostic(
                                file: displayPath(url(language: language, table: table, extension: "stringsdict")),
                                line: 1,
                                column: 1, severity: .warning, code: "missing-file",
                                message:
                                    "\(language) has no \(table).stringsdict (\(sourceEntries.count) plural keys missing)"
                            ))
                    }
                    continue
                }
                for key in sourceEntries.keys.sorted()
                where doc.entries[key] == nil && strings[language]?[table]?[key] == nil {
                    out.append(
                        Diagnostic(
                            file: doc.file, line: 1, column: 1, severity: .warning, code: "missing-key",
                            message:
                                "plural entry \"\(key)\" is missing (present in \(sourceName(table, "stringsdict")))",
                            key: key))
                }
                let keyLines = doc.keyLines()
                for key in doc.entries.keys.sorted() {
                    let entry = doc.entries[key]!
                    let line = keyLines[StringsDictDocument.xmlEscape(key)] ?? 1
                    guard let sourceEntry = sourceEntries[key] else {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: line, column: 1, severity: .warning, code: "extra-key",
                                message: "plural entry \"\(key)\" is not in \(sourceName(table, "stringsdict"))",
                                key: key))
                        continue
                    }
                    let directives = LintDirectives(comment: entry.comment).merged(
                        with: LintDirectives(comment: sourceEntry.comment))
                    ignores.add(directives, file: doc.file, key: key)
                    out += pluralFindings(
                        entry: entry, source: sourceEntry, language: language, file: doc.file, line: line,
                        maxLength: directives.maxLength ?? maxLength)
                }
            }
        }
        for (_, cat) in catalogs.sorted(by: { $0.key < $1.key }) {
            out += lintCatalog(cat, maxLength: maxLength, ignores: &ignores)
        }
        out += caseClashFindings(clashes)
        out += messageNestingFindings()
        out += messageFormat2Findings()
        out += sourceFormatTypeFindings()
        return out
    }

    /// The languages of each bundle (the folder holding the `.lproj` folders, "" for the searched one).
    func bundleLanguages() -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for (language, tables) in strings {
            for t in tables.keys { result[Self.split(t).folder, default: []].insert(language) }
        }
        for (language, tables) in stringsDicts {
            for t in tables.keys { result[Self.split(t).folder, default: []].insert(language) }
        }
        return result
    }

    /// A table of a language named like `table` but for letter case (`infoPlist` for `InfoPlist`).
    func caseVariant<D>(of table: String, in tables: [String: D]?) -> String? {
        tables?.keys.filter { $0 != table && $0.lowercased() == table.lowercased() }.sorted().first
    }

    struct CaseClash: Hashable {
        var table: String
        var variant: String
        var ext: String
    }

    /// One finding per table name that differs from the development language's only in letter case (in
    /// place of a missing-file warning per language), and per `.lproj` holding two such names.
    func caseClashFindings(_ clashes: [CaseClash: [String]]) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let dev = developmentLanguage
        for (clash, languages) in clashes.sorted(by: { ($0.key.table, $0.key.ext) < ($1.key.table, $1.key.ext) }) {
            let list = languages.sorted()
            let shown = list.prefix(8).joined(separator: ", ") + (list.count > 8 ? ", …" : "")
            let (_, variantName) = Self.split(clash.variant)
            let (_, tableName) = Self.split(clash.table)
            out.append(
                Diagnostic(
                    file: displayPath(url(language: list[0], table: clash.variant, extension: clash.ext)), line: 1,
                    column: 1, severity: .warning, code: "case-mismatch",
                    message: "\(variantName).\(clash.ext) (in \(list.count) language\(list.count == 1 ? "" : "s"): "
                        + "\(shown)) differs only in letter case from \(dev)'s \(tableName).\(clash.ext): lookups of "
                        + "table \"\(tableName)\" do not find it on case-sensitive file systems (iOS devices, Linux); "
                        + "rename the files so the names match"))
        }
        for language in languages {
            for (ext, names) in [
                ("strings", Array((strings[language] ?? [:]).keys)),
                ("stringsdict", Array((stringsDicts[language] ?? [:]).keys)),
            ] {
                let groups = Dictionary(grouping: names) { $0.lowercased() }.values.filter { $0.count > 1 }
                for group in groups {
                    let sorted = group.sorted()
                    out.append(
                        Diagnostic(
                            file: displayPath(url(language: language, table: sorted[0], extension: ext)), line: 1,
                            column: 1, severity: .warning, code: "case-mismatch",
                            message: sorted.map { "\(Self.split($0).name).\(ext)" }.joined(separator: " and ")
                                + " differ only in letter case: only one of them is found on case-insensitive file "
                                + "systems (macOS by default); merge them"))
                }
            }
        }
        return out
    }
}
