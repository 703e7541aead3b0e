/// One kind of finding of ``LocalizationFolder/lint(options:)``: a stable id (the ``Diagnostic/code`` of its
/// findings), the severity it has unless the user changes it, and what it looks for.
///
/// ```swift
/// LintCheck.named("placeholders")?.severity   // .error
/// LintCheck.all.map(\.id)                     // ["syntax", "encoding", …, "max-length", …]
/// ```
public struct LintCheck: Sendable, Hashable, Codable {
    /// The stable id: what `--error`, `--ignore` and a `lint-ignore:` comment name.
    public var id: String
    /// The severity of its findings unless ``LintOptions`` changes it.
    public var severity: Diagnostic.Severity
    /// What the check finds, in one line.
    public var summary: String

    public init(id: String, severity: Diagnostic.Severity, summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }

    /// Every check, in the order they are documented.
    public static let all: [LintCheck] = [
        LintCheck(id: "syntax", severity: .error, summary: "the file does not parse"),
        LintCheck(id: "encoding", severity: .error, summary: "the bytes are not text in a strings file's encoding"),
        LintCheck(id: "io", severity: .error, summary: "the file cannot be read"),
        LintCheck(id: "duplicate-key", severity: .error, summary: "a key is written twice (only the first is read)"),
        LintCheck(id: "no-source", severity: .error, summary: "no development-language folder to compare with"),
        LintCheck(id: "missing-file", severity: .warning, summary: "a language lacks a table the source has"),
        LintCheck(id: "missing-key", severity: .warning, summary: "a translation lacks a key of the source"),
        LintCheck(id: "extra-key", severity: .warning, summary: "a translation has a key the source lacks"),
        LintCheck(id: "case-mismatch", severity: .warning, summary: "table names differ only in letter case"),
        LintCheck(id: "empty-value", severity: .warning, summary: "a translation is empty"),
        LintCheck(id: "format-invalid", severity: .error, summary: "a printf specifier does not parse"),
        LintCheck(
            id: "format-mismatch", severity: .error,
            summary: "printf/ObjC specifiers (plain, positional, %#@var@) extra or retyped against the source"),
        LintCheck(id: "format-unused", severity: .warning, summary: "a translation uses none of an argument"),
        LintCheck(
            id: "source-format-type", severity: .warning,
            summary: "a source .stringsdict declares a format type its own forms do not use"),
        LintCheck(
            id: "placeholders", severity: .error,
            summary: "ICU {arg}, Mustache {{tag}} or MessageFormat 2 $variable missing, extra or retyped"),
        LintCheck(id: "mf2-syntax", severity: .error, summary: "a MessageFormat 2 value does not parse or validate"),
        LintCheck(id: "message-nesting", severity: .error, summary: "ICU sub-messages nest too deep"),
        LintCheck(
            id: "plural-category", severity: .warning,
            summary: "plural categories the language needs but lacks, or never uses (ICU plural rules)"),
        LintCheck(id: "markup", severity: .warning, summary: "markup tags differ from the source"),
        LintCheck(id: "urls", severity: .warning, summary: "URLs differ from the source"),
        LintCheck(
            id: "whitespace", severity: .warning,
            summary: "leading or trailing spaces or newlines differ from the source"
        ),
        LintCheck(
            id: "punctuation", severity: .warning,
            summary: "the ending punctuation differs from the source (language-aware: 。 ؟ Greek ;)"),
        LintCheck(id: "double-space", severity: .warning, summary: "a double space the source does not have"),
        LintCheck(
            id: "max-length", severity: .error,
            summary: "longer than a max-length comment or --max-length allows (in characters)"),
        LintCheck(id: "same-as-source", severity: .note, summary: "a translation equal to the source text"),
        LintCheck(
            id: "needs-review", severity: .note,
            summary: "left in needs_review/new state or marked NEEDS TRANSLATION by sync"),
    ]

    /// The check with this id, nil when there is none.
    public static func named(_ id: String) -> LintCheck? { byID[id] }

    static let byID: [String: LintCheck] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
}

/// How ``LocalizationFolder/lint(options:)`` reports: checks whose severity the user changed or ignores, and
/// a length limit for every translation.
///
/// ```swift
/// var options = LintOptions()
/// try options.set("same-as-source", to: .error)
/// try options.ignore("punctuation")
/// options.maxLength = 40
/// let findings = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations")).lint(options: options)
/// ```
public struct LintOptions: Sendable, Hashable {
    /// Checks whose findings have another severity than the check's own; nil ignores the check.
    public private(set) var severities: [String: Diagnostic.Severity?] = [:]
    /// The most characters (grapheme clusters) any translation may have; a `max-length: N` comment on a key
    /// overrides it for that key.
    public var maxLength: Int?

    public init(maxLength: Int? = nil) { self.maxLength = maxLength }

    /// Gives a check's findings another severity.
    /// - Throws: ``StringsCatalogError/invalidArgument(_:)`` for an id no check has.
    public mutating func set(_ check: String, to severity: Diagnostic.Severity) throws {
        try Self.validate(check)
        severities[check] = .some(severity)
    }

    /// Drops a check's findings.
    /// - Throws: ``StringsCatalogError/invalidArgument(_:)`` for an id no check has.
    public mutating func ignore(_ check: String) throws {
        try Self.validate(check)
        severities[check] = .some(nil)
    }

    /// The severity a finding of `check` is reported with, nil when it is ignored.
    public func severity(of check: String, default severity: Diagnostic.Severity) -> Diagnostic.Severity? {
        if let set = severities[check] { return set }
        return severity
    }

    static func validate(_ check: String) throws {
        guard LintCheck.named(check) == nil else { return }
        throw StringsCatalogError.invalidArgument(
            "no lint check \"\(check)\" (checks: \(LintCheck.all.map(\.id).joined(separator: ", ")))")
    }
}
