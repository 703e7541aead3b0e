/// A declarative model of a command-line tool: each command is a value listing its options and arguments,
/// from which parsing, validation, help text and shell completion are all derived.
///
/// ```swift
/// let sort = CommandSpec(
///     name: "sort", summary: "Print names in collation order",
///     options: [
///         .option("--locale", value: "L", help: "BCP 47 locale"),
///         .flag("--json", help: "a JSON array of the names"),
///     ],
///     arguments: [.init("FILE|-", help: "names, one per line", completion: .file)])
/// let parsed = try sort.parse(["--locale", "sv", "names.txt"])
/// // parsed.value("--locale") == "sv", parsed.positionals == ["names.txt"]
/// ```

/// How a shell completes the value of an option or argument.
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to propose (free text such as a query or a locale).
    case none
    /// A file name.
    case file
    /// A directory name.
    case directory
    /// One of these words.
    case values([String])
}

/// One option of a command: a flag (`--json`), an option with a value (`--locale L`), or a repeatable one.
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Hashable {
        /// Present or not; takes no value.
        case flag
        /// Takes one value; given twice, the last one wins.
        case option
        /// Takes one value each time it is given; all are kept in order.
        case repeatedOption
    }

    /// The long name with its dashes, `--locale`.
    public var name: String
    public var kind: Kind
    /// The placeholder for the value in usage and help (`L`, `FILE.vcf`); nil for flags.
    public var valueName: String?
    /// What the option does; may span several lines (wrapped as written).
    public var help: String
    public var isRequired: Bool
    /// The only values accepted (checked when parsing); empty: any value.
    public var allowedValues: [String]
    /// How shells complete the value.
    public var completion: ValueCompletion
    /// The help section it is listed under (nil: the command's main "Options:"). Options of a named section
    /// appear as `[<section> options]` in the usage line.
    public var section: String?

    public init(
        _ name: String, kind: Kind, valueName: String? = nil, help: String, isRequired: Bool = false,
        allowedValues: [String] = [], completion: ValueCompletion? = nil, section: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.valueName = kind == .flag ? nil : (valueName ?? (allowedValues.isEmpty ? "VALUE" : nil))
        self.help = help
        self.isRequired = isRequired
        self.allowedValues = allowedValues
        self.completion = completion ?? (allowedValues.isEmpty ? .none : .values(allowedValues))
        self.section = section
    }

    /// `--name`: present or not.
    public static func flag(_ name: String, help: String, section: String? = nil) -> OptionSpec {
        OptionSpec(name, kind: .flag, help: help, section: section)
    }

    /// `--name VALUE` (the last one given wins).
    public static func option(
        _ name: String, value: String? = nil, help: String, required: Bool = false, allowed: [String] = [],
        completion: ValueCompletion? = nil, section: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name, kind: .option, valueName: value, help: help, isRequired: required, allowedValues: allowed,
            completion: completion, section: section)
    }

    /// `--name VALUE`, repeatable; every value is kept.
    public static func repeated(
        _ name: String, value: String, help: String, allowed: [String] = [], completion: ValueCompletion? = nil,
        section: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name, kind: .repeatedOption, valueName: value, help: help, allowedValues: allowed,
            completion: completion, section: section)
    }

    /// How it reads in a usage line: `--json`, `--locale L`, `--mode email|messages|both`, `--locale L ...`.
    public var synopsis: String {
        switch kind {
        case .flag: return name
        case .option: return "\(name) \(placeholder)"
        case .repeatedOption: return "\(name) \(placeholder) ..."
        }
    }

    var placeholder: String { valueName ?? allowedValues.joined(separator: "|") }
}

/// One positional argument of a command.
public struct ArgumentSpec: Sendable, Equatable {
    /// The placeholder in usage and help: `FILE|-`, `QUERY`.
    public var name: String
    public var help: String
    public var isRequired: Bool
    /// Takes every remaining positional word (must be the last argument).
    public var isRepeated: Bool
    public var completion: ValueCompletion

    public init(
        _ name: String, help: String, required: Bool = false, repeated: Bool = false,
        completion: ValueCompletion = .none
    ) {
        self.name = name
        self.help = help
        self.isRequired = required
        self.isRepeated = repeated
        self.completion = completion
    }

