import ArgumentModel
import Foundation
import StringsCatalog

struct StringsPseudoCommand: Command {
    static let name = "strings pseudo"
    static let summary = "Make a pseudolanguage (en-XA, ar-XB) from the development language"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes a pseudolanguage made from the development language, as the project stores its strings:
            <lang>.lproj/<Table>.strings beside each source table (a copy with the values changed),
            <lang>.lproj/<Table>.stringsdict with a form for every plural category of the language, and a <lang>
            localization in each .xcstrings. Styles (Xcode's pseudolanguages): accented ("Ĥéļļö"), bounded
            ("[# Hello #]"), double ("Hello Hello"), rtl (right-to-left overrides). Printf specifiers, %#@var@
            substitutions, ICU {arg} placeholders (plural and select keep their syntax) and Mustache tags stay as
            written. The language defaults to en-XA (ar-XB for rtl); running again replaces it. A language that
            has real translations is refused.
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            .option(
                "--style", value: "STYLE", help: "accented, bounded, double or rtl", required: true,
                completion: .values(Pseudolocalizer.Style.allCases.map(\.rawValue))),
            .option("--into", value: "LANG", help: "the language written (default: en-XA, ar-XB for rtl)"),
            StringsCommandSupport.devOption,
            .flag("--dry-run", help: "report without writing"),
        ],
        examples: [
            "contacts strings pseudo --dir Localizations --style accented",
            "contacts templates render invite --locale en-XA --strings Localizations",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        guard let styleName = try args.option("--style") else {
            throw CLIError.usage("\(name): --style is required (accented, bounded, double or rtl)")
        }
        guard let style = Pseudolocalizer.Style(rawValue: styleName) else {
            throw CLIError.usage("\(name): unknown --style '\(styleName)' (expected accented, bounded, double or rtl)")
        }
        let into = try args.option("--into") ?? style.defaultLanguage
        let dev = try args.option("--dev")
        let dry = args.flag("--dry-run")
        _ = try args.positionals(max: 0, names: "no positional arguments")
        var folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let report = try StringsCommandSupport.run(name) {
            try folder.pseudolocalize(Pseudolocalizer(style: style, pluralLanguage: into), into: into)
        }
        var o = Output()
        try StringsCommandSupport.save(folder, dryRun: dry, output: &o, command: name)
        o.line(report.summary(dryRun: dry))
        o.flush()
        return .ok
    }
}
