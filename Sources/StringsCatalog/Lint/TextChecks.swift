import Foundation
import MessageFormat2

/// The checks of one translated text against its source text that need nothing but the two texts and the
/// language (Weblate's and Crowdin's per-string checks): placeholders, plural selectors, markup, URLs,
/// whitespace at the ends, ending punctuation, double spaces and a length limit. printf specifiers are
/// compared elsewhere, with the types the code passes.
///
/// ```swift
/// let findings = TextChecks.compare(source: "Open {{name}}.", translation: "Öffnen {{nom}}", language: "de")
/// findings.map(\.check)   // ["placeholders", "placeholders", "punctuation"]
/// ```
enum TextChecks {
    /// One finding: the check's id and what is wrong.
    struct Finding: Equatable {
        var check: String
        var message: String
    }

    /// A value is a Unicode MessageFormat 2 message when its key says so (`…_mf2`, `….mf2`) or its source is a
    /// complex message (starting with `.input`, `.local` or `.match`).
    static func isMessageFormat2(key: String, source: String) -> Bool {
        MessageSyntax(key: key, value: source) == .messageFormat2
    }

    /// The problem of an MF2 value (syntax with line and column within the value, or a data-model error).
    static func messageFormat2Problem(_ value: String) -> (line: Int, column: Int, message: String)? {
        do {
            let message = try Message(parsing: value)
            try message.validate()
            return nil
        } catch .syntax(let line, let column, let text) {
            return (line, column, "MessageFormat 2 syntax error: \(text)")
        } catch {
            return (1, 1, "MessageFormat 2: \(error)")
        }
    }

    static func compare(
        source: String, translation: String, language: String, sourceLanguage: String = "en", mf2: Bool = false,
        maxLength: Int? = nil
    ) -> [Finding] {
        var out: [Finding] = []
        if let maxLength, translation.count > maxLength {
            out.append(
                Finding(
                    check: "max-length",
                    message: "has \(translation.count) characters, more than the \(maxLength) allowed"))
        }
        if mf2 {
            let s = (try? Message(parsing: source))?.externalVariables
            let t = (try? Message(parsing: translation))?.externalVariables
            if let s, let t { out += setDifference("$", Set(s), Set(t)) }
            return out
        }
        if source == translation {
            // Equal texts differ in nothing; only the language's plural categories can be wrong.
            return out + pluralSelectorFindings(PlaceholderScan(translation).pluralSelectors, language: language)
        }
        let s = PlaceholderScan(source)
        let t = PlaceholderScan(translation)
        if s.mustache != t.mustache {
            out += setDifference("{{", Set(s.mustache), Set(t.mustache), close: "}}")
            if Set(s.mustache) == Set(t.mustache) && s.mustache.sorted() != t.mustache.sorted() {
                out.append(Finding(check: "placeholders", message: "Mustache tags are repeated differently"))
            }
        }
        if let si = s.icu, let ti = t.icu, si != ti {
            out += setDifference("{", Set(si.keys), Set(ti.keys), close: "}")
            for (name, type) in ti.sorted(by: { $0.key < $1.key }) where si[name] != nil && si[name] != type {
                out.append(
                    Finding(
                        check: "placeholders",
                        message: "{\(name)} is \(type.isEmpty ? "plain" : type) here but "
                            + "\(si[name]!.isEmpty ? "plain" : si[name]!) in the source"))
            }
        }
        out += pluralSelectorFindings(t.pluralSelectors, language: language)
        if s.markup.sorted() != t.markup.sorted() {
            out.append(
                Finding(
                    check: "markup",
                    message: "markup differs from the source: here [\(t.markup.joined(separator: " "))], "
                        + "source [\(s.markup.joined(separator: " "))]"))
        }
        if Set(s.urls) != Set(t.urls) {
            let missing = s.urls.filter { !t.urls.contains($0) }
            let extra = t.urls.filter { !s.urls.contains($0) }
            out.append(
                Finding(
                    check: "urls",
                    message: (missing.isEmpty
                        ? ""
                        : "lacks the URL\(missing.count == 1 ? "" : "s") "
                            + missing.joined(separator: ", ")) + (missing.isEmpty || extra.isEmpty ? "" : "; ")
                        + (extra.isEmpty
                            ? ""
                            : "has the URL\(extra.count == 1 ? "" : "s") "
                                + extra.joined(separator: ", ") + " the source lacks")))
        }
        out += whitespaceFindings(source: source, translation: translation)
        if let p = punctuationFinding(
            source: source, translation: translation, language: language, sourceLanguage: sourceLanguage)
        {
            out.append(p)
        }
        if hasDoubleSpace(translation) && !hasDoubleSpace(source) {
            out.append(Finding(check: "double-space", message: "has a double space the source does not have"))
        }
        return out
    }

