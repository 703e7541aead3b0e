import ArgumentModel
import Foundation

/// Every subcommand, in the order `contacts --help` lists them. Each lives in its own file.
let allCommands: [any Command.Type] = [
    SortCommand.self,
    SectionsCommand.self,
    ListCommand.self,
    SearchCommand.self,
    PickCommand.self,
    GroupsCommand.self,
    QueryCommand.self,
    IndexBuildCommand.self,
    ComposeCommand.self,
    OutboxStatusCommand.self,
    OutboxSendCommand.self,
    OutboxSettleCommand.self,
    OutboxPruneCommand.self,
    VCardInspectCommand.self,
    VCardConvertCommand.self,
    VCardImportCommand.self,
    BouncesReadCommand.self,
    AddCommand.self,
    EditCommand.self,
    DeleteCommand.self,
    DuplicatesCommand.self,
    MergeCommand.self,
    SyncCommand.self,
    StringsLintCommand.self,
    StringsStatusCommand.self,
    StringsSyncCommand.self,
    StringsGetCommand.self,
    StringsExportXLIFFCommand.self,
    StringsImportXLIFFCommand.self,
    StringsExportPOCommand.self,
    StringsImportPOCommand.self,
    StringsPseudoCommand.self,
    StringsGenerateSwiftCommand.self,
    MessageFormatFormatCommand.self,
    MessageFormatCheckCommand.self,
    MessageFormatConvertCommand.self,
    RenderCommand.self,
    TemplatesListCommand.self,
    TemplatesRenderCommand.self,
    DemoCommand.self,
    HelpCommand.self,
    CompletionCommand.self,
]

let version = "0.1.0"

/// The groups of commands that share a first word; `contacts <group> --help` lists their commands.
let commandGroups = [
    CommandGroup("outbox", summary: "The outbox of a send: what each message became, resume, settle, prune."),
    CommandGroup("vcard", summary: "Read vCard files (2.1, 3.0, 4.0) and rewrite them."),
    CommandGroup("bounces", summary: "Bounces and unsubscribe requests of a campaign, into its suppression list."),
    CommandGroup(
        "strings",
        summary:
            "Translator tools over .strings, .stringsdict and .xcstrings folders (DIR defaults to ./Localizations)."),
    CommandGroup("messageformat", summary: "Unicode MessageFormat 2: format, check and convert messages."),
    CommandGroup("templates", summary: "The library of mail and message templates."),
    CommandGroup("index", summary: "The saved list and search index that make list and search of a big book fast."),
]

/// The whole tool as one model: help, `help <command>` and the completion scripts come from it.
let toolSpec: ToolSpec = {
    var commands = allCommands.map { $0.spec }
    // `help` completes the first words of the commands.
    var words: [String] = []
    for c in commands where !words.contains(c.words[0]) { words.append(c.words[0]) }
    if let i = commands.firstIndex(where: { $0.name == HelpCommand.name }) {
        commands[i].arguments[0].completion = .values(words)
    }
    return ToolSpec(
        name: "contacts",
        abstract: "contacts — sort, section, search and select contacts; render and compose localized messages.",
        commands: commands, groups: commandGroups,
        footer: """
            Options: --help, --version. 'contacts <command> --help' or 'contacts help <command>' describes a command.
            Exit codes: 0 ok, 1 failure (I/O, unreadable input), 2 usage error.
            """)
}()

