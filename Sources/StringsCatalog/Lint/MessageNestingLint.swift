import ICUKit

extension LocalizationFolder {
    /// Values nested deeper than `MessageFormat.maximumNestingDepth` (ICU would overflow the stack
    /// formatting them; templates refuse them): one error per value, in every language, naming the file,
    /// line and column, the key and the language. Part of ``lint()``.
    ///
    /// ```swift
    /// let localizations = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// for d in localizations.messageNestingFindings() { print(d) }
    /// // de.lproj/invite.strings:4:9: error: "invite.body" (de): sub-messages nest more than 64 levels …
    /// ```
    public func messageNestingFindings() -> [Diagnostic] {
        var out: [Diagnostic] = []
        let limit = MessageFormat.maximumNestingDepth
        func finding(_ file: String, _ line: Int, _ column: Int, _ key: String, _ language: String, _ where: String)
            -> Diagnostic
        {
            Diagnostic(
                file: file, line: line, column: column, severity: .error, code: "message-nesting",
                message: "\"\(key)\" (\(language)): sub-messages nest more than \(limit) levels deep\(`where`) "
                    + "(ICU MessageFormat allows at most \(limit))", key: key)
        }
        for language in languages {
            for (_, doc) in (strings[language] ?? [:]).sorted(by: { $0.key < $1.key }) {
                // A byte check (Foundation's contains would search each value as an NSString).
                for entry in doc.entries where entry.value.utf8.contains(UInt8(ascii: "{")) {
                    guard let at = Self.nestingViolation(entry.value, limit: limit) else { continue }
                    let (line, column, exact) = Self.filePosition(of: entry, line: at.line, column: at.column)
                    let whereText = exact ? "" : " at line \(at.line), column \(at.column) of the value"
                    out.append(finding(doc.file, line, column, entry.key, language, whereText))
                }
            }
        }
        for (_, catalog) in catalogs.sorted(by: { $0.key < $1.key }) {
            for entry in catalog.entries {
                for (language, localization) in entry.localizations.sorted(by: { $0.key < $1.key }) {
                    for (place, value) in Self.values(localization, place: "") where value.contains("{") {
                        guard let at = Self.nestingViolation(value, limit: limit) else { continue }
                        let whereText =
                            (place.isEmpty ? "" : " in \(place)")
                            + " at line \(at.line), column \(at.column) of the value"
                        out.append(
                            finding(catalog.file, catalog.line(ofKey: entry.key), 1, entry.key, language, whereText))
                    }
                }
            }
        }
        return out
    }

    /// Every value of a string catalog localization with where it is ("plural.one", "device.iphone", …).
    static func values(_ l: XCStringsDocument.Localization, place: String) -> [(String, String)] {
        var out: [(String, String)] = []
        func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }
        if let v = l.value { out.append((place, v)) }
        for (c, sub) in l.plural.sorted(by: { $0.key < $1.key }) {
            out += values(sub, place: join(place, "plural.\(c)"))
        }
        for (d, sub) in l.device.sorted(by: { $0.key < $1.key }) {
            out += values(sub, place: join(place, "device.\(d)"))
        }
        for (n, s) in l.substitutions.sorted(by: { $0.key < $1.key }) {
            for (c, sub) in s.plural.sorted(by: { $0.key < $1.key }) {
                out += values(sub, place: join(place, "substitutions.\(n).plural.\(c)"))
            }
        }
        return out
    }

    static func nestingViolation(_ value: String, limit: Int) -> (line: Int, column: Int)? {
        do { try MessageFormat.checkNesting(value, limit: limit) } catch ICUError.nestingTooDeep(let l, let c, _) {
            return (l, c)
        } catch {}
        return nil
    }

    /// The file position of (line, column) of an entry's value: exact when the value is written without
    /// escapes, else where the value starts (`exact` false).
    static func filePosition(of entry: StringsDocument.Entry, line: Int, column: Int) -> (
        line: Int, column: Int, exact: Bool
    ) {
        guard entry.valueLine > 0, let raw = entry.rawValue, raw.hasPrefix("\""), !raw.contains("\\") else {
            return entry.valueLine > 0
                ? (entry.valueLine, entry.valueColumn, false) : (entry.line, entry.column, false)
        }
        // Column 1 of the value is just after the opening quote.
        return line == 1
            ? (entry.valueLine, entry.valueColumn + column, true) : (entry.valueLine + line - 1, column, true)
    }
}
