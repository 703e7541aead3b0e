import ArgumentModel
import Foundation
import StringsCatalog

struct StringsStatusCommand: Command {
    static let name = "strings status"
    static let summary = "Translation coverage per language"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Prints a table of the source keys each language translates, lacks, or has untranslated
            (identical to the source, or marked for translation by 'strings sync').
            """,
        options: [StringsCommandSupport.devOption, .flag("--json", help: "the table as a JSON array")],
        arguments: [StringsCommandSupport.dirArgument],
        examples: ["contacts strings status Localizations"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let json = args.flag("--json")
        let dev = try args.option("--dev")
        let dir = try args.positionals(max: 1, names: "DIR").first
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name, unreadable: .report)
        let rows = folder.status()
        var out = Output()
        out.write(json ? try jsonString(rows) + "\n" : LanguageStatus.table(rows))
        out.flush()
        guard let note = folder.uncountedFilesNote else { return .ok }
        printError("contacts: \(name): \(note)")
        return .failure
    }
}

struct StringsSyncCommand: Command {
    static let name = "strings sync"
    static let summary = "Add missing keys to every language (and --prune stale ones)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Adds every key of the development language that a language lacks, with the source value and the
            source comment prefixed 'NEEDS TRANSLATION (copied from en)', to its .strings / .stringsdict.
            Nothing else in the files changes.
            """,
        options: [
            StringsCommandSupport.devOption,
            .flag(
                "--prune",
                help: """
                    remove keys (and their comments) that the development language no longer has, and
                    String Catalog keys whose extractionState is "stale"
                    """),
            .flag("--dry-run", help: "report without writing"),
        ],
        arguments: [StringsCommandSupport.dirArgument],
        examples: ["contacts strings sync Localizations --prune"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let prune = args.flag("--prune")
        let dry = args.flag("--dry-run")
        let dev = try args.option("--dev")
        let dir = try args.positionals(max: 1, names: "DIR").first
        var folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let report = try StringsCommandSupport.run(name) { try folder.syncChecked(prune: prune) }
        var out = Output()
        for line in report.changeLines { out.line(line) }
        for p in report.problems { printError("contacts: \(name): \(p)") }
        try StringsCommandSupport.save(folder, dryRun: dry, output: &out, command: name)
        out.line(report.summary(dryRun: dry))
        out.flush()
        return report.problems.isEmpty ? .ok : .failure
    }
}
