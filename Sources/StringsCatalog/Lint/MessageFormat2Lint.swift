extension LocalizationFolder {
    /// Values that are Unicode MessageFormat 2 messages (their key ends in `_mf2` or `.mf2`, or the source value
    /// starts with `.input`, `.local` or `.match`) that do not parse or break a rule of MF2's data model: one
    /// error per value, in every language, at the file position of the error when the value is written
    /// without escapes. Part of ``lint()``.
    ///
    /// ```swift
    /// let localizations = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// for d in localizations.messageFormat2Findings() { print(d) }
    /// // de.lproj/invite.strings:32:40: error: "others_mf2" (de): MessageFormat 2 syntax error: …
    /// ```
    public func messageFormat2Findings() -> [Diagnostic] {
        var out: [Diagnostic] = []
        let dev = developmentLanguage
        for language in languages {
            for (table, doc) in (strings[language] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let source = language == dev ? nil : sourceStrings(table)?.dictionary
                for entry in doc.entries {
                    let sourceValue = source?[entry.key] ?? entry.value
                    guard TextChecks.isMessageFormat2(key: entry.key, source: sourceValue),
                        let problem = TextChecks.messageFormat2Problem(entry.value)
                    else { continue }
                    let (line, column, exact) = Self.filePosition(of: entry, line: problem.line, column: problem.column)
                    let at = exact ? "" : " (line \(problem.line), column \(problem.column) of the value)"
                    out.append(
                        Diagnostic(
                            file: doc.file, line: line, column: column, severity: .error, code: "mf2-syntax",
                            message: "\"\(entry.key)\" (\(language)): \(problem.message)\(at)", key: entry.key))
                }
            }
        }
        for (_, catalog) in catalogs.sorted(by: { $0.key < $1.key }) {
            for entry in catalog.entries {
                let source = entry.localizations[catalog.sourceLanguage]?.value ?? entry.key
                guard TextChecks.isMessageFormat2(key: entry.key, source: source) else { continue }
                for (language, localization) in entry.localizations.sorted(by: { $0.key < $1.key }) {
                    for (place, value) in Self.values(localization, place: "") {
                        guard let problem = TextChecks.messageFormat2Problem(value) else { continue }
                        out.append(
                            Diagnostic(
                                file: catalog.file, line: catalog.line(ofKey: entry.key), column: 1, severity: .error,
                                code: "mf2-syntax",
                                message: "\"\(entry.key)\" (\(language))\(place.isEmpty ? "" : " \(place)"): "
                                    + "\(problem.message) (line \(problem.line), column \(problem.column) of the value)",
                                key: entry.key))
                    }
                }
            }
        }
        return out
    }
}
