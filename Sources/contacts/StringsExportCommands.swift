import ArgumentModel
import Foundation
import StringsCatalog

struct StringsExportXLIFFCommand: Command {
    static let name = "strings export-xliff"
    static let summary = "Export XLIFF 1.2 files for translators (one per language)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes OUTDIR/<lang>.xliff for every language of DIR other than the development language (or only the
            --language ones): one <file> per .strings, .stringsdict and .xcstrings table, with Xcode's trans-unit ids
            (`/key:dict/var:dict/one:dict/:string` for stringsdict plurals, `key|==|plural.one` for catalog
            variations), the source text, the current translation as <target>, and the translator comment as <note>.
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            .option(
                "--out", value: "OUTDIR", help: "where the .xliff files go", required: true, completion: .directory),
            .option("--language", value: "L[,L…]", help: "only these languages (comma-separated)"),
            StringsCommandSupport.devOption,
            .flag(
                "--xcloc",
                help: "write Xcode localization catalogs (OUTDIR/<lang>.xcloc: the XLIFF, contents.json, sources)"),
        ],
        examples: [
            "contacts strings export-xliff --dir Localizations --out xliff/",
            "contacts strings export-xliff --dir Localizations --out xcloc/ --language de --xcloc",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        guard let out = try args.option("--out") else { throw CLIError.usage("\(name): --out OUTDIR is required") }
        let only = try StringsCommandSupport.languages(&args)
        let dev = try args.option("--dev")
        let xcloc = args.flag("--xcloc")
        _ = try args.positionals(max: 0, names: "no positional arguments")
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let written = try StringsCommandSupport.run(name) {
            try XLIFF.write(folder, languages: only, into: URL(fileURLWithPath: out), bundle: xcloc)
        }
        var o = Output()
        for file in written {
            o.line("wrote \(file.url.path): \(file.entries) units, \(file.untranslated) without translation")
        }
        o.flush()
        return .ok
    }
}

struct StringsExportPOCommand: Command {
    static let name = "strings export-po"
    static let summary = "Export gettext .po files for translators (Poedit, Weblate)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes OUTDIR/<Table>/<lang>.po for every language of DIR other than the development language (or only
            the --language ones) and OUTDIR/<Table>/<Table>.pot: msgctxt is the key, msgid the development-language
            text, msgstr the translation; plurals get msgstr[n] in the order of the language's Plural-Forms;
            needs_review is #, fuzzy and stale catalog keys are obsolete #~ entries.
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            .option(
                "--out", value: "OUTDIR", help: "where the .po files go", required: true, completion: .directory),
            .option("--language", value: "L[,L…]", help: "only these languages (comma-separated)"),
            StringsCommandSupport.devOption,
        ],
        examples: ["contacts strings export-po --dir Localizations --out po/"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        guard let out = try args.option("--out") else { throw CLIError.usage("\(name): --out OUTDIR is required") }
        let only = try StringsCommandSupport.languages(&args)
        let dev = try args.option("--dev")
        _ = try args.positionals(max: 0, names: "no positional arguments")
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let written = try StringsCommandSupport.run(name) {
            try POExport.write(folder, languages: only.isEmpty ? nil : only, into: URL(fileURLWithPath: out))
        }
        var o = Output()
        for file in written { o.line("wrote \(file.url.path): \(file.entries) entries") }
        o.flush()
        return .ok
    }
}
