import ArgumentModel
import Foundation
import StringsCatalog

struct StringsGenerateSwiftCommand: Command {
    static let name = "strings generate swift"
    static let summary = "Write typed Swift accessors for the strings (.strings, .stringsdict, .xcstrings)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Writes OUT, a Swift file with one accessor per key of the development language's tables: an enum per
            table inside Strings (--name), a static func per key with parameters typed from the format specifiers
            (%d/%ld/%lld → Int, %u → UInt, %f → Double, %@ → String, %c → Character; positional specifiers
            respected; plural variables by count), a static var for a key without arguments, the translator
            comment as its doc comment.

            The file needs only Foundation. Values are looked up at run time through Strings.lookup: by default
            the main bundle's compiled strings (what Apple platforms serve); set it at startup to look them up
            elsewhere (on Linux, for instance, with the project's Catalog).
            """,
        options: [
            .option("--dir", value: "DIR", help: "the localizations folder", required: true, completion: .directory),
            .option("--out", value: "FILE", help: "the Swift file written", required: true, completion: .file),
            .option("--table", value: "TABLE", help: "only this table"),
            .option("--name", value: "TYPE", help: "the enclosing type (default: Strings)"),
            StringsCommandSupport.devOption,
        ],
        examples: ["contacts strings generate swift --dir Localizations --out Strings.swift --table Localizable"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let dir = try args.option("--dir") else { throw CLIError.usage("\(name): --dir DIR is required") }
        guard let out = try args.option("--out") else { throw CLIError.usage("\(name): --out FILE is required") }
        let table = try args.option("--table")
        let typeName = try args.option("--name") ?? "Strings"
        let dev = try args.option("--dev")
        _ = try args.positionals(max: 0, names: "no positional arguments")
        guard SwiftAccessors.isTypeName(typeName) else {
            throw CLIError.usage("\(name): --name \(typeName) is not a Swift type name (letters, digits, _)")
        }
        let folder = try StringsCommandSupport.load(dir, dev: dev, command: name)
        let generated = try StringsCommandSupport.run(name) {
            try SwiftAccessors.source(for: folder, table: table, typeName: typeName)
        }
        do { try Data(generated.source.utf8).write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
            throw CLIError.failure("\(name): cannot write \(out): \(error.localizedDescription)")
        }
        var o = Output()
        o.line("wrote \(out): \(generated.accessors) accessors")
        o.flush()
        return .ok
    }
}