    static func hasDoubleSpace(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for b in text.utf8 {
            if b == 0x20 && previous == 0x20 { return true }
            previous = b
        }
        return false
    }

    static func setDifference(_ open: String, _ source: Set<String>, _ translation: Set<String>, close: String = "")
        -> [Finding]
    {
        let missing = source.subtracting(translation).sorted()
        let extra = translation.subtracting(source).sorted()
        guard !missing.isEmpty || !extra.isEmpty else { return [] }
        // One finding per text: a renamed placeholder is one mistake.
        var parts: [String] = []
        if !missing.isEmpty { parts.append("lacks " + missing.map { open + $0 + close }.joined(separator: ", ")) }
        if !extra.isEmpty {
            parts.append("has " + extra.map { open + $0 + close }.joined(separator: ", ") + ", which the source lacks")
        }
        return [Finding(check: "placeholders", message: parts.joined(separator: "; "))]
    }

    /// ICU plural arguments that lack a category the language needs or list one it never selects.
    static func pluralSelectorFindings(_ selectors: [String: [String]], language: String) -> [Finding] {
        guard !selectors.isEmpty else { return [] }
        var out: [Finding] = []
        let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
        for (name, found) in selectors.sorted(by: { $0.key < $1.key }) {
            let present = Set(found)
            let missing = needed.filter { !present.contains($0) }
            if !missing.isEmpty {
                out.append(
                    Finding(
                        check: "plural-category",
                        message: "{\(name), plural} lacks the \(language) categories "
                            + missing.joined(separator: ", ")))
            }
            let foreign = LocalizationFolder.foreignCategories(present, language: language, needed: needed)
            if !foreign.isEmpty {
                out.append(
                    Finding(
                        check: "plural-category",
                        message: "{\(name), plural} has the categories \(foreign.joined(separator: ", ")), "
                            + "which \(language) does not use (never shown)"))
            }
        }
        return out
    }

    static func whitespaceFindings(source: String, translation: String) -> [Finding] {
        func describe(_ s: Substring) -> String {
            s.isEmpty
                ? "nothing"
                : "\"" + s.map { $0 == "\n" ? "\\n" : $0 == "\t" ? "\\t" : String($0) }.joined() + "\""
        }
        var out: [Finding] = []
        let sLead = source.prefix { $0.isWhitespace }
        let tLead = translation.prefix { $0.isWhitespace }
        if sLead != tLead && !translation.isEmpty {
            out.append(
                Finding(
                    check: "whitespace",
                    message: "starts with \(describe(tLead)) but the source with \(describe(sLead))"))
        }
        let sTrail = source.reversed().prefix { $0.isWhitespace }
        let tTrail = translation.reversed().prefix { $0.isWhitespace }
        if !sTrail.elementsEqual(tTrail) && !translation.isEmpty && sLead.count < source.count {
            out.append(
                Finding(
                    check: "whitespace",
                    message: "ends with \(describe(Substring(String(tTrail.reversed())))) but the source with "
                        + describe(Substring(String(sTrail.reversed())))))
        }
        return out
    }
}
