import Foundation

/// Lint findings written for people (one `file:line:col: severity [check] message` line each and a summary),
/// as a JSON array, or as SARIF 2.1.0 for code-scanning tools in CI.
///
/// ```swift
/// let findings = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations")).lint()
/// print(LintReport.text(findings))
/// // de.lproj/Localizable.strings:3:9: error [placeholders] "greeting": lacks {{name}} of the source
/// // 1 error, 0 warnings, 0 notes
/// let sarif = try LintReport.sarif(findings)   // {"$schema": …, "version": "2.1.0", "runs": [ … ]}
/// ```
public enum LintReport {
    /// The formats ``write(_:format:)`` writes.
    public enum Format: String, Sendable, CaseIterable {
        case text, json, sarif
    }

    /// The findings in `format`.
    public static func write(_ findings: [Diagnostic], format: Format) throws -> String {
        switch format {
        case .text: text(findings)
        case .json: try json(findings)
        case .sarif: try sarif(findings)
        }
    }

    /// One line per finding, then the counts of errors, warnings and notes.
    public static func text(_ findings: [Diagnostic]) -> String {
        var out = ""
        for f in findings { out += line(f) + "\n" }
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let notes = findings.filter { $0.severity == .note }.count
        return out + "\(count(errors, "error")), \(count(warnings, "warning")), \(count(notes, "note"))\n"
    }

    /// `file:line:col: severity [check] message`.
    public static func line(_ d: Diagnostic) -> String {
        "\(d.file):\(d.line):\(d.column): \(d.severity.rawValue) [\(d.code)] \(d.message)"
    }

    /// A JSON array of `{file, line, column, severity, code, message, key}`.
    public static func json(_ findings: [Diagnostic]) throws -> String {
        try encode(findings)
    }

    /// How many findings each check has, by check id.
    public static func counts(_ findings: [Diagnostic]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for f in findings { counts[f.code, default: 0] += 1 }
        return counts
    }

    /// A SARIF 2.1.0 log with one run: the tool and every check as a rule (its default level), and one result
    /// per finding with its level, message and location (the path as a relative URI, line and column).
    public static func sarif(_ findings: [Diagnostic], toolName: String = "contacts strings lint") throws -> String {
        var rules = LintCheck.all
        for code in Set(findings.map(\.code)) where LintCheck.named(code) == nil {
            rules.append(LintCheck(id: code, severity: .warning, summary: code))
        }
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let log = SARIF.Log(
            runs: [
                SARIF.Run(
                    tool: SARIF.Tool(
                        driver: SARIF.Driver(
                            name: toolName,
                            rules: rules.map {
                                SARIF.Rule(
                                    id: $0.id, shortDescription: SARIF.Text(text: $0.summary),
                                    defaultConfiguration: SARIF.Configuration(level: $0.severity.rawValue))
                            })),
                    results: findings.map { f in
                        SARIF.Result(
                            ruleId: f.code, ruleIndex: index[f.code] ?? 0, level: f.severity.rawValue,
                            message: SARIF.Text(text: f.message),
                            locations: [
                                SARIF.Location(
                                    physicalLocation: SARIF.PhysicalLocation(
                                        artifactLocation: SARIF.ArtifactLocation(uri: uri(f.file)),
                                        region: SARIF.Region(startLine: max(1, f.line), startColumn: max(1, f.column))))
                            ])
                    })
            ])
        return try encode(log)
    }

    /// A file path as a URI reference: relative paths stay relative, every byte outside a path's allowed
    /// characters percent-encoded.
    static func uri(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The part of SARIF 2.1.0's object model lint writes.
    enum SARIF {
        struct Log: Encodable {
            var schema = "https://json.schemastore.org/sarif-2.1.0.json"
            var version = "2.1.0"
            var runs: [Run]
            enum CodingKeys: String, CodingKey {
                case schema = "$schema"
                case version, runs
            }
        }
        struct Run: Encodable {
            var tool: Tool
            var results: [Result]
        }
        struct Tool: Encodable { var driver: Driver }
        struct Driver: Encodable {
            var name: String
            var rules: [Rule]
        }
        struct Rule: Encodable {
            var id: String
            var shortDescription: Text
            var defaultConfiguration: Configuration
        }
        struct Configuration: Encodable { var level: String }
        struct Text: Encodable { var text: String }
        struct Result: Encodable {
            var ruleId: String
            var ruleIndex: Int
            var level: String
            var message: Text
            var locations: [Location]
        }
        struct Location: Encodable { var physicalLocation: PhysicalLocation }
        struct PhysicalLocation: Encodable {
            var artifactLocation: ArtifactLocation
            var region: Region
        }
        struct ArtifactLocation: Encodable { var uri: String }
        struct Region: Encodable {
            var startLine: Int
            var startColumn: Int
        }
    }
}
