import Foundation

/// printf arguments of String Catalog localizations, with substitutions modelled as Xcode compiles them:
/// `%#@name@` takes the substitution's argument (`argNum`, else its own position) with the type of its
/// `formatSpecifier`, and `%arg` (or a plain `%lld`) in a substitution form is that same argument.
///
/// ```swift
/// let catalog = try XCStringsDocument(contentsOf: URL(fileURLWithPath: "Localizable.xcstrings"))
/// for entry in catalog.entries {
///     let reference = LocalizationFolder.CatalogFormatReference(entry: entry, sourceLanguage: "en")
///     let findings = LocalizationFolder.catalogFormatFindings(
///         entry: entry, language: "ru", reference: reference, file: "Localizable.xcstrings", line: 12)
/// }
/// ```
extension LocalizationFolder {
    /// One text of a localization and the arguments it uses (0-based index → kind).
    struct CatalogText {
        var place: String
        var signature: [Int: FormatSpecifier.Kind]
    }

    static func normalized(_ kind: FormatSpecifier.Kind) -> FormatSpecifier.Kind {
        kind == .unsigned || kind == .plural ? .signed : kind
    }

    /// The kind of a substitution's `formatSpecifier` (`lld` when absent).
    static func kind(ofFormatSpecifier spec: String?) -> FormatSpecifier.Kind {
        guard let first = try? PrintfFormat.arguments(of: "%" + (spec ?? "lld")).first else { return .signed }
        return normalized(first.specifier.kind)
    }

    /// The texts of a localization with their signatures, and the problems met (place, message).
    static func catalogTexts(
        _ loc: XCStringsDocument.Localization, fallback: [String: XCStringsDocument.Substitution]
    ) -> (texts: [CatalogText], problems: [(place: String, message: String)]) {
        var texts: [CatalogText] = []
        var problems: [(place: String, message: String)] = []
        var argumentOf: [String: Int] = [:]
        func signature(_ text: String, place: String) {
            let args: [(index: Int, specifier: FormatSpecifier)]
            do { args = try PrintfFormat.arguments(of: text) } catch {
                problems.append((place, "invalid format specifier in \"\(text)\": \(error)"))
                return
            }
            var sig: [Int: FormatSpecifier.Kind] = [:]
            func use(_ i: Int, _ kind: FormatSpecifier.Kind) {
                if let k = sig[i], k != kind {
                    problems.append((place, "argument \(i + 1) is used both as \(k.rawValue) and \(kind.rawValue)"))
                } else {
                    sig[i] = kind
                }
            }
            for (index, spec) in args {
                if let name = spec.variable {
                    guard let sub = loc.substitutions[name] ?? fallback[name] else {
                        problems.append((place, "uses %#@\(name)@ but defines no substitution \"\(name)\""))
                        continue
                    }
                    let i = sub.argNum.map { $0 - 1 } ?? index
                    if argumentOf[name] == nil { argumentOf[name] = i }
                    use(i, kind(ofFormatSpecifier: sub.formatSpecifier))
                } else {
                    use(index, normalized(spec.kind))
                }
            }
            texts.append(CatalogText(place: place, signature: sig))
        }
        func visit(_ l: XCStringsDocument.Localization, _ prefix: String) {
            if let v = l.value { signature(v, place: prefix) }
            let dot = prefix.isEmpty ? "" : prefix + "."
            for c in pluralCategoryNames {
                if let v = l.plural[c]?.value { signature(v, place: dot + "plural.\(c)") }
            }
            for (d, dl) in l.device.sorted(by: { $0.key < $1.key }) { visit(dl, dot + "device.\(d)") }
        }
        visit(loc, "")
        for (name, sub) in loc.substitutions.sorted(by: { $0.key < $1.key }) {
            let index = sub.argNum.map { $0 - 1 } ?? argumentOf[name] ?? 0
            let spec = sub.formatSpecifier ?? "lld"
            for c in pluralCategoryNames {
                guard let form = sub.plural[c]?.value else { continue }
                let place = "substitutions.\(name).plural.\(c)"
                let pinned: String
                do {
                    pinned = try StringsDictEntry.pinSequential(
                        form.replacingOccurrences(of: "%arg", with: "%\(index + 1)$\(spec)"), to: index + 1)
                } catch {
                    problems.append((place, "invalid format specifier in \"\(form)\": \(error)"))
                    continue
                }
                signature(pinned, place: place)
            }
        }
        return (texts, problems)
    }

