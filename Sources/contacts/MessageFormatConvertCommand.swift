import ArgumentModel
import Foundation
import MessageFormat2

enum MessageFormatConvertCommand: Command {
    static let name = "messageformat convert"
    static let summary = "Convert ICU MessageFormat 1 messages into equivalent MessageFormat 2 messages"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Converts MESSAGE, or each line of --file FILE (or of stdin when no MESSAGE is given), from ICU
            MessageFormat 1 to a MessageFormat 2 message that formats to the same text: plural, selectordinal
            and select (nested ones flattened into one .match, =n keys, offset:n, #), {arg}, {arg, number} and
            its integer and percent styles, and ICU's apostrophe quoting. What has no exact equivalent (choice,
            currency, date and time styles, number patterns) is reported as FILE:LINE:COLUMN on stderr; the other
            lines are still converted, and the exit code is then 1. --json writes one JSON object per message:
            {"line": 1, "source": "...", "result": "..."} or {..., "error": {"line", "column", "message"}}.
            """,
        options: [
            .option(
                "--file", value: "FILE", help: "messages to convert, one per line ('-' for stdin)", completion: .file),
            .flag("--json", help: "one JSON object per message"),
        ],
        arguments: [ArgumentSpec("MESSAGE", help: "the ICU MessageFormat 1 message (or --file / stdin)")],
        examples: [
            "contacts messageformat convert '{count, plural, =0 {no files} one {# file} other {# files}}'",
            "contacts messageformat convert --json --file messages.txt",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let positionals = try args.positionals(max: 1, names: "one MESSAGE")
        let file = try args.option("--file")
        let json = args.flag("--json")
        if file != nil && !positionals.isEmpty { throw CLIError.usage("\(name): give MESSAGE or --file, not both") }
        let label: String
        let text: String
        if let message = positionals.first {
            (label, text) = ("MESSAGE", message)
        } else {
            let path = file ?? "-"
            guard let read = String(validating: [UInt8](try readInput(path, command: name)), as: UTF8.self) else {
                throw CLIError.failure("\(name): \(path) is not UTF-8 text")
            }
            (label, text) = (path == "-" ? "<stdin>" : path, read)
        }
        // A MESSAGE may span lines; a file holds one message per line.
        let results =
            positionals.isEmpty
            ? ICUMessageConverter.convertLines(text)
            : [ICUMessageConverter.convertMessage(text)]
        var out = Output()
        var failed = 0
        for result in results {
            if json { out.line(result.jsonLine) }
            if let diagnostic = result.diagnostic(file: label) {
                failed += 1
                out.flush()
                printError(diagnostic)
            } else if !json, case .success(let converted) = result.result {
                out.line(converted)
            }
        }
        out.flush()
        return failed == 0 ? .ok : .failure
    }
}