/// `contacts help [COMMAND…]`: the tool's help, a group's or a command's.
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "Describe the tool, a command group or a command"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Prints the same help as 'contacts COMMAND --help' (or 'contacts --help' without COMMAND).
            With --man, the manual page of every command in roff ('make install' installs it as contacts.1).
            """,
        options: [.flag("--man", help: "print the whole tool's manual page (roff, for man -l) instead")],
        arguments: [
            // Completed with the commands' first words (set where `toolSpec` is made).
            ArgumentSpec("COMMAND", help: "a command or group, e.g. 'sort' or 'vcard inspect'", repeated: true)
        ],
        examples: ["contacts help vcard inspect", "contacts help --man > contacts.1 && man -l contacts.1"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let words = try args.positionals(max: Int.max, names: "COMMAND")
        if args.flag("--man") {
            guard words.isEmpty else { throw CLIError.usage("help: --man takes no COMMAND (it covers every command)") }
            var out = Output()
            out.write(toolSpec.manPage(version: version))
            out.flush()
        } else if words.isEmpty {
            print(toolSpec.help())
        } else if let (command, rest) = toolSpec.resolve(words), rest.isEmpty {
            print(command.help(tool: toolSpec.name))
        } else if words.count == 1, !toolSpec.commands(inGroup: words[0]).isEmpty {
            print(toolSpec.groupHelp(words[0]))
        } else {
            throw CLIError.usage("help: unknown command '\(words.joined(separator: " "))' (see 'contacts --help')")
        }
        return .ok
    }
}

/// `contacts completion bash|zsh|fish`: a completion script made from the commands' model.
enum CompletionCommand: Command {
    static let name = "completion"
    static let summary = "Print a shell completion script (bash, zsh or fish)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Prints a script that completes the commands, options and option values of 'contacts' in SHELL.
            bash: source <(contacts completion bash), or save it as
                  ~/.local/share/bash-completion/completions/contacts
            zsh:  save it as _contacts in a folder of $fpath (then compinit)
            fish: save it as ~/.config/fish/completions/contacts.fish
            """,
        arguments: [
            ArgumentSpec(
                "SHELL", help: "bash, zsh or fish", required: true, completion: .values(["bash", "zsh", "fish"]))
        ],
        examples: ["contacts completion bash > ~/.local/share/bash-completion/completions/contacts"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let words = try args.positionals(max: 1, names: "SHELL")
        guard let word = words.first, let shell = Shell(rawValue: word) else {
            throw CLIError.usage("completion: expected bash, zsh or fish, got '\(words.first ?? "")'")
        }
        var out = Output()
        out.write(toolSpec.completionScript(for: shell))
        out.flush()
        return .ok
    }
}

@MainActor func runMain() -> Int32 {
    assert(toolSpec.problems.isEmpty, "the commands' model: \(toolSpec.problems.joined(separator: "; "))")
    let args = Array(CommandLine.arguments.dropFirst())
    if args.isEmpty || args == ["--help"] || args == ["-h"] {
        print(toolSpec.help())
        return args.isEmpty ? ExitCode.usage.rawValue : 0
    }
    if args == ["--version"] {
        print("contacts \(version)")
        return 0
    }
    guard let (spec, rest) = toolSpec.resolve(args),
        let command = allCommands.first(where: { $0.name == spec.name })
    else {
        // A group word (`vcard`, `templates`, `outbox`, `strings`) without one of its commands: its usage.
        let group = toolSpec.commands(inGroup: args[0])
        if !group.isEmpty {
            let rest = args.dropFirst()
            if rest.isEmpty || CommandSpec.helpWords.contains(rest.first!) || rest.first == "help" {
                print(toolSpec.groupHelp(args[0]))
                return rest.isEmpty ? ExitCode.usage.rawValue : 0
            }
            printError("contacts: unknown \(args[0]) command '\(rest.first!)' (see 'contacts \(args[0]) --help')")
            return ExitCode.usage.rawValue
        }
        printError("contacts: unknown command '\(args[0])' (see 'contacts --help')")
        return ExitCode.usage.rawValue
    }
    do {
        switch try spec.parse(rest, tool: toolSpec.name) {
        case .help:
            print(spec.help(tool: toolSpec.name))
            return 0
        case .arguments(let parsed):
            try checkLocaleOptions(parsed)
            var arguments = Arguments(parsed, spec: spec)
            return try command.run(&arguments).rawValue
        }
    } catch let error as UsageError {
        printError("contacts: \(error.message)")
        return ExitCode.usage.rawValue
    } catch let error as CLIError {
        printError("contacts: \(error.message)")
        return error.code.rawValue
    } catch {
        printError("contacts \(command.name): \(error)")
        return ExitCode.failure.rawValue
    }
}

exit(runMain())
