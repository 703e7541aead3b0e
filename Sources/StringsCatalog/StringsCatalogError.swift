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
    /// A format pattern and its arguments disagree (count or type).
    case formatMismatch(pattern: String, message: String)
    /// A key is not in the catalog (in any fallback language).
    case missingKey(key: String, table: String, locale: String)
    /// An argument was not understood (a locale, a table name).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .io(let path, let message): return "\(path): \(message)"
        case .undecodable(let file, let message): return "\(file): \(message)"
        case .malformed(let file, let line, let column, let message): return "\(file):\(line):\(column): \(message)"
        case .wouldLoseData(let file, let message): return "\(file): \(message)"
        case .formatMismatch(let pattern, let message): return "format \"\(pattern)\": \(message)"
        case .missingKey(let key, let table, let locale): return "no string \"\(key)\" in table \(table) for \(locale)"
        case .invalidArgument(let message): return message
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
