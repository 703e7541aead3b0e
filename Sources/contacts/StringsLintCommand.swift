import ArgumentModel
import Foundation
import StringsCatalog

struct StringsLintCommand: Command {
    static let name = "strings lint"
    static let summary = "Check strings files: syntax, missing/extra keys, format specifiers, plurals"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Checks every <lang>.lproj/*.strings, *.stringsdict and *.xcstrings under DIR (default: ./Localizations)
            against the development language (--dev, default en). Each check has an id and a severity:
            \(LintCheck.all.map { "  \($0.id) (\($0.severity.rawValue)): \($0.summary)" }.joined(separator: "\n"))

            --error CHECK makes a check's findings errors, --ignore CHECK drops them (both repeatable). A key's
            comment turns checks off for it ('/* lint-ignore: same-as-source, punctuation */' above a .strings
            entry, an XML comment before a .stringsdict key, the "comment" of an .xcstrings key; on the source
            it holds in every language) and 'max-length: N' limits its translations to N characters.

            Output: one 'file:line:col: severity [check] message' line per finding and a summary; --format json
            (an array of {file, line, column, severity, code, message, key}) or --format sarif (SARIF 2.1.0).
            Exit: 0 when there are no errors (warnings and notes allowed), 1 when there are errors.
            """,
        options: [
            StringsCommandSupport.devOption,
            .option(
                "--format", value: "FORMAT", help: "text (default), json or sarif",
                allowed: LintReport.Format.allCases.map(\.rawValue)),
            .flag("--json", help: "the same as --format json"),
            .repeated("--error", value: "CHECK", help: "report this check's findings as errors"),
            .repeated("--ignore", value: "CHECK", help: "drop this check's findings"),
            .option("--max-length", value: "N", help: "the most characters any translation may have"),
            .flag("--quiet", help: "hide notes"),
        ],
        arguments: [StringsCommandSupport.dirArgument],
        examples: [
            "contacts strings lint Localizations",
            "contacts strings lint Localizations --ignore punctuation --error double-space --format sarif",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let format =
            args.flag("--json") ? .json : try LintReport.Format(rawValue: args.option("--format") ?? "text") ?? .text
        let quiet = args.flag("--quiet")
        let dev = try args.option("--dev")
        var options = LintOptions()
        do {
            for check in try args.options("--error") { try options.set(check, to: .error) }
            for check in try args.options("--ignore") { try options.ignore(check) }
        } catch let error as StringsCatalogError {
            throw CLIError.usage("\(name): \(error)")
        }
        if let n = try args.option("--max-length") {
            guard let limit = Int(n), limit > 0 else {
                throw CLIError.usage("\(name): --max-length takes a positive number of characters, not \"\(n)\"")
            }
            options.maxLength = limit
        }
        let dir = try args.positionals(max: 1, names: "DIR").first
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name, unreadable: .keep)
        var findings = folder.lint(options: options)
        if quiet { findings.removeAll { $0.severity == .note } }
        var out = Output()
        out.write(try LintReport.write(findings, format: format))
        if format != .text { out.line() }
        out.flush()
        return findings.contains { $0.severity == .error } ? .failure : .ok
    }
}
