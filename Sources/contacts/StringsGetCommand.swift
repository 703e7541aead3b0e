import ArgumentModel
import Foundation
import Locales
import MessageFormat2
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

            With --arg NAME=VALUE the value is formatted as a message: a Unicode MessageFormat 2 message (a key
            ending in _mf2 or .mf2, or a value starting with .input, .local or .match) by MessageFormat 2, any other
            value as an ICU MessageFormat pattern ({name}, {n, plural, one {# file} other {# files}}). A
            placeholder that fails shows its fallback ({$name}), is reported on stderr, and the exit is 1.
            """,
        options: [
            .option("--locale", value: "L", help: "the locale (default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG)"),
            .option("--table", value: "T", help: "the table (default: Localizable)"),
            .option(
                "--dir", value: "DIR", help: "the localizations folder (default: the package's own Localizations)",
                completion: .directory),
            .option("--count", value: "N", help: "feeds plural variables (and %d)"),
            .repeated(
                "--arg", value: "NAME=VALUE",
                help: "a named argument of a MessageFormat value (numbers are exact decimals); repeatable"),
            .flag("--no-bidi", help: "no bidi isolation marks around MessageFormat 2 placeholders"),
        ],
        arguments: [
            ArgumentSpec("KEY", help: "the key of the string", required: true),
            ArgumentSpec(
                "ARG", help: "a further argument (integers are numbers, everything else text); at most 19",
                repeated: true),
        ],
        examples: [
            #"contacts strings get "%d contacts selected" --locale ru --count 3"#,
            "contacts strings get others_mf2 --table invite --locale de --arg others_count=2 --arg others_list=Ada",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let locale = try args.option("--locale")
        let table = try args.option("--table") ?? "Localizable"
        let dir = try args.option("--dir")
        let countText = try args.option("--count")
        let assigned = MessageArgument.assignments(try args.options("--arg"))
        if let bad = assigned.malformed.first { throw CLIError.usage("\(name): --arg takes NAME=VALUE, not '\(bad)'") }
        let named = assigned.arguments
        let bidi: BidiStrategy = args.flag("--no-bidi") ? .none : .default
        let positional = try args.positionals(max: 20, names: "KEY and up to 19 arguments")
        let extra = positional.dropFirst()
        guard let key = positional.first else {
            throw CLIError.usage("\(name): missing KEY (see 'contacts strings get --help')")
        }
        if !named.isEmpty && (countText != nil || !extra.isEmpty) {
            throw CLIError.usage("\(name): --arg does not go with --count or ARG (a printf value)")
        }
        var arguments: [CatalogArgument] = []
        if let countText {
            guard let n = Int(countText) else {
                throw CLIError.usage("\(name): --count needs an integer, got '\(countText)'")
            }
            arguments.append(.int(n))
        }
        arguments += extra.map(CatalogArgument.init(commandLine:))
        let catalog = try StringsCommandSupport.run(name) {
            try dir.map { try Catalog(at: LocalizationPlace($0)) } ?? Catalog.bundled()
        }
        var requested = locale.map(commandLocales) ?? LocalePolicy.requestedLanguages()
        if requested.isEmpty { requested = [environmentLocale(nil)] }
        let joined = requested.joined(separator: ":")
        // Files of the table that could not be read (at all, or in part) for a requested language: the answer
        // comes from a fallback, which is said on stderr.
        let problems = catalog.lookupProblems(key, table: table, requested: requested)
        for p in problems {
            printError("contacts: \(name): \(p.diagnostic)")
            printError("contacts: \(name): \(p.warning)")
        }
        let message = try StringsCommandSupport.run(name) {
            try catalog.answer(
                key, table: table, locale: joined, arguments: arguments, named: named, bidiIsolation: bidi)
        }
        var out = Output()
        out.line(message.text)
        out.flush()
        for error in message.errors { printError("contacts: \(name): \(error)") }
        return problems.contains { $0.unreadable } || !message.errors.isEmpty ? .failure : .ok
    }
}
