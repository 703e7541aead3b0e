import ArgumentModel
import Foundation
import MessageFormat2

enum MessageFormatFormatCommand: Command {
    static let name = "messageformat format"
    static let summary = "Format a Unicode MessageFormat 2 message, or answer conformance requests (--jsonl)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Formats MESSAGE (MessageFormat 2 syntax) in locale L with the arguments given by --arg NAME=VALUE
            (numbers become exact decimals, other values text) and --args FILE.json (a JSON object). Placeholders
            that fail show their fallback ({$name}) and each error is reported on stderr; the exit code is then 1.
            The draft functions :date, :time, :datetime and :unit are available.
            With --jsonl, reads one JSON request per line on stdin ({"src": "...", "locale": "en-US", "params":
            [{"name": "x", "value": 1}], "bidiIsolation": "none", "testFunctions": true, "parts": false}) and
            writes one JSON line per request ({"result": "...", "errors": [{"type": "..."}], "parts": [...]}).
            """,
        options: [
            .option("--locale", value: "L", help: "BCP 47 locale to format in (default: en)"),
            .repeated("--arg", value: "NAME=VALUE", help: "an argument (repeatable)"),
            .option("--args", value: "FILE", help: "arguments from a JSON object", completion: .file),
            .flag("--no-bidi", help: "no bidi isolation marks around placeholders"),
            .flag("--jsonl", help: "the conformance interface: JSON requests on stdin, one JSON line out each"),
        ],
        arguments: [ArgumentSpec("MESSAGE", help: "the message (not with --jsonl)")],
        examples: [
            #"contacts messageformat format '.input {$n :number} .match $n one {{{$n} file}} * {{{$n} files}}' --arg n=3"#,
            #"echo '{"src": "{1 :number}", "locale": "fr"}' | contacts messageformat format --jsonl"#,
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        if args.flag("--jsonl") {
            var out = Output()
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy(\.isWhitespace) { continue }
                out.line(ConformanceRequest.answer(line: line))
                out.flush()
            }
            return .ok
        }
        let positionals = try args.positionals(max: 1, names: "one MESSAGE")
        guard let source = positionals.first else { throw CLIError.usage("\(name): MESSAGE is missing") }
        var arguments: [String: MessageArgument] = [:]
        if let file = try args.option("--args") {
            do {
                arguments = try MessageArgument.arguments(json: [UInt8](try readInput(file, command: name)), file: file)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.failure("\(name): \(error)")
            }
        }
        let assigned = MessageArgument.assignments(try args.options("--arg"))
        if let bad = assigned.malformed.first { throw CLIError.usage("\(name): --arg takes NAME=VALUE, not '\(bad)'") }
        arguments.merge(assigned.arguments) { _, new in new }
        let request = ConformanceRequest(
            source: source, locale: try args.option("--locale") ?? "en", arguments: arguments,
            bidiIsolation: args.flag("--no-bidi") ? .none : .default)
        let formatter: MessageFormatter
        do {
            formatter = try request.formatter()
        } catch {
            throw CLIError.usage("\(name): \(error.diagnostic(file: "MESSAGE"))")
        }
        let result = formatter.format(arguments)
        var out = Output()
        out.line(result.text)
        out.flush()
        for error in result.errors { printError("contacts: \(name): \(error)") }
        return result.errors.isEmpty ? .ok : .failure
    }
}

enum MessageFormatCheckCommand: Command {
    static let name = "messageformat check"
    static let summary = "Check MessageFormat 2 messages, one per file, with file:line:column errors"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads each FILE as one MessageFormat 2 message and reports its syntax error (FILE:LINE:COLUMN) or
            data-model error (duplicate declaration or option, variant keys, missing fallback variant,
            selector without a function). Every file is checked; the exit code is 1 when any has an error.
            """,
        arguments: [ArgumentSpec("FILE", help: "message files", required: true, repeated: true, completion: .file)],
        examples: [#"contacts messageformat check <(printf '.input {$n :number} .match $n one {{one}} * {{other}}')"#])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let files = try args.positionals(max: Int.max, names: "FILE…")
        guard !files.isEmpty else { throw CLIError.usage("\(name): give at least one FILE") }
        var failed = 0
        var out = Output()
        for file in files {
            guard let diagnostic = Message.check([UInt8](try readInput(file, command: name)), file: file) else {
                continue
            }
            printError(diagnostic)
            failed += 1
        }
        out.line("\(files.count - failed) valid, \(failed) with errors")
        out.flush()
        return failed == 0 ? .ok : .failure
    }
}
