import Foundation
import Locales

/// A file of a looked-up table that could not be read (at all, or in part) for a language the lookup
/// wanted: the answer came from a fallback, which the caller says.
public struct LookupProblem: Sendable, Hashable {
    /// The file's first error (file, line, column).
    public var diagnostic: Diagnostic
    /// The file's path.
    public var file: String
    /// True when the file could not be read at all (false: it has errors, its good entries are served).
    public var unreadable: Bool
    /// Where the answer came from instead: "answered from de (…/de.lproj/Localizable.strings)", or "no
    /// language has the key".
    public var answer: String
}

extension Catalog {
    /// The damaged files of `table` that a lookup of `key` for `requested` (language lists, each possibly
    /// `a:b:c`) would have used: one per file, with its first error and where the answer came from. The
    /// development language counts only when no language answered.
    ///
    /// ```swift
    /// let catalog = try Catalog(directory: URL(fileURLWithPath: "Localizations"))
    /// for p in catalog.lookupProblems("Cancel", table: "Localizable", requested: ["de"]) {
    ///     print(p.diagnostic, p.answer)   // de.lproj/Localizable.strings:3:1: error: … answered from en (…)
    /// }
    /// ```
    public func lookupProblems(_ key: String, table: String, requested: [String]) -> [LookupProblem] {
        let answeredBy = language(of: key, table: table, locale: requested.joined(separator: ":"))
        let expanded = requested.flatMap { $0.split(separator: ":").map(String.init) }
        var out: [LookupProblem] = []
        for file in files where file.table == table {
            let problems = diagnostics.filter { $0.file == file.url.path && $0.severity == .error }
            guard let first = problems.first else { continue }
            if let language = file.language {
                // A requested language, or the development language (tried last) when nothing answered.
                let wanted =
                    (language == developmentLanguage && answeredBy == nil)
                    || !LocalePolicy.match(requested: expanded, available: [language]).isEmpty
                guard wanted && language != answeredBy else { continue }
            }
            let answer =
                answeredBy.map { l in
                    let usable = files.filter { f in
                        f.table == table && !loadErrors.contains { $0.file == f.url.path }
                    }
                    let from = usable.first { $0.language == l } ?? usable.first { $0.language == nil }
                    return "answered from \(l)" + (from.map { " (\($0.url.path))" } ?? "")
                } ?? "no language has the key"
            out.append(
                LookupProblem(
                    diagnostic: first, file: file.url.path,
                    unreadable: loadErrors.contains { $0.file == file.url.path }, answer: answer))
        }
        return out
    }
}
