import ArgumentModel
import Foundation
import StringsCatalog
import Templating
import TerminalUI

/// Shared pieces of the template commands.
enum TemplateCLI {
    /// Reads a JSON context file (`-` = stdin); errors name file, line and column.
    static func readData(_ path: String, command: String) throws -> MustacheValue {
        let data = try readInput(path, command: command)
        do {
            return try MustacheValue(json: Array(data), file: path == "-" ? "<stdin>" : path)
        } catch let error as TemplatingError {
            throw CLIError.failure("\(command): \(error)")
        }
    }

    /// The catalog `{{#t}}` uses: `--strings DIR`, else the bundled one (nil when neither loads).
    static func catalog(_ directory: String?, command: String) throws -> Catalog? {
        if let directory { return try StringsCommandSupport.renderingCatalog(directory, command: command) }
        return try? Catalog.bundled()
    }

    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TemplatingError {
            if case .noPartialsFolder = error { throw CLIError.usage("\(command): \(error)") }
            throw CLIError.failure("\(command): \(error)")
        }
    }
}

/// `contacts render`: one Mustache file with a JSON context.
struct RenderCommand: Command {
    static let name = "render"
    static let summary = "Render a Mustache template file with a JSON context"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Renders FILE (Mustache 1.4.2: sections, partials, lambdas' built-in helpers, inheritance, dynamic
            names) with the JSON context in FILE.json ('-' reads stdin) and prints the result.
            """,
        options: [
            .option("--template", value: "FILE", help: "the template", required: true, completion: .file),
            .option("--data", value: "FILE", help: "the context (JSON object)", required: true, completion: .file),
            .option(
                "--partials", value: "DIR", help: "partials: {{> name}} reads DIR/name.mustache", completion: .directory
            ),
            .option(
                "--escape", value: "MODE",
                help: #"""
                    html (default: & < > " ' become entities), text (none), header (no line
                    breaks), uri (each value URL-encoded, as compose --unsubscribe does)
                    """#,
                allowed: ["html", "text", "header", "uri"]),
            .flag("--strict", help: "a missing value is an error naming file, line and column"),
            .option(
                "--locale", value: "L",
                help: "locale of {{#t}}, {{#list}}, {{#number}}, {{#date}}, {{dir}} (default: environment)"),
            .option(
                "--strings", value: "DIR", help: "strings catalog for {{#t}}key{{/t}} (default: the bundled one)",
                completion: .directory),
            .option("--table", value: "NAME", help: "the catalog table of the keys (default: Localizable)"),
            OutputLimitOption.option,
        ],
        examples: ["contacts render --template mail.mustache --data ada.json --partials partials --strict"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let templatePath = try args.option("--template")
        let dataPath = try args.option("--data")
        let partialsDir = try args.option("--partials")
        let escape = try args.option("--escape") ?? "html"
        let strict = args.flag("--strict")
        let locale = environmentLocale(try args.option("--locale"))
        let stringsDir = try args.option("--strings")
        let table = try args.option("--table") ?? "Localizable"
        let maxOutput = try OutputLimitOption.parse(&args, command: name)
        _ = try args.positionals(max: 0, names: "no arguments")
        guard let templatePath else { throw CLIError.usage("render: --template FILE is required") }
        guard let dataPath else { throw CLIError.usage("render: --data FILE.json is required") }
        guard let escaping = Escaping(name: escape) else {
            throw CLIError.usage("render: --escape must be html, text, header or uri (got '\(escape)')")
        }
        let sourceData = try readInput(templatePath, command: "render")
        guard let source = String(data: sourceData, encoding: .utf8) else {
            throw CLIError.failure("render: \(templatePath) is not UTF-8")
        }
        let context = try TemplateCLI.readData(dataPath, command: "render")
        let catalog = try TemplateCLI.catalog(stringsDir, command: "render")
        let output = try TemplateCLI.run("render") { () throws -> String in
            let template = try MustacheTemplate(source, name: templatePath)
            let partials = try partialsDir.map(MustachePartials.init(folder:)) ?? MustachePartials()
            let options = RenderOptions(
                escaping: escaping, strict: strict, locale: locale, catalog: catalog, table: table,
                maxOutputBytes: maxOutput)
            return try template.render(context, partials: partials, options: options)
        }
        var out = Output()
        out.write(output)
        out.flush()
        return .ok
    }
}

/// `contacts templates list`: the template library.
struct TemplatesListCommand: Command {
    static let name = "templates list"
    static let summary = "List the mail and message templates"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Lists each template of the library (built-in, or the folders of DIR) with its parts and the locales
            that override a part.
            """,
        options: [
            .option(
                "--templates", value: "DIR", help: "a template library folder instead of the built-in one",
                completion: .directory),
            .flag("--json", help: #"[{"name", "parts": [String], "overrideLocales": [String], "hasSample": Bool}]"#),
        ],
        examples: ["contacts templates list"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let dir = try args.option("--templates")
        let json = args.flag("--json")
        _ = try args.positionals(max: 0, names: "no arguments")
        let library = try TemplateCLI.run("templates list") { try loadLibrary(dir, catalog: nil) }
        var out = Output()
        if json {
            out.line(try jsonString(library.summaries))
        } else {
            for line in library.listing { out.line(line) }
        }
        out.flush()
        return .ok
    }
}

func loadLibrary(_ dir: String?, catalog: Catalog?) throws -> TemplateLibrary {
    guard let dir else { return try TemplateLibrary.bundled(catalog: catalog) }
    let library = try TemplateLibrary(directory: URL(fileURLWithPath: dir), catalog: catalog)
    // A broken folder is refused alone: the other templates are still there.
    for name in library.refused.keys.sorted() {
        printError("contacts: warning: \(terminalSafe(library.refused[name]?.description ?? name)) (refused)")
    }
    return library
}

/// `contacts templates render NAME`: every part of a library template for one context and locale.
struct TemplatesRenderCommand: Command {
    static let name = "templates render"
    static let summary = "Render a library template (subject, text, HTML, SMS) in a locale"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Renders the template NAME for one recipient, strictly (a missing value is an error naming the file,
            line, column and recipient). Without --data the template's sample.json is used. Prints the subject,
            the text body, the HTML body and the SMS body, or with --json one JSON object.
            """,
        options: [
            .option(
                "--locale", value: "L",
                help: """
                    the campaign's locale; a `locale` or `lang` field in the data (the recipient's
                    own) wins; default: the environment's
                    """),
            .option(
                "--data", value: "FILE", help: "the recipient's context (JSON object; '-' reads stdin)",
                completion: .file),
            .option("--recipient", value: "ID", help: "who it is for (named in errors)"),
            .flag("--json", help: #"print {"subject", "textBody", "htmlBody", "messageBody", "locale"}"#),
            .option(
                "--templates", value: "DIR", help: "a template library folder instead of the built-in one",
                completion: .directory),
            .option(
                "--strings", value: "DIR", help: "a strings catalog folder instead of the bundled one",
                completion: .directory),
            OutputLimitOption.option,
        ],
        arguments: [ArgumentSpec("NAME", help: "the template ('contacts templates list')", required: true)],
        examples: ["contacts templates render invite --locale de"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let explicitLocale = try args.option("--locale")
        let locale = environmentLocale(explicitLocale)
        let dataPath = try args.option("--data")
        let recipient = try args.option("--recipient")
        let json = args.flag("--json")
        let dir = try args.option("--templates")
        let stringsDir = try args.option("--strings")
        let maxOutput = try OutputLimitOption.parse(&args, command: name)
        let positionals = try args.positionals(max: 1, names: "NAME")
        guard let name = positionals.first else { throw CLIError.usage("templates render: NAME is required") }
        let catalog = try TemplateCLI.catalog(stringsDir, command: "templates render")
        var library = try TemplateCLI.run("templates render") { try loadLibrary(dir, catalog: catalog) }
        library.maxOutputBytes = maxOutput
        if let refusal = library.refused[name] {
            throw CLIError.failure("templates render: \(terminalSafe("\(refusal)"))")
        }
        guard let template = library.templates[name] else {
            throw CLIError.usage(
                "templates render: no template '\(name)' (have: \(library.names.joined(separator: ", ")))")
        }
        let context: MustacheValue
        if let dataPath {
            context = try TemplateCLI.readData(dataPath, command: "templates render")
        } else if let sample = template.sample {
            context = sample
        } else {
            throw CLIError.usage("templates render: '\(name)' has no sample.json; pass --data FILE.json")
        }
        let renderLocale = TemplateLibrary.renderLocale(
            for: context, campaign: explicitLocale == nil ? nil : locale, environment: locale)
        let message = try TemplateCLI.run("templates render") {
            try library.render(name, context: context, locale: renderLocale, recipient: recipient)
        }
        var out = Output()
        if json { out.line(try jsonString(message)) } else { out.write(message.preview) }
        out.flush()
        return .ok
    }
}
