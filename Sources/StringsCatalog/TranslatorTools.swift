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

/// What `sync` changed.
public struct SyncReport: Sendable, Hashable, Codable {
    public var added: [String: [String]] = [:]
    public var removed: [String: [String]] = [:]
    public var written: [String] = []
    /// Keys that could not be added or removed (the others were).
    public var problems: [String] = []
}

extension LocalizationFolder {
    /// The comment prefix `sync` puts on keys it copies from the source language.
    public static let needsTranslationMarker = "NEEDS TRANSLATION"

    static func argumentSignature(_ pattern: String) throws -> [Int: FormatSpecifier.Kind] {
        var sig: [Int: FormatSpecifier.Kind] = [:]
        for (index, spec) in try PrintfFormat.arguments(of: pattern) {
            var kind = spec.kind
            if kind == .unsigned { kind = .signed }  // %d and %u take the same integer
            if kind == .plural { kind = .signed }
            sig[index] = kind
        }
        return sig
    }

    static func describe(_ sig: [Int: FormatSpecifier.Kind]) -> String {
        sig.keys.sorted().map { "\($0 + 1):\(sig[$0]!.rawValue)" }.joined(separator: ", ")
    }

    /// Compares the printf specifiers of a translation with its source.
    static func formatFinding(source: String, translation: String, key: String, file: String, line: Int, column: Int)
        -> Diagnostic?
    {
        let sourceSig = try? argumentSignature(source)
        let sourceHasSpecs = (sourceSig?.isEmpty == false)
        guard sourceHasSpecs || translation.contains("%") else { return nil }
        let tSig: [Int: FormatSpecifier.Kind]
        do { tSig = try argumentSignature(translation) } catch {
            guard sourceHasSpecs else { return nil }
            return Diagnostic(
                file: file, line: line, column: column, severity: .error, code: "format-invalid",
                message: "\"\(key)\": \(error)")
        }
        guard let sourceSig else { return nil }
        if sourceSig == tSig { return nil }
        let what: String
        if sourceSig.count != tSig.count {
            what = "has \(tSig.count) format arguments, the source has \(sourceSig.count)"
        } else if let i = tSig.keys.sorted().first(where: { tSig[$0] != sourceSig[$0] }),
            let kind = tSig[i], let expected = sourceSig[i],
            (try? PrintfFormat.arguments(of: translation))?.contains(where: { $0.specifier.position != nil }) == true
        {
            // Positions written out: the translation says which argument it means, and types it differently.
            what =
                "format arguments differ in type: argument \(i + 1) is \(kind.rawValue) here but "
                + "\(expected.rawValue) in the source"
        } else if Set(sourceSig.values) == Set(tSig.values) && sourceSig.keys.sorted() == tSig.keys.sorted() {
            what = "format arguments are in a different order (use positional %1$@ forms to reorder)"
        } else {
            what = "format arguments differ in type"
        }
        return Diagnostic(
            file: file, line: line, column: column, severity: .error, code: "format-mismatch",
            message: "\"\(key)\": \(what): source [\(describe(sourceSig))], translation [\(describe(tSig))]")
    }

    static func letters(_ s: String) -> Bool { s.unicodeScalars.contains { $0.properties.isAlphabetic } }

