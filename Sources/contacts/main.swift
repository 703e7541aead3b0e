import Foundation

/// Every subcommand, in the order `contacts --help` lists them. Each lives in its own file.
let allCommands: [any Command.Type] = [
    SortCommand.self,
    SectionsCommand.self,
    ListCommand.self,
    SearchCommand.self,
    IndexBuildCommand.self,
    ComposeCommand.self,
    OutboxStatusCommand.self,
    OutboxSendCommand.self,
    OutboxSettleCommand.self,
    VCardInspectCommand.self,
    VCardConvertCommand.self,
    StringsGroupCommand.self,
    StringsLintCommand.self,
    StringsStatusCommand.self,
    StringsSyncCommand.self,
    StringsGetCommand.self,
    StringsExportXLIFFCommand.self,
    StringsImportXLIFFCommand.self,
    RenderCommand.self,
    TemplatesListCommand.self,
    TemplatesRenderCommand.self,
    DemoCommand.self,
]

let version = "0.1.0"

@MainActor func usageText() -> String {
    var text = """
        contacts — sort, section, search and select contacts; render and compose localized messages.

        Usage: contacts <command> [options]

        Commands:

        """
    let width = allCommands.map { $0.name.count }.max() ?? 0
    for c in allCommands {
        text += "  " + c.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    text += """

        Options: --help, --version. 'contacts <command> --help' describes a command.
        Exit codes: 0 ok, 1 failure (I/O, unreadable input), 2 usage error.
        """
    return text
}

/// The usage of a command group: its commands with their summaries.
func groupUsageText(_ group: String, _ commands: [any Command.Type]) -> String {
    let words = commands.map { String($0.name.dropFirst(group.count + 1)) }
    let width = words.map(\.count).max() ?? 0
    var text = "Usage: contacts \(group) <\(words.joined(separator: "|"))> [options]\n\n"
    for (word, c) in zip(words, commands) {
        text += "  " + word.padding(toLength: width + 2, withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    return text + "\n'contacts \(group) <command> --help' describes each."
}

@MainActor func runMain() -> Int32 {
    let args = Array(CommandLine.arguments.dropFirst())
    if args.isEmpty || args == ["--help"] || args == ["-h"] || args == ["help"] {
        print(usageText())
        return args.isEmpty ? ExitCode.usage.rawValue : 0
    }
    if args == ["--version"] {
        print("contacts \(version)")
        return 0
    }
    // Longest match of command words ("vcard inspect" before "vcard").
    let matches = allCommands.filter { c in
        let words = c.name.split(separator: " ").map(String.init)
        return args.count >= words.count && Array(args.prefix(words.count)) == words
    }
    guard let command = matches.max(by: { $0.name.count < $1.name.count }) else {
        // A group word (`vcard`, `templates`, `outbox`) without one of its commands: its usage.
        let group = allCommands.filter { $0.name.hasPrefix(args[0] + " ") }
        if !group.isEmpty {
            let rest = args.dropFirst()
            if rest.isEmpty || rest.first == "--help" || rest.first == "-h" || rest.first == "help" {
                print(groupUsageText(args[0], group))
                return rest.isEmpty ? ExitCode.usage.rawValue : 0
            }
            printError("contacts: unknown \(args[0]) command '\(rest.first!)' (see 'contacts \(args[0]) --help')")
            return ExitCode.usage.rawValue
        }
        printError("contacts: unknown command '\(args[0])' (see 'contacts --help')")
        return ExitCode.usage.rawValue
    }
    let rest = Array(args.dropFirst(command.name.split(separator: " ").count))
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        return 0
    }
    var arguments = Arguments(rest, command: command.name)
    do {
        return try command.run(&arguments).rawValue
    } catch let error as CLIError {
        printError("contacts: \(error.message)")
        return error.code.rawValue
    } catch {
        printError("contacts \(command.name): \(error)")
        return ExitCode.failure.rawValue
    }
}

exit(runMain())
