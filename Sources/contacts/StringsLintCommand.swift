import ArgumentModel
import Foundation
import StringsCatalog

struct StringsLintCommand: Command {
    static let name = "strings lint"
    static let summary = "Check strings files: syntax, missing/extra keys, format specifiers, plurals"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Checks every <lang>.lproj/*.strings, *.stringsdict and *.xcstrings under DIR (default: ./Localizations):
            syntax errors (file:line:col, including what CoreFoundation would silently truncate), duplicate keys,
            keys missing from or extra to the development language (--dev, default en), printf specifiers that
            differ from the source (count, type, order), empty values, untranslated values, and plural categories
            the language needs (ICU plural rules) but lacks.

            Output: one 'file:line:col: severity: message' line per finding, then a summary.
            Exit: 0 when there are no errors (warnings and notes allowed), 1 when there are errors.
            """,
        options: [
            StringsCommandSupport.devOption,
            .flag("--json", help: "print an array of {file, line, column, severity, code, message}"),
            .flag("--quiet", help: "hide notes"),
        ],
        arguments: [StringsCommandSupport.dirArgument],
        examples: ["contacts strings lint Localizations"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let json = args.flag("--json")
        let quiet = args.flag("--quiet")
        let dev = try args.option("--dev")
        let dir = try args.positionals(max: 1, names: "DIR").first
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name, unreadable: .keep)
        var findings = folder.lint()
        if quiet { findings.removeAll { $0.severity == .note } }
        var out = Output()
        if json {
            out.write(try jsonString(findings))
            out.line()
        } else {
            for f in findings { out.line(f.description) }
            let errors = findings.filter { $0.severity == .error }.count
            let warnings = findings.filter { $0.severity == .warning }.count
            let notes = findings.filter { $0.severity == .note }.count
            out.line(
                "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(notes) note\(notes == 1 ? "" : "s")"
            )
        }
        out.flush()
        return findings.contains { $0.severity == .error } ? .failure : .ok
    }
}
