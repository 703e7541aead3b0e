import ArgumentModel
import Foundation
import StringsCatalog

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
            requested = LanguageMatcher.requestedLanguages()
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
                    || !LanguageMatcher.match(requested: expanded, available: [language]).isEmpty
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
