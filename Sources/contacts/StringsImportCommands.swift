import ArgumentModel
import Foundation
import StringsCatalog

struct StringsImportPOCommand: Command {
    static let name = "strings import-po"
    static let summary = "Import a translated gettext .po file into the strings files"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes the msgstr values of FILE (as export-po wrote it) back in place: only changed values change.
            Entries whose msgctxt or msgid no longer match are reported (file:line) and skipped; #, fuzzy entries
            become needs_review in .xcstrings and are skipped for .strings unless --include-fuzzy. Exit 1 when any
            entry was skipped or malformed.
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            StringsCommandSupport.devOption,
            .flag("--dry-run", help: "report without writing"),
            .flag("--include-fuzzy", help: "import fuzzy entries into .strings and .stringsdict too"),
        ],
        arguments: [ArgumentSpec("FILE", help: "the translated .po file", required: true, completion: .file)],
        examples: ["contacts strings import-po po/Localizable/de.po --dir Localizations"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        let dev = try args.option("--dev")
        let dry = args.flag("--dry-run")
        let fuzzy = args.flag("--include-fuzzy")
        guard let file = try args.positionals(max: 1, names: "FILE").first else {
            throw CLIError.usage("\(name): missing FILE (see 'contacts strings import-po --help')")
        }
        let data = try readInput(file, command: name)
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError.failure("\(name): \(file): not UTF-8 text (export-po writes charset=UTF-8)")
        }
        var folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let report = POImport.apply(POFile(parsing: text, file: file), file: file, into: &folder, includeFuzzy: fuzzy)
        return try StringsCommandSupport.finishImport(report, folder: folder, dryRun: dry, command: name)
    }
}

struct StringsImportXLIFFCommand: Command {
    static let name = "strings import-xliff"
    static let summary = "Import a translated XLIFF 1.2 file into the strings files"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes every <target> of FILE back into the .strings, .stringsdict or .xcstrings it came from, in
            place: only the translated values change, comments and layout stay. Units whose id or file does not
            match the project are reported and skipped; the others are still imported. Exit 1 when any was skipped.
            FILE may be an Xcode localization catalog (<lang>.xcloc): its Localized Contents/<lang>.xliff is read.
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            StringsCommandSupport.devOption,
            .option(
                "--language", value: "LANG",
                help: "target language of a <file> without target-language (default: the file name's, de.xliff)"),
            .flag("--dry-run", help: "report without writing"),
        ],
        arguments: [
            ArgumentSpec(
                "FILE", help: "the translated XLIFF 1.2 file or .xcloc folder", required: true, completion: .file)
        ],
        examples: ["contacts strings import-xliff xliff/de.xliff --dir Localizations"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        let dev = try args.option("--dev")
        let language = try args.option("--language")
        let dry = args.flag("--dry-run")
        guard let file = try args.positionals(max: 1, names: "FILE").first else {
            throw CLIError.usage("\(name): missing FILE (see 'contacts strings import-xliff --help')")
        }
        var isFolder: ObjCBool = false
        let bundle = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && isFolder.boolValue
        let data = bundle ? Data() : try readInput(file, command: name)
        var folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let files = try StringsCommandSupport.run(name) {
            bundle
                ? try XCLocBundle.read(URL(fileURLWithPath: file), language: language)
                : try XLIFF.parse(data, file: file, language: language)
        }
        let report = XLIFF.importFiles(files, into: &folder)
        return try StringsCommandSupport.finishImport(report, folder: folder, dryRun: dry, command: name)
    }
}
