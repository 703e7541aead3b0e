import ArgumentModel
import Foundation
import Locales
import StringsCatalog
import TerminalUI

/// `contacts strings …`: translator tools over `.strings`, `.stringsdict` and `.xcstrings` folders.
enum StringsCommandSupport {
    /// `--language L[,L…]` of the export commands, as BCP 47 (empty: every language).
    static func languages(_ args: inout Arguments) throws -> [String] {
        (try args.option("--language") ?? "").split(separator: ",").map {
            LocalePolicy.bcp47(fromLocalizationName: $0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The end of an import (`import-xliff`, `import-po`): its problems on stderr, the changed files written
    /// unless `dryRun`, a summary line; exit 1 when any entry was skipped.
    static func finishImport(
        _ report: XLIFF.ImportReport, folder: LocalizationFolder, dryRun dry: Bool, command name: String
    ) throws -> ExitCode {
        var o = Output()
        for p in report.problems { printError("contacts: \(name): \(p)") }
        try save(folder, dryRun: dry, output: &o, command: name)
        o.line(
            "\(report.updated) updated, \(report.unchanged) unchanged, \(report.problems.count) skipped\(dry ? " (dry run, nothing written)" : "")"
        )
        o.flush()
        return report.problems.isEmpty ? .ok : .failure
    }

    /// Writes the folder's changed files unless `dryRun`, a "wrote PATH" line for each.
    static func save(_ folder: LocalizationFolder, dryRun: Bool, output o: inout Output, command name: String) throws {
        guard !dryRun else { return }
        do {
            for url in try folder.save() { o.line("wrote \(url.path)") }
        } catch {
            o.flush()
            throw CLIError.failure("\(name): \(error)")
        }
    }

    /// `--dev LANG` of the commands that compare languages.
    static let devOption = OptionSpec.option("--dev", value: "LANG", help: "the development language (default: en)")
    /// `[DIR]` of the commands that read a localizations folder.
    static let dirArgument = ArgumentSpec(
        "DIR", help: "the localizations folder, searched at any depth (default: ./Localizations)",
        completion: .directory)

    static func folder(_ path: String?, command: String) throws -> (URL, String) {
        let path = path ?? "Localizations"
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw CLIError.usage("\(command): no such folder: \(path)")
        }
        guard isDir.boolValue else { throw CLIError.usage("\(command): \(path) is not a folder") }
        return (URL(fileURLWithPath: path), path)
    }

    /// What to do with files that could not be read at all.
    enum Unreadable {
        /// The caller reports them (lint lists them among its findings).
        case keep
        /// Report them on stderr and go on; the command exits 1 (status).
        case report
        /// Report them and stop before anything is written or exported.
        case refuse
    }

    /// Loads the folder's localizations (searched through its subfolders). A folder with none at all is an
    /// error (exit 1) that says where the tool looked.
    static func load(_ path: String?, dev: String?, command: String, unreadable: Unreadable = .refuse) throws
        -> LocalizationFolder
    {
        let (url, display) = try folder(path, command: command)
        let folder: LocalizationFolder
        do {
            folder = try TerminalProgress.run("reading \(display)") {
                try LocalizationFolder(directory: url, displayRoot: display, developmentLanguage: dev ?? "en")
            }
        } catch {
            throw CLIError.failure("\(command): \(error)")
        }
        if folder.isEmpty { throw nothingFound(display, command: command) }
        if !folder.loadErrors.isEmpty && unreadable != .keep {
            for d in folder.loadErrors { printError("contacts: \(command): \(d)") }
            if unreadable == .refuse {
                let n = folder.loadErrors.count
                throw CLIError.failure(
                    "\(command): \(n) file\(n == 1 ? "" : "s") could not be read (see above); nothing done")
            }
        }
        return folder
    }

    /// The catalog a rendering command reads its words from (`--strings DIR`): a folder with no localization
    /// files, or one with a file that could not be read or has syntax errors, stops the command (exit 1)
    /// after each problem is printed with its file, line and column: drafts made from a damaged catalog
    /// would say the wrong thing.
    static func renderingCatalog(_ path: String, command: String) throws -> Catalog {
        let (url, display) = try folder(path, command: command)
        let catalog: Catalog
        do {
            catalog = try Catalog(directory: url)
        } catch {
            throw CLIError.failure("\(command): cannot read strings folder \(display): \(error)")
        }
        if catalog.files.isEmpty { throw nothingFound(display, command: command) }
        let errors = catalog.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            for d in errors { printError("contacts: \(command): \(d)") }
            let files = Set(errors.map(\.file)).count
            throw CLIError.failure(
                "\(command): \(files) strings file\(files == 1 ? " has" : "s have") errors (see above; "
                    + "'contacts strings lint \(path)' lists them all); nothing done")
        }
        return catalog
    }

    static func nothingFound(_ display: String, command: String) -> CLIError {
        CLIError.failure(
            "\(command): no localization files in \(display): no <lang>.lproj folder with .strings or "
                + ".stringsdict files and no .xcstrings file, at any depth (hidden folders such as .build and "
                + ".git, DerivedData, Pods and node_modules are not searched)")
    }
}

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
        if json {
            out.write(try jsonString(rows))
            out.line()
        } else {
            func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
                let p = String(repeating: " ", count: max(0, n - s.count))
                return right ? p + s : s + p
            }
            out.line(
                pad("language", 10) + pad("total", 7, right: true) + pad("translated", 12, right: true)
                    + pad("missing", 9, right: true) + pad("untranslated", 14, right: true)
                    + pad("done", 8, right: true))
            for r in rows {
                out.line(
                    pad(r.language, 10) + pad(String(r.total), 7, right: true)
                        + pad(String(r.translated), 12, right: true)
                        + pad(String(r.missing), 9, right: true) + pad(String(r.untranslated), 14, right: true)
                        + pad(String(format: "%.0f%%", r.percent), 8, right: true))
            }
        }
        out.flush()
        if !folder.loadErrors.isEmpty {
            let n = folder.loadErrors.count
            printError(
                "contacts: \(name): \(n) file\(n == 1 ? "" : "s") could not be read and \(n == 1 ? "is" : "are") not counted"
            )
            return .failure
        }
        return .ok
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
        if let bad = folder.lint().first(where: { $0.code == "syntax" || $0.code == "encoding" || $0.code == "io" }) {
            throw CLIError.failure("\(name): fix syntax errors first (nothing written): \(bad)")
        }
        let report = folder.sync(prune: prune)
        var out = Output()
        for language in Set(report.added.keys).union(report.removed.keys).sorted() {
            for key in report.added[language] ?? [] { out.line("\(language): + \(key)") }
            for key in report.removed[language] ?? [] { out.line("\(language): - \(key)") }
        }
        for p in report.problems { printError("contacts: \(name): \(p)") }
        try StringsCommandSupport.save(folder, dryRun: dry, output: &out, command: name)
        let added = report.added.values.map(\.count).reduce(0, +)
        let removed = report.removed.values.map(\.count).reduce(0, +)
        out.line("\(added) added, \(removed) removed\(dry ? " (dry run, nothing written)" : "")")
        out.flush()
        return report.problems.isEmpty ? .ok : .failure
    }
}

