import Foundation

/// gettext `.po` import: the translations of one exported `.po` file written back through the XLIFF import
/// (``XLIFF/importFiles(_:into:)``), so only changed values change. Entries whose msgctxt or msgid no longer
/// match the project are reported with their line and skipped; `#, fuzzy` entries become needs_review in
/// `.xcstrings` and are skipped for `.strings`/`.stringsdict` unless `includeFuzzy`.
///
/// ```swift
/// var folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// let po = POFile(parsing: try String(contentsOfFile: "po/Localizable/de.po", encoding: .utf8), file: "de.po")
/// let report = POImport.apply(po, file: "po/Localizable/de.po", into: &folder)   // then folder.save()
/// ```
public enum POImport {
    /// Applies `po` to the folder. The language comes from the `Language` header (else the file name), the
    /// table from `Project-Id-Version` (else the file's folder name).
    public static func apply(
        _ po: POFile, file: String, into folder: inout LocalizationFolder, includeFuzzy: Bool = false
    ) -> XLIFF.ImportReport {
        var problems = po.problems.map(\.description)
        let header = po.header
        let url = URL(fileURLWithPath: file)
        let name = header["Language"].flatMap { $0.isEmpty ? nil : $0 } ?? url.deletingPathExtension().lastPathComponent
        let language = folder.language(matching: name)
        let table = header["Project-Id-Version"] ?? url.deletingLastPathComponent().lastPathComponent
        let forms = PluralForms(language: language)
        var pluralsOK = true
        if let pf = header["Plural-Forms"] {
            let headerLine = po.entries.first { $0.msgid.isEmpty && $0.context == nil }?.line ?? 1
            if let problem = check(pluralForms: pf, against: forms) {
                problems.append("\(file):\(headerLine):\(problem.column): Plural-Forms: \(problem.message)")
                pluralsOK = false
            }
        }
        let dev = folder.developmentLanguage
        let sources = POExport.sourceTexts(POExport.groups(folder, language: dev))[table] ?? [:]
        let groups = POExport.groups(folder, language: language).filter { $0.table == table }.flatMap(\.groups)
        guard !groups.isEmpty else {
            problems.append("\(file): table \"\(table)\" has no strings in the project; nothing imported")
            return XLIFF.ImportReport(problems: problems)
        }
        let byContext = Dictionary(groups.map { ($0.context, $0) }, uniquingKeysWith: { a, _ in a })
        var files: [String: XLIFFFile] = [:]
        var order: [String] = []
        for e in po.entries where !e.obsolete && !(e.msgid.isEmpty && e.context == nil) {
            let position = "\(file):\(e.line)"
            guard let context = e.context, let g = byContext[context] else {
                problems.append("\(position): msgctxt \"\(e.context ?? "")\" is not a key of \(table); skipped")
                continue
            }
            let (msgid, plural) = sources[context] ?? POExport.msgids(g)
            guard e.msgid == msgid, g.isPlural == (e.msgidPlural != nil),
                e.msgidPlural == nil || e.msgidPlural == plural
            else {
                problems.append("\(position): msgid of \"\(context)\" no longer matches the source text; skipped")
                continue
            }
            if e.isFuzzy && !includeFuzzy
                && folder.format(ofOriginal: g.original)?.recordsReviewState != true
            {
                continue
            }
            var units: [XLIFFUnit] = []
            func unit(_ u: XLIFFUnit, _ target: String) {
                // An empty msgstr is gettext's "not translated": it changes nothing.
                guard !target.isEmpty else { return }
                var v = u
                v.target = target
                // An unchanged form keeps its own state under a fuzzy entry (whose forms may be partly
                // translated, partly needing review); without the flag, the translator has reviewed it.
                if target == u.target {
                    v.state = e.isFuzzy || u.state != "needs-review-translation" ? u.state : "translated"
                } else {
                    v.state = e.isFuzzy ? "needs-review-translation" : "translated"
                }
                units.append(v)
            }
            if g.isPlural {
                guard pluralsOK, e.msgstr.count == forms.count else {
                    problems.append(
                        "\(position): \"\(context)\" has \(e.msgstr.count) msgstr[n], \(language) needs \(forms.count); skipped"
                    )
                    continue
                }
                for (i, c) in forms.categories.enumerated() {
                    if let u = g.units.first(where: { $0.category == c })?.unit { unit(u, e.msgstr[i]) }
                }
            } else {
                unit(g.units[0].unit, e.msgstr[0])
            }
            if files[g.original] == nil {
                order.append(g.original)
                files[g.original] = XLIFFFile(
                    original: g.original, sourceLanguage: dev, targetLanguage: language, units: [])
            }
            files[g.original]!.units += units
        }
        var report = XLIFF.importFiles(order.map { files[$0]! }, into: &folder)
        report.problems = problems + report.problems
        return report
    }

    /// Checks a `Plural-Forms` value: it parses, and says what the project's table says for the language.
    static func check(pluralForms value: String, against forms: PluralForms) -> (column: Int, message: String)? {
        let parts = value.split(separator: ";", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count >= 2, parts[0].hasPrefix("nplurals="), let n = Int(parts[0].dropFirst(9)) else {
            return (1, "expected 'nplurals=N; plural=EXPR;', found '\(value)'")
        }
        guard parts[1].hasPrefix("plural=") else { return (1, "expected 'plural=EXPR' after nplurals") }
        let text = String(parts[1].dropFirst(7))
        do {
            let e = try PluralExpression(parsing: text)
            if n != forms.count {
                return (1, "nplurals=\(n), but \(forms.language) has \(forms.count) (\(forms.header))")
            }
            if let bad = (UInt64(0)...1000).first(where: { e.evaluate($0) != UInt64(forms.index(for: $0)) }) {
                return (1, "plural=\(text) differs from \(forms.header) at n=\(bad)")
            }
            return nil
        } catch {
            guard case .pluralExpression(let column, let message) = error else { return (1, "\(error)") }
            let offset =
                value.range(of: "plural=" + text).map { value.distance(from: value.startIndex, to: $0.lowerBound) } ?? 0
            return (offset + 8 + column - 1, message)
        }
    }
}
