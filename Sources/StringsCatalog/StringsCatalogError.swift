import Foundation

/// Everything that can go wrong in StringsCatalog. Cases say what happened and where.
///
/// ```swift
/// do { _ = try StringsDocument(contentsOf: url) }
/// catch let error as StringsCatalogError { print(error) }   // "Fr.strings: cannot read file: …"
/// ```
public enum StringsCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file could not be read or written.
    case io(path: String, message: String)
    /// The bytes are not text in any encoding a strings file may use.
    case undecodable(file: String, message: String)
    /// A file has syntax errors that make it unusable as a whole (e.g. a malformed plist or JSON).
    case malformed(file: String, line: Int, column: Int, message: String)
    /// Writing back would lose bytes the user wrote (the file was decoded with replacements).
    case wouldLoseData(file: String, message: String)
    /// A gettext `plural=` expression that does not parse: the 1-based column and what was expected there.
    case pluralExpression(column: Int, message: String)
    /// A format pattern and its arguments disagree (count or type).
    case formatMismatch(pattern: String, message: String)
    /// A key is not in the catalog (in any fallback language).
    case missingKey(key: String, table: String, locale: String)
    /// An argument was not understood (a locale, a table name).
    case invalidArgument(String)
    /// The folder a tool was given does not exist.
    case noSuchFolder(String)
    /// The path a tool was given as a folder is a file.
    case notAFolder(String)
    /// The folder (as the user named it) holds no localization file at any depth.
    case noLocalizationFiles(String)
    /// Files that could not be read at all; the tool stopped before writing anything.
    case unreadableFiles([Diagnostic])
    /// A strings folder could not be listed.
    case cannotReadFolder(String, reason: String)
    /// A rendering catalog's files have errors (each with file, line, column); nothing was rendered.
    case catalogErrors([Diagnostic], folder: String)
    /// `sync` refuses a folder whose files have syntax or encoding errors (the first one).
    case fixSyntaxFirst(Diagnostic)

    /// True for what the user or a file's author got wrong (a malformed or undecodable file, a bad argument,
    /// a folder that is not there or holds no localizations, a key no language has), false for what failed
    /// while reading or writing (I/O, a folder that cannot be listed, files that cannot be read): the cases
    /// split by audience.
    public var isUsageError: Bool {
        switch self {
        case .io, .cannotReadFolder, .unreadableFiles: return false
        default: return true
        }
    }

    /// The findings behind the error, each to be shown (file, line, column) before its ``description``,
    /// which says "see above".
    public var findings: [Diagnostic] {
        switch self {
        case .unreadableFiles(let problems), .catalogErrors(let problems, _): return problems
        default: return []
        }
    }

    public var description: String {
        switch self {
        case .io(let path, let message): return "\(path): \(message)"
        case .undecodable(let file, let message): return "\(file): \(message)"
        case .malformed(let file, let line, let column, let message): return "\(file):\(line):\(column): \(message)"
        case .wouldLoseData(let file, let message): return "\(file): \(message)"
        case .pluralExpression(let column, let message): return "column \(column): \(message)"
        case .formatMismatch(let pattern, let message): return "format \"\(pattern)\": \(message)"
        case .missingKey(let key, let table, let locale): return "no string \"\(key)\" in table \(table) for \(locale)"
        case .invalidArgument(let message): return message
        case .noSuchFolder(let path): return "no such folder: \(path)"
        case .notAFolder(let path): return "\(path) is not a folder"
        case .noLocalizationFiles(let folder):
            return "no localization files in \(folder): no <lang>.lproj folder with .strings or "
                + ".stringsdict files and no .xcstrings file, at any depth (hidden folders such as .build and "
                + ".git, DerivedData, Pods and node_modules are not searched)"
        case .unreadableFiles(let problems):
            let n = problems.count
            return "\(n) file\(n == 1 ? "" : "s") could not be read (see above); nothing done"
        case .cannotReadFolder(let folder, let reason): return "cannot read strings folder \(folder): \(reason)"
        case .catalogErrors(let errors, let folder):
            let files = Set(errors.map(\.file)).count
            return "\(files) strings file\(files == 1 ? " has" : "s have") errors (see above; "
                + "'contacts strings lint \(folder)' lists them all); nothing done"
        case .fixSyntaxFirst(let problem): return "fix syntax errors first (nothing written): \(problem)"
        }
    }
}

/// One finding about a file: where (file, line, column, all 1-based) and what.
///
/// ```swift
/// let doc = StringsDocument(parsing: data, file: "de.lproj/Localizable.strings")
/// for d in doc.diagnostics { print(d) }   // de.lproj/Localizable.strings:3:12: error: expected ';' …
/// ```
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Hashable { case error, warning, note }
    public var file: String
    public var line: Int
    public var column: Int
    public var severity: Severity
    /// A short, stable identifier of the kind of finding ("syntax", "duplicate-key", "format-mismatch", …).
    public var code: String
    public var message: String
    /// The key the finding is about, when it is about one (what a `lint-ignore:` comment on the key matches).
    public var key: String?

    public init(
        file: String, line: Int, column: Int, severity: Severity, code: String, message: String, key: String? = nil
    ) {
        self.key = key
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.code = code
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}