struct StringsGetCommand: Command {
    static let name = "strings get"
    static let summary = "Print a localized string, resolved with language fallback"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Prints the value of KEY for the locale (default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG), with CLDR fallback
            (zh-HK → zh-Hant, es-MX → es-419 → es, en-AU → en-GB → en) and per-key fallback to the development
            language.
            """,
        options: [
            .option("--locale", value: "L", help: "the locale (default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG)"),
            .option("--table", value: "T", help: "the table (default: Localizable)"),
            .option(
                "--dir", value: "DIR", help: "the localizations folder (default: the package's own Localizations)",
                completion: .directory),
            .option("--count", value: "N", help: "feeds plural variables (and %d)"),
        ],
        arguments: [
            ArgumentSpec("KEY", help: "the key of the string", required: true),
            ArgumentSpec(
                "ARG", help: "a further argument (integers are numbers, everything else text); at most 19",
                repeated: true),
        ],
        examples: [#"contacts strings get "%d contacts selected" --locale ru --count 3"#])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let locale = try args.option("--locale")
        let table = try args.option("--table") ?? "Localizable"
        let dir = try args.option("--dir")
        let countText = try args.option("--count")
        let positional = try args.positionals(max: 20, names: "KEY and up to 19 arguments")
        let extra = positional.dropFirst()
        guard let key = positional.first else {
            throw CLIError.usage("\(name): missing KEY (see 'contacts strings get --help')")
        }
        let catalog: Catalog
        do {
            if let dir {
                let (url, display) = try StringsCommandSupport.folder(dir, command: name)
                catalog = try Catalog(directory: url)
                if catalog.files.isEmpty { throw StringsCommandSupport.nothingFound(display, command: name) }
            } else {
                catalog = try Catalog.bundled()
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        var requested: [String]
        if let locale {
            requested = commandLocales(locale)
        } else {
            requested = LocalePolicy.requestedLanguages()
            if requested.isEmpty { requested = [environmentLocale(nil)] }
        }
        let joined = requested.joined(separator: ":")
        var arguments: [CatalogArgument] = []
        if let countText {
            guard let n = Int(countText) else {
                throw CLIError.usage("\(name): --count needs an integer, got '\(countText)'")
            }
            arguments.append(.int(n))
        }
        for a in extra { arguments.append(Int(a).map(CatalogArgument.int) ?? .string(a)) }
        // Files of the table that could not be read (at all, or in part) for a requested language: the answer
        // comes from a fallback, which is said on stderr.
        let answeredBy = catalog.language(of: key, table: table, locale: joined)
        let expanded = requested.flatMap { $0.split(separator: ":").map(String.init) }
        var failed = false
        for file in catalog.files where file.table == table {
            let problems = catalog.diagnostics.filter { $0.file == file.url.path && $0.severity == .error }
            guard let first = problems.first else { continue }
            if let language = file.language {
                // A requested language, or the development language (tried last) when nothing answered.
                let wanted =
                    (language == catalog.developmentLanguage && answeredBy == nil)
                    || !LocalePolicy.match(requested: expanded, available: [language]).isEmpty
                guard wanted && language != answeredBy else { continue }
            }
            let wholly = catalog.loadErrors.contains { $0.file == file.url.path }
            failed = failed || wholly
            let what = wholly ? "could not be read" : "has errors"
            let answer =
                answeredBy.map { l in
                    let usable = catalog.files.filter { f in
                        f.table == table && !catalog.loadErrors.contains { $0.file == f.url.path }
                    }
                    let from = usable.first { $0.language == l } ?? usable.first { $0.language == nil }
                    return "answered from \(l)" + (from.map { " (\($0.url.path))" } ?? "")
                } ?? "no language has the key"
            printError("contacts: \(name): \(first)")
            printError("contacts: \(name): warning: \(file.url.path) \(what); \(answer)")
        }
        guard catalog.string(key, table: table, locale: joined) != nil else {
            throw CLIError.failure("\(name): no string \"\(key)\" in table \(table) for \(joined)")
        }
        var out = Output()
        if arguments.isEmpty {
            out.line(catalog.string(key, table: table, locale: joined) ?? key)
        } else {
            do {
                out.line(try catalog.format(key, table: table, locale: joined, arguments: arguments))
            } catch {
                throw CLIError.failure("\(name): \(error)")
            }
        }
        out.flush()
        return failed ? .failure : .ok
    }
}

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
        let languages = only.isEmpty ? folder.allLanguages.filter { $0 != folder.developmentLanguage } : only
        if languages.isEmpty {
            throw CLIError.failure("\(name): \(dir) has no language besides \(folder.developmentLanguage) to export")
        }
        let outURL = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: outURL, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("\(name): cannot create \(out): \(error.localizedDescription)")
        }
        var o = Output()
        for language in languages {
            let files = XLIFF.files(folder, language: language)
            let url: URL
            if xcloc {
                do { url = try XCLocBundle.write(folder, language: language, into: outURL) } catch {
                    throw CLIError.failure("\(name): \(error)")
                }
            } else {
                url = outURL.appendingPathComponent("\(language).xliff")
                do {
                    try Data(XLIFF.document(files).utf8).write(to: url, options: .atomic)
                } catch {
                    throw CLIError.failure("\(name): cannot write \(url.path): \(error.localizedDescription)")
                }
            }
            let units = files.map(\.units.count).reduce(0, +)
            let open = files.flatMap(\.units).filter { $0.target == nil }.count
            o.line("wrote \(url.path): \(units) units, \(open) without translation")
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
        let outURL = URL(fileURLWithPath: out)
        var o = Output()
        for (path, po) in POExport.files(folder, languages: only.isEmpty ? nil : only) {
            let url = outURL.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(po.text().utf8).write(to: url, options: .atomic)
            } catch {
                throw CLIError.failure("\(name): cannot write \(url.path): \(error.localizedDescription)")
            }
            o.line("wrote \(url.path): \(po.entries.count - 1) entries")
        }
        o.flush()
        return .ok
    }
}

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
        let files: [XLIFFFile]
        do {
            files =
                bundle
                ? try XCLocBundle.read(URL(fileURLWithPath: file), language: language)
                : try XLIFF.parse(data, file: file, language: language)
        } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        let report = XLIFF.importFiles(files, into: &folder)
        return try StringsCommandSupport.finishImport(report, folder: folder, dryRun: dry, command: name)
    }
}
