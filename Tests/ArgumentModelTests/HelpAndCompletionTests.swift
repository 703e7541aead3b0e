import ArgumentModel
import Foundation
import Testing

let tool = ToolSpec(
    name: "contacts", abstract: "contacts — a test tool",
    commands: [
        sortLike,
        CommandSpec(name: "vcard inspect", summary: "List a vCard file", options: [.flag("--json", help: "JSON")]),
        CommandSpec(
            name: "vcard convert", summary: "Rewrite a vCard file",
            options: [.option("--to", help: "the version", allowed: ["4.0", "3.0"])],
            arguments: [ArgumentSpec("FILE|-", help: "the file", required: true, completion: .file)]),
        CommandSpec(
            name: "completion", summary: "Print a completion script",
            arguments: [
                ArgumentSpec("SHELL", help: "the shell", required: true, completion: .values(["bash", "zsh", "fish"]))
            ]),
    ],
    groups: [CommandGroup("vcard", summary: "vCard files")],
    footer: "Exit codes: 0 ok.")

@Suite("ArgumentModel: help")
struct HelpTests {
    @Test func commandHelp() {
        let help = sortLike.help(tool: "contacts")
        #expect(help.hasPrefix("Usage: contacts sort [--locale L] [--json] [--mode email|messages|both] [--tag T ...]"))
        #expect(help.contains("[delivery options] [FILE|-]\n"))
        #expect(help.contains("\nReads one name per line.\n"))
        #expect(help.contains("\nArguments:\n  FILE|-"))
        #expect(help.contains("\nOptions:\n  --locale L"))
        #expect(help.contains("\n  -h, --help "))
        #expect(help.contains("\nDelivery:\n  --out DIR"))
        #expect(help.hasSuffix("Example:\n  contacts sort --locale sv names.txt"))
        for option in sortLike.options { #expect(help.contains(option.synopsis)) }
    }

    @Test func requiredAndLongUsageLines() {
        let help = required.help(tool: "contacts")
        #expect(help.hasPrefix("Usage: contacts outbox settle --template NAME DIR ID...\n"))
        #expect(help.contains("the template (required)"))
        let many = CommandSpec(
            name: "compose", summary: "",
            options: (1...12).map { .option("--option-\($0)", value: "VALUE", help: "number \($0)") })
        let usage = many.usage(tool: "contacts", width: 80)
        #expect(usage.split(separator: "\n").count > 1)
        #expect(usage.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(usage.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 24)) })
    }

    @Test func toolAndGroupHelp() {
        let help = tool.help()
        #expect(help.contains("\n  vcard inspect  List a vCard file\n"))
        #expect(help.hasSuffix("Exit codes: 0 ok."))
        let group = tool.groupHelp("vcard")
        #expect(group.hasPrefix("Usage: contacts vcard <inspect|convert> [options]\n"))
        #expect(group.contains("  convert  Rewrite a vCard file\n"))
    }

    @Test func resolvesTheLongestCommand() {
        #expect(tool.resolve(["vcard", "inspect", "--json"])?.command.name == "vcard inspect")
        #expect(tool.resolve(["vcard", "inspect", "--json"])?.rest == ["--json"])
        #expect(tool.resolve(["vcard"]) == nil)
        #expect(tool.resolve(["nope"]) == nil)
    }
}

@Suite("ArgumentModel: completion")
struct CompletionTests {
    @Test(arguments: Shell.allCases)
    func everyCommandOptionAndValueAppears(_ shell: Shell) {
        let script = tool.completionScript(for: shell)
        for command in tool.commands {
            for word in command.words { #expect(script.contains(word), "\(shell): \(word)") }
            for option in command.options {
                let name = shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
                #expect(script.contains(name), "\(shell): \(command.name) \(option.name)")
                for value in option.allowedValues { #expect(script.contains(value)) }
            }
        }
        #expect(script.contains("inspect") && script.contains("bash zsh fish") || shell == .zsh)
    }

    @Test(arguments: Shell.allCases)
    func scriptIsValidShell(_ shell: Shell) throws {
        let program = ["bash": "bash", "zsh": "zsh", "fish": "fish"][shell.rawValue]!
        guard
            let path = ["/bin", "/usr/bin", "/usr/local/bin"].map({ "\($0)/\(program)" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            // bash is always there (the test suite needs it); zsh and fish are checked when installed.
            #expect(shell != .bash, "bash not found")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-n"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(tool.completionScript(for: shell).utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
    }

    /// The bash script completes: run its function with COMP_WORDS set as bash would.
    @Test func bashCompletes() throws {
        func complete(_ words: [String]) throws -> [String] {
            let script =
                tool.completionScript(for: .bash)
                + "\nCOMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)\n"
                + "_contacts; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", script]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(try complete(["contacts", "vc"]) == ["vcard"])
        #expect(try complete(["contacts", "vcard", ""]) == ["inspect", "convert", "--help"])
        #expect(try complete(["contacts", "vcard", "convert", "--to", ""]) == ["4.0", "3.0"])
        #expect(try complete(["contacts", "sort", "--locale", "sv", "--m"]) == ["--mode"])
        #expect(try complete(["contacts", "sort", "--mode", "b"]) == ["both"])
        #expect(try complete(["contacts", "completion", "z"]) == ["zsh"])
    }
}

@Suite("ArgumentModel: the model checks itself")
struct ModelProblemsTests {
    @Test func aSoundModelHasNoProblems() {
        #expect(tool.problems.isEmpty, "\(tool.problems)")
    }

    @Test func mistakesAreNamed() {
        let bad = ToolSpec(
            name: "t", abstract: "",
            commands: [
                CommandSpec(
                    name: "x", summary: "",
                    options: [
                        .flag("--json", help: ""), .flag("--json", help: ""), .option("-l", help: ""),
                        .option("--to", help: "", completion: .values(["a b"])),
                    ],
                    arguments: [
                        ArgumentSpec("A", help: "", repeated: true), ArgumentSpec("B", help: "", required: true),
                    ]),
                CommandSpec(name: "x", summary: ""),
            ], groups: [])
        let problems = bad.problems
        #expect(problems.contains("x: option --json is declared twice"))
        #expect(problems.contains("x: option '-l' is not spelled --name"))
        #expect(problems.contains("x: a value of --to contains a space"))
        #expect(problems.contains("x: argument A cannot stand before B"))
        #expect(problems.contains("command 'x' is declared twice"))
        #expect(problems.count == 5)
    }
}