    /// What the code passes for a catalog entry, the same for every language: the arguments of the source
    /// localization and, where it is silent, those of the key (when it is a format). Made once per entry.
    struct CatalogFormatReference {
        /// The arguments the source localization uses.
        var sourceUses: [Int: FormatSpecifier.Kind] = [:]
        /// Every argument a translation may use, with its type.
        var arguments: [Int: FormatSpecifier.Kind]
        /// Substitutions a translation may use without defining them.
        var sourceSubstitutions: [String: XCStringsDocument.Substitution]

        init(entry: XCStringsDocument.Entry, sourceLanguage: String) {
            let src = entry.localizations[sourceLanguage]
            for t in src.map({ LocalizationFolder.catalogTexts($0, fallback: [:]).texts }) ?? [] {
                sourceUses.merge(t.signature) { a, _ in a }
            }
            // Without a source localization the key is the source text.
            arguments = sourceUses
            if let keyArgs = try? PrintfFormat.arguments(of: entry.key),
                !keyArgs.contains(where: { $0.1.variable != nil })
            {
                for (i, spec) in keyArgs where arguments[i] == nil {
                    arguments[i] = LocalizationFolder.normalized(spec.kind)
                }
            }
            sourceSubstitutions = src?.substitutions ?? [:]
        }
    }

    /// Format findings of one language of a catalog entry. The arguments the code passes are the
    /// `reference`'s; a translation may leave some out (a warning when it uses none of the source's), but
    /// must not use others or change their type.
    static func catalogFormatFindings(
        entry: XCStringsDocument.Entry, language: String, reference format: CatalogFormatReference, file: String,
        line: Int
    ) -> [Diagnostic] {
        guard let loc = entry.localizations[language] else { return [] }
        let sourceUses = format.sourceUses
        let reference = format.arguments
        let (texts, problems) = catalogTexts(loc, fallback: format.sourceSubstitutions)
        var out: [Diagnostic] = []
        func finding(_ place: String, _ severity: Diagnostic.Severity, _ code: String, _ message: String) {
            let at = place.isEmpty ? "" : " \(place)"
            out.append(
                Diagnostic(
                    file: file, line: line, column: 1, severity: severity, code: code,
                    message: "\"\(entry.key)\" \(language)\(at): \(message)", key: entry.key))
        }
        for p in problems {
            finding(p.place, .error, p.message.hasPrefix("invalid") ? "format-invalid" : "format-mismatch", p.message)
        }
        var used: Set<Int> = []
        for t in texts {
            for (i, kind) in t.signature.sorted(by: { $0.key < $1.key }) {
                used.insert(i)
                guard let expected = reference[i] else {
                    finding(
                        t.place, .error, "format-mismatch",
                        "uses argument \(i + 1) (\(kind.rawValue)), which the source does not have: source ["
                            + describe(reference) + "], translation [" + describe(t.signature) + "]")
                    continue
                }
                if expected != kind {
                    finding(
                        t.place, .error, "format-mismatch",
                        "argument \(i + 1) is \(kind.rawValue) here but \(expected.rawValue) in the source: source ["
                            + describe(reference) + "], translation [" + describe(t.signature) + "]")
                }
            }
        }
        let unused = sourceUses.keys.filter { !used.contains($0) }.sorted()
        if !texts.isEmpty && !unused.isEmpty {
            finding(
                "", .warning, "format-unused",
                "does not use argument" + (unused.count == 1 ? " " : "s ")
                    + unused.map { "\($0 + 1) (\(sourceUses[$0]!.rawValue))" }.joined(separator: ", ")
                    + " of the source")
        }
        return out
    }
}