    var synopsis: String {
        let word = isRepeated ? "\(name)..." : name
        return isRequired ? word : "[\(word)]"
    }
}

/// One command of a tool: the words that select it (`vcard inspect`), its options and arguments, and the
/// prose of its help.
public struct CommandSpec: Sendable, Equatable {
    /// The words after the tool's name, separated by one space: `sort`, `vcard inspect`.
    public var name: String
    /// One line for the tool's command list.
    public var summary: String
    /// The paragraphs between the usage line and the options (what the command does, exit codes).
    public var discussion: String
    public var options: [OptionSpec]
    public var arguments: [ArgumentSpec]
    /// Command lines shown under "Examples:".
    public var examples: [String]

    public init(
        name: String, summary: String, discussion: String = "", options: [OptionSpec] = [],
        arguments: [ArgumentSpec] = [], examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.examples = examples
    }

    /// The option named `name` (`--locale`), if the command has it.
    public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The words of the name: `["vcard", "inspect"]`.
    public var words: [String] { name.split(separator: " ").map(String.init) }
}

/// A group of commands that share a first word (`vcard`, `strings`), listed by `tool <group> --help`.
public struct CommandGroup: Sendable, Equatable {
    public var word: String
    public var summary: String
    public init(_ word: String, summary: String) {
        self.word = word
        self.summary = summary
    }
}

/// A whole tool: its name, its commands (in the order help lists them) and their groups.
public struct ToolSpec: Sendable {
    public var name: String
    public var abstract: String
    public var commands: [CommandSpec]
    public var groups: [CommandGroup]
    /// Lines printed after the command list in the tool's help (global options, exit codes).
    public var footer: String

    public init(
        name: String, abstract: String, commands: [CommandSpec], groups: [CommandGroup], footer: String = ""
    ) {
        self.name = name
        self.abstract = abstract
        self.commands = commands
        self.groups = groups
        self.footer = footer
    }

    /// The commands of a group, in order.
    public func commands(inGroup word: String) -> [CommandSpec] {
        commands.filter { $0.words.count > 1 && $0.words[0] == word }
    }

    /// The command that `args` starts with (the longest match of command words) and the arguments after
    /// its words; nil when no command matches.
    public func resolve(_ args: [String]) -> (command: CommandSpec, rest: [String])? {
        let match =
            commands.filter { c in
                let words = c.words
                return args.count >= words.count && Array(args.prefix(words.count)) == words
            }
            .max { $0.words.count < $1.words.count }
        guard let match else { return nil }
        return (match, Array(args.dropFirst(match.words.count)))
    }
}

extension ToolSpec {
    /// Mistakes in the model itself, one sentence each (empty when it is sound): an option not spelled
    /// `--name`, an option declared twice in a command, a command declared twice, a repeated or optional
    /// argument before another argument, a flag with allowed values, a value with a space (shells would
    /// split it when completing).
    public var problems: [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for c in commands {
            if !seen.insert(c.name).inserted { problems.append("command '\(c.name)' is declared twice") }
            var names: Set<String> = []
            for o in c.options {
                let word = o.name.dropFirst(2)
                if !o.name.hasPrefix("--") || word.isEmpty || word.hasPrefix("-") || word.contains("=") {
                    problems.append("\(c.name): option '\(o.name)' is not spelled --name")
                }
                if !names.insert(o.name).inserted { problems.append("\(c.name): option \(o.name) is declared twice") }
                if o.kind == .flag && !o.allowedValues.isEmpty {
                    problems.append("\(c.name): flag \(o.name) has allowed values")
                }
                if case .values(let values) = o.completion, values.contains(where: { $0.contains(" ") }) {
                    problems.append("\(c.name): a value of \(o.name) contains a space")
                }
            }
            for (i, a) in c.arguments.enumerated() where i < c.arguments.count - 1 {
                if a.isRepeated || !a.isRequired && c.arguments[i + 1].isRequired {
                    problems.append("\(c.name): argument \(a.name) cannot stand before \(c.arguments[i + 1].name)")
                }
            }
        }
        return problems
    }
}
