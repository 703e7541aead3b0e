import Foundation

extension LocalizationFolder {
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
    /// variables' forms, and each variable's own number, typed as its forms use it (what the source's forms
    /// actually contain), else by `NSStringFormatValueTypeKey` when no form shows it.
    static func dictArguments(_ entry: StringsDictEntry, positions: [String: Int]) -> [Int: FormatSpecifier.Kind] {
        var sig: [Int: FormatSpecifier.Kind] = [:]
        if let key = entry.formatKey, let s = try? argumentSignature(key) { sig.merge(s) { a, _ in a } }
        for (name, position) in positions {
            guard let variable = entry.variables[name] else { continue }
            for form in variable.forms.values {
                if let pinned = try? StringsDictEntry.pinSequential(form, to: position),
                    let s = try? argumentSignature(pinned)
                {
                    sig.merge(s) { a, _ in a }
                }
            }
            sig[position - 1] =
                formsKind(variable, position: position) ?? kind(ofFormatSpecifier: variable.valueType)
        }
        return sig
    }

    /// The type a variable's forms give its own argument (the first form, by category order, that shows it).
    static func formsKind(_ variable: PluralVariable, position: Int) -> FormatSpecifier.Kind? {
        for c in pluralCategoryNames {
            guard let form = variable.forms[c],
                let pinned = try? StringsDictEntry.pinSequential(form, to: position),
                let s = try? argumentSignature(pinned), let k = s[position - 1]
            else { continue }
            return k
        }
        return nil
    }

    /// One warning per source `.stringsdict` variable whose `NSStringFormatValueTypeKey` disagrees with the
    /// type its own forms use: reported on the source, once; translations are judged against the forms.
    func sourceFormatTypeFindings() -> [Diagnostic] {
        var out: [Diagnostic] = []
        var seen = Set<String>()
        for language in [developmentLanguage, "Base"] {
            for (table, doc) in (stringsDicts[language] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard seen.insert(table).inserted else { continue }
                let keyLines = doc.keyLines()
                for (key, entry) in doc.entries.sorted(by: { $0.key < $1.key }) {
                    let positions = Self.variablePositions(entry)
                    for (name, variable) in entry.variables.sorted(by: { $0.key < $1.key }) {
                        guard let declared = variable.valueType, let position = positions[name],
                            let used = Self.formsKind(variable, position: position),
                            used != Self.kind(ofFormatSpecifier: declared)
                        else { continue }
                        out.append(
                            Diagnostic(
                                file: doc.file, line: keyLines[StringsDictDocument.xmlEscape(key)] ?? 1, column: 1,
                                severity: .warning, code: "source-format-type",
                                message: "\"\(key)\" variable \"\(name)\" declares NSStringFormatValueTypeKey "
                                    + "\"\(declared)\" (\(Self.kind(ofFormatSpecifier: declared).rawValue)) but its forms "
                                    + "use argument \(position) as \(used.rawValue); translations are checked against "
                                    + "the forms",
                                key: key))
                    }
                }
            }
        }
        return out
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
    func pluralFindings(
        entry: StringsDictEntry, source: StringsDictEntry, language: String, file: String, line: Int,
        maxLength: Int? = nil
    ) -> [Diagnostic] {
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
                            + (position.map { " (argument \($0))" } ?? "") + " matches no variable of the source entry",
                        key: entry.key)
                )
                continue
            }
            let missing = needed.filter { variable.forms[$0] == nil }
            if !missing.isEmpty {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .warning, code: "plural-category",
                        message: "\"\(entry.key)\" variable \"\(name)\" lacks the \(language) plural categories "
                            + "\(missing.joined(separator: ", ")) (\"other\" is used instead)", key: entry.key))
            }
            let foreign = Self.foreignCategories(Set(variable.forms.keys), language: language, needed: needed)
            if !foreign.isEmpty {
                out.append(
                    Diagnostic(
                        file: file, line: line, column: 1, severity: .warning, code: "plural-category",
                        message: "\"\(entry.key)\" variable \"\(name)\" has the plural categories "
                            + "\(foreign.joined(separator: ", ")), which \(language) does not use (never shown)",
                        key: entry.key))
            }
            let sourceForms = source.variables[sourceName]?.forms ?? [:]
            for (category, form) in variable.forms.sorted(by: { $0.key < $1.key }) {
                if let sourceForm = sourceForms[category] ?? sourceForms["other"] {
                    for t in TextChecks.compare(
                        source: sourceForm, translation: form, language: language, sourceLanguage: developmentLanguage,
                        maxLength: maxLength)
                    {
                        out.append(
                            Diagnostic(
                                file: file, line: line, column: 1,
                                severity: LintCheck.named(t.check)?.severity ?? .warning, code: t.check,
                                message: "\"\(entry.key)\" \(name).\(category): \(t.message)", key: entry.key))
                    }
                }
                guard let tr = try? Self.argumentSignature(StringsDictEntry.pinSequential(form, to: position ?? 1))
                else {
                    out.append(
                        Diagnostic(
                            file: file, line: line, column: 1, severity: .error, code: "format-invalid",
                            message: "\"\(entry.key)\" \(name).\(category): invalid format specifier in \"\(form)\"",
                            key: entry.key))
                    continue
                }
                let wrong = tr.filter { allowed[$0.key] != $0.value }
                if !wrong.isEmpty {
                    out.append(
                        Diagnostic(
                            file: file, line: line, column: 1, severity: .error, code: "format-mismatch",
                            message:
                                "\"\(entry.key)\" \(name).\(category): format arguments [\(Self.describe(tr))] "
                                + "differ from the source [\(Self.describe(allowed))]", key: entry.key))
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
}
