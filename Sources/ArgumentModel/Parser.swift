/// A command line that does not fit its command's model: the message names the command and the option.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The values of one command line, checked against its `CommandSpec`.
public struct ParsedArguments: Sendable, Equatable {
    /// Every value of each option given, in order (a flag has one empty value per time it was given).
    public var values: [String: [String]]
    /// The positional arguments, in order (`-` included; everything after `--`).
    public var positionals: [String]

    public init(values: [String: [String]] = [:], positionals: [String] = []) {
        self.values = values
        self.positionals = positionals
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool { values[name] != nil }
    /// The value of an option (the last one when it was given several times).
    public func value(_ name: String) -> String? { values[name]?.last }
    /// All values of a repeatable option.
    public func values(_ name: String) -> [String] { values[name] ?? [] }
}

/// What a command line asks for: the command with its arguments, or the command's help.
public enum ParseOutcome: Sendable, Equatable {
    case arguments(ParsedArguments)
    case help
}

extension CommandSpec {
    /// The words that ask for a command's help when they stand where an option may.
    public static let helpWords: Set<String> = ["--help", "-h"]

    /// Parses the words after the command's name.
    ///
    /// Rules: options may come in any order and before or after arguments; `--opt VALUE` and
    /// `--opt=VALUE` both work, and a word starting with `--` is never taken as a value (write
    /// `--opt=--value` for such a value); `-` alone is an argument (stdin); every word after `--` is an
    /// argument; `--help` or `-h` where an option may stand asks for help (also when the line has other
    /// errors), but not as the value of an option. Unknown options, missing or disallowed values, missing
    /// required options or arguments and extra arguments throw a `UsageError` naming the command and
    /// `tool <command> --help`; an unknown option also names the closest known one.
    public func parse(_ argv: [String], tool: String = "contacts") throws(UsageError) -> ParseOutcome {
        var parsed = ParsedArguments()
        var afterDashDash = false
        var help = false
        var firstError: UsageError?
        let see = "(see '\(tool) \(name) --help')"
        func fail(_ message: String) {
            if firstError == nil { firstError = UsageError("\(name): \(message) \(see)") }
        }
        var i = 0
        while i < argv.count {
            let word = argv[i]
            i += 1
            if afterDashDash || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                afterDashDash = true
                continue
            }
            if Self.helpWords.contains(word) {
                help = true
                continue
            }
            var optionName = word
            var inline: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                optionName = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            guard let spec = option(optionName) else {
                fail(
                    "unknown option '\(optionName)'"
                        + (closestOption(to: optionName).map { " (did you mean '\($0)'?)" } ?? ""))
                continue
            }
            if spec.kind == .flag {
                if inline != nil {
                    fail("option \(spec.name) takes no value")
                } else {
                    parsed.values[spec.name, default: []].append("")
                }
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if i < argv.count, !argv[i].hasPrefix("--") {
                value = argv[i]
                i += 1
            } else {
                let next = i < argv.count ? " ('\(argv[i])' is an option, not its value)" : ""
                fail("option \(spec.name) needs a value \(spec.placeholder)\(next)")
                continue
            }
            if !spec.allowedValues.isEmpty && !spec.allowedValues.contains(value) {
                fail("\(spec.name): expected \(Self.alternatives(spec.allowedValues)), got '\(value)'")
                continue
            }
            parsed.values[spec.name, default: []].append(value)
        }
        if help { return .help }
        if let firstError { throw firstError }
        for spec in options where spec.isRequired && parsed.values[spec.name] == nil {
            fail("\(spec.synopsis) is required")
        }
        let required = arguments.filter(\.isRequired).count
        if parsed.positionals.count < required {
            fail("missing \(arguments[parsed.positionals.count].name)")
        } else if arguments.last?.isRepeated != true, parsed.positionals.count > arguments.count {
            let expected =
                arguments.isEmpty ? "no arguments" : arguments.map(\.synopsis).joined(separator: " ")
            fail("unexpected argument '\(parsed.positionals[arguments.count])' (expected \(expected))")
        }
        if let firstError { throw firstError }
        return .arguments(parsed)
    }

    /// "a, b or c".
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// The known option closest to a misspelled one: one it starts, or one within a small edit distance.
    public func closestOption(to word: String) -> String? {
        let names = options.map(\.name) + ["--help"]
        let typed = word.drop { $0 == "-" }
        guard !typed.isEmpty else { return nil }
        if let prefixed = names.first(where: { $0.dropFirst(2).hasPrefix(typed) }) { return prefixed }
        var best: (name: String, distance: Int)?
        for name in names {
            let d = editDistance(Array(typed), Array(name.dropFirst(2)))
            if d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        guard let best, best.distance <= max(1, min(3, typed.count / 3)) else { return nil }
        return best.name
    }
}

/// Edit distance between two words: insertions, deletions, substitutions and swaps of two neighbours
/// ("--mdoe" is one edit from "--mode"), each counting one.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}