    /// All findings: syntax, duplicates, missing/extra keys, printf mismatches, empty and untranslated
    /// values, plural categories the language needs but lacks. Sorted by file, line, column.
    public func lint() -> [Diagnostic] {
        var out = loadErrors
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
                let pluralKeysHere = Set((stringsDicts[language]?[table]?.entries ?? [:]).keys)
                for key in source.keys
                where translated[key] == nil && !pluralKeysHere.contains(key) && sourcePlurals[key] == nil {
                    out.append(
                        Diagnostic(
                            file: doc.file, line: 1, column: 1, severity: .warning, code: "missing-key",
                            message: "\"\(key)\" is missing (present in \(sourceName(table, "strings")))"))
                }
                for entry in doc.entries {
                    guard let sourceValue = sourceDict[entry.key] else {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: entry.line, column: entry.column, severity: .warning,
                                code: "extra-key",
                                message: "\"\(entry.key)\" is not in \(sourceName(table, "strings")) "
                                    + "(stale; 'strings sync --prune' removes it)")
                        )
                        continue
                    }
                    let valueLine = entry.valueLine > 0 ? entry.valueLine : entry.line
                    let valueColumn = entry.valueLine > 0 ? entry.valueColumn : entry.column
                    if entry.value.isEmpty && !sourceValue.isEmpty {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .warning,
                                code: "empty-value",
                                message: "\"\(entry.key)\" has an empty value"))
                        continue
                    }
                    if entry.comment?.hasPrefix(Self.needsTranslationMarker) == true {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .note,
                                code: "untranslated",
                                message: "\"\(entry.key)\" is marked for translation"))
                    } else if entry.value == sourceValue && Self.letters(sourceValue) {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: valueLine, column: valueColumn, severity: .note,
                                code: "untranslated",
                                message: "\"\(entry.key)\" is identical to \(sourceName(table, "strings")) "
                                    + "(untranslated?)"))
                    }
                    if let f = Self.formatFinding(
                        source: sourceValue, translation: entry.value, key: entry.key, file: doc.file,
                        line: valueLine, column: valueColumn)
                    {
                        out.append(f)
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
                                "plural entry \"\(key)\" is missing (present in \(sourceName(table, "stringsdict")))"))
                }
                let keyLines = doc.keyLines()
                for key in doc.entries.keys.sorted() {
                    let entry = doc.entries[key]!
                    let line = keyLines[StringsDictDocument.xmlEscape(key)] ?? 1
                    guard let sourceEntry = sourceEntries[key] else {
                        out.append(
                            Diagnostic(
                                file: doc.file, line: line, column: 1, severity: .warning, code: "extra-key",
                                message: "plural entry \"\(key)\" is not in \(sourceName(table, "stringsdict"))"))
                        continue
                    }
                    out += pluralFindings(
                        entry: entry, source: sourceEntry, language: language, file: doc.file, line: line)
                }
            }
        }
        for (_, cat) in catalogs.sorted(by: { $0.key < $1.key }) { out += lintCatalog(cat) }
        out += caseClashFindings(clashes)
        out += messageNestingFindings()
        return out.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
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

    func sourceDictEntries(_ table: String) -> [String: StringsDictEntry] {
        (sourceDict(table)?.entries ?? [:])
    }

    /// The 1-based argument each plural variable of `entry` takes (nested variables included), numbered as
    /// ``PrintfFormat/arguments(of:)`` numbers them; a variable's forms take its argument.
    static func variablePositions(_ entry: StringsDictEntry) -> [String: Int] {
        var positions: [String: Int] = [:]
        func visit(_ text: String, pinnedTo position: Int?, depth: Int) {
            guard depth < 8 else { return }
            let pinned = position.map { try? StringsDictEntry.pinSequential(text, to: $0) } ?? text
            guard let pinned, let args = try? PrintfFormat.arguments(of: pinned) else { return }
            for (index, spec) in args {
                guard let name = spec.variable, positions[name] == nil else { continue }
                positions[name] = index + 1
                for form in (entry.variables[name]?.forms ?? [:]).values.sorted() {
                    visit(form, pinnedTo: index + 1, depth: depth + 1)
                }
            }
        }
        visit(
            entry.formatKey ?? entry.widthVariants.keys.max().flatMap { entry.widthVariants[$0] } ?? "", pinnedTo: nil,
            depth: 0)
        return positions
    }

    /// Every argument a `.stringsdict` entry may use, with its type: those of its format key and of its
    /// variables' forms, and each variable's own number (typed by `NSStringFormatValueTypeKey`).
    static func dictArguments(_ entry: StringsDictEntry, positions: [String: Int]) -> [Int: FormatSpecifier.Kind] {
        var sig: [Int: FormatSpecifier.Kind] = [:]
        if let key = entry.formatKey, let s = try? argumentSignature(key) { sig.merge(s) { a, _ in a } }
        for (name, position) in positions {
            guard let variable = entry.variables[name] else { continue }
            sig[position - 1] = kind(ofFormatSpecifier: variable.valueType)
            for form in variable.forms.values {
                if let pinned = try? StringsDictEntry.pinSequential(form, to: position),
                    let s = try? argumentSignature(pinned)
                {
                    sig.merge(s) { a, _ in a }
                }
            }
        }
        return sig
    }

    /// Plural categories a language's rules dropped in a CLDR release that devices still in use select:
    /// Hebrew `many` (dropped in CLDR 42; systems with older ICU data still select it for 20, 30, …).
    static let retiredPluralCategories: [String: Set<String>] = ["he": ["many"], "iw": ["many"]]

    /// The categories among `present` that `language` never selects: not its own (`needed`), not `zero`
    /// (Apple's own rule for 0 in every language), not one its rules dropped recently.
    static func foreignCategories(_ present: Set<String>, language: String, needed: [String]) -> [String] {
        let base = String(language.prefix { $0 != "-" && $0 != "_" })
        let retired = retiredPluralCategories[base] ?? []
        return pluralCategoryNames.filter {
            present.contains($0) && $0 != "zero" && !needed.contains($0) && !retired.contains($0)
        }
    }

    /// Findings of one `.stringsdict` translation. Variables are matched with the source's by the argument
    /// they take, so a translation may name them differently (`v1` → `v0`); a form may show its number where
    /// the source's do not ("%d Dateien" for "Files") or leave it out, but must not use an argument the source
    /// lacks or type one differently. Categories the language lacks and missing ones are warnings.
    func pluralFindings(entry: StringsDictEntry, source: StringsDictEntry, language: String, file: String, line: Int)
        -> [Diagnostic]
    {
        var out: [Diagnostic] = []
        let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
        let positions = Self.variablePositions(entry)
        let sourcePositions = Self.variablePositions(source)
        let allowed = Self.dictArguments(source, positions: sourcePositions)
        for (name, variable) in entry.variables.sorted(by: { $0.key < $1.key }) {
            let position = positions[name]
            let sourceName =
                source.variables[name] != nil && (position == nil || sourcePositions[name] == position)
                ? name : sourcePositions.first { $0.value == position }?.key
            guard let sourceName, source.variables[sourceName] != nil else {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .error, code: "format-mismatch",
                        message: "\"\(entry.key)\" variable \"\(name)\""
                            + (position.map { " (argument \($0))" } ?? "") + " matches no variable of the source entry")
                )
                continue
            }
            let missing = needed.filter { variable.forms[$0] == nil }
            if !missing.isEmpty {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .warning, code: "plural-category",
                        message: "\"\(entry.key)\" variable \"\(name)\" lacks the \(language) plural categories "
                            + "\(missing.joined(separator: ", ")) (\"other\" is used instead)"))
            }
            let foreign = Self.foreignCategories(Set(variable.forms.keys), language: language, needed: needed)
            if !foreign.isEmpty {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .warning, code: "plural-category",
                        message: "\"\(entry.key)\" variable \"\(name)\" has the plural categories "
                            + "\(foreign.joined(separator: ", ")), which \(language) does not use (never shown)"))
            }
            for (category, form) in variable.forms.sorted(by: { $0.key < $1.key }) {
                guard let tr = try? Self.argumentSignature(StringsDictEntry.pinSequential(form, to: position ?? 1))
                else {
                    out.append(
                        Diagnostic(
                            file: file, line: line, column: 1, severity: .error, code: "format-invalid",
                            message: "\"\(entry.key)\" \(name).\(category): invalid format specifier in \"\(form)\""))
                    continue
                }
                let wrong = tr.filter { allowed[$0.key] != $0.value }
                if !wrong.isEmpty {
                    out.append(
                        Diagnostic(
                            file: file, line: line, column: 1, severity: .error, code: "format-mismatch",
                            message:
                                "\"\(entry.key)\" \(name).\(category): format arguments [\(Self.describe(tr))] "
                                + "differ from the source [\(Self.describe(allowed))]"))
                }
            }
        }
        if let f = entry.formatKey, let sf = source.formatKey,
            let finding = Self.formatFinding(
                source: sf, translation: f, key: entry.key, file: file, line: line, column: 1)
        {
            out.append(finding)
        }
        return out
    }

    func lintCatalog(_ cat: XCStringsDocument) -> [Diagnostic] {
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
            for language in languages {
                guard let loc = entry.localizations[language] else {
                    out.append(
                        Diagnostic(
                            file: cat.file, line: line, column: 1, severity: .warning, code: "missing-key",
                            message: "\"\(entry.key)\" has no \(language) localization"))
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
                            file: cat.file, line: line, column: 1, severity: .note, code: "untranslated",
                            message: "\"\(entry.key)\" \(language) is in state \"\(first.state)\"\(place)"))
                }
                if loc.value?.isEmpty == true {
                    out.append(
                        Diagnostic(
                            file: cat.file, line: line, column: 1, severity: .warning, code: "empty-value",
                            message: "\"\(entry.key)\" \(language) has an empty value"))
                } else {
                    out += Self.catalogFormatFindings(
                        entry: entry, language: language, reference: format, file: cat.file, line: line)
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
                                    + foreign.joined(separator: ", ") + ", which \(language) does not use (never shown)"
                            ))
                    }
                    if !missing.isEmpty {
                        out.append(
                            Diagnostic(
                                file: cat.file, line: line, column: 1, severity: .warning, code: "plural-category",
                                message: "\"\(entry.key)\" \(language) \(name) lacks the plural categories "
                                    + missing.joined(separator: ", ")))
                    }
                }
            }
        }
        return out
    }

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

    /// Adds every source key missing from a language (source value, source comment prefixed with
    /// ``needsTranslationMarker``) and, with `prune`, removes keys the source no longer has. Touches
    /// nothing else; call ``save()`` to write.
    public mutating func sync(prune: Bool) -> SyncReport {
        var report = SyncReport()
        let dev = developmentLanguage
        for language in targetLanguages {
            let stringsTables = Set((strings[dev] ?? [:]).keys).union((strings["Base"] ?? [:]).keys)
            for table in stringsTables.sorted() {
                guard let source = sourceStrings(table) else { continue }
                let plurals = stringsDicts[language]?[table]?.entries ?? [:]
                var doc =
                    strings[language]?[table]
                    ?? StringsDocument(file: displayPath(url(language: language, table: table, extension: "strings")))
                let present = doc.dictionary
                for e in source.entries where present[e.key] == nil && plurals[e.key] == nil {
                    if report.added[language]?.contains(e.key) == true { continue }
                    let comment =
                        "\(Self.needsTranslationMarker) (copied from \(dev))" + (e.comment.map { ": \($0)" } ?? "")
                    doc.setValue(e.value, forKey: e.key, comment: comment)
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
            let dictTables = Set((stringsDicts[dev] ?? [:]).keys).union((stringsDicts["Base"] ?? [:]).keys)
            for table in dictTables.sorted() {
                let sourceEntries = sourceDictEntries(table)
                var doc =
                    stringsDicts[language]?[table]
                    ?? StringsDictDocument(
                        parsing: Data(StringsDictDocument.xmlDocument([]).utf8),
                        file: displayPath(url(language: language, table: table, extension: "stringsdict")))
                let wasNew = stringsDicts[language]?[table] == nil
                for key in sourceEntries.keys.sorted()
                where doc.entries[key] == nil && strings[language]?[table]?[key] == nil {
                    let comment =
                        "\(Self.needsTranslationMarker) (copied from \(dev))"
                        + (sourceEntries[key]!.comment.map { ": \($0)" } ?? "")
                    if doc.addEntry(sourceEntries[key]!, comment: comment) {
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
        if prune {
            // Keys Xcode marked stale (no longer in the source code) leave the catalogs.
            for (table, var cat) in catalogs {
                let stale = cat.entries.filter { $0.extractionState == "stale" }.map(\.key)
                guard !stale.isEmpty else { continue }
                for key in stale { cat.removeKey(key) }
                report.removed["\(table).xcstrings", default: []] += stale
                catalogs[table] = cat
            }
        }
        return report
    }
}

extension StringsDictDocument {
    /// The 1-based line of an entry's `<key>`.
    public func line(ofKey key: String) -> Int {
        keyLines()[Self.xmlEscape(key)] ?? 1
    }

    /// The 1-based line of the first `<key>` element holding each text (as written, escaped), found in one
    /// pass over the file: what ``line(ofKey:)`` answers, for every key at once.
    func keyLines() -> [String: Int] {
        var lines: [String: Int] = [:]
        let open = Array("<key>".utf8)
        let close = Array("</key>".utf8)
        var line = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
            } else if bytes[i] == 0x3C, bytes[i...].starts(with: open) {
                var j = i + open.count
                while j < bytes.count, bytes[j] != 0x3C { j += 1 }
                if bytes[j...].starts(with: close) {
                    let text = String(decoding: bytes[(i + open.count)..<j], as: UTF8.self)
                    if lines[text] == nil { lines[text] = line }
                }
            }
            i += 1
        }
        return lines
    }
}

extension XCStringsDocument {
    /// The 1-based line of a key in the catalog file.
    public func line(ofKey key: String) -> Int {
        if let keyLines { return keyLines[XcodeJSONWriter.quote(key)] ?? 1 }
        let text = String(decoding: data(), as: UTF8.self)
        let needle = "\n    " + XcodeJSONWriter.quote(key) + " : "
        guard let r = text.range(of: needle) else { return 1 }
        return text[..<r.lowerBound].filter { $0 == "\n" }.count + 2
    }
}
