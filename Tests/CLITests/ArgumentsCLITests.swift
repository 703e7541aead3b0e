import Foundation
import Testing

/// The tool's command line as the model declares it: usage errors, help placement, `help`, completion.
@Suite("contacts: declared options, help and completion")
struct ArgumentsCLITests {
    /// The commands `contacts --help` lists.
    static func commands() throws -> [String] {
        let help = try CLI.run(["--help"]).stdout
        let list = help.components(separatedBy: "Commands:\n").last?.components(separatedBy: "\n\n").first ?? ""
        return list.split(separator: "\n").map { line in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            // "vcard inspect  Summary…": command words are lowercase, the summary starts with a capital.
            return words.prefix { $0.first?.isLowercase == true }.joined(separator: " ")
        }
    }

    /// The options a command's generated help lists (the words starting with `--` at the start of a row).
    static func options(of command: String) throws -> [String] {
        let help = try CLI.run(["help"] + command.split(separator: " ").map(String.init))
        #expect(help.status == 0, "\(command): \(help.stderr)")
        return help.stdout.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("  --"), let name = trimmed.split(separator: " ").first else { return nil }
            return String(name)
        }
    }

    @Test func aValueNeverStartsWithDashDash() throws {
        let r = try CLI.run(["sort", "--locale", "--json", "-"], stdin: Data("b\na\n".utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("sort: option --locale needs a value"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let explicit = try CLI.run(["sort", "--locale=sv", "--json", "-"], stdin: Data("b\na\n".utf8))
        #expect(explicit.status == 0 && explicit.stdout.contains("\"a\""), "\(explicit.stderr)")
    }

    @Test func unknownOptionsSuggestTheClosest() throws {
        let r = try CLI.run(["list", "--skip-unamed"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("list: unknown option '--skip-unamed' (did you mean '--skip-unnamed'?)"))
        #expect(r.stderr.contains("'contacts list --help'"))
        let value = try CLI.run(["list", "--mode=fax"])
        #expect(value.status == 2 && value.stderr.contains("list: --mode: expected email, messages or both, got 'fax'"))
    }

    @Test func helpIsAnOptionNotAValue() throws {
        let help = try CLI.run(["vcard", "inspect", "x.vcf", "-h"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: contacts vcard inspect"))
        #expect(help.stdout.contains("--region CC"))
        // As the value of an option, -h is that value ("-h" is not a locale; sort reads stdin).
        let value = try CLI.run(["sort", "--locale", "-h", "-"], stdin: Data("b\na\n".utf8))
        #expect(!value.stdout.contains("Usage:"))
        let afterDashDash = try CLI.run(["vcard", "inspect", "--", "--help"])
        #expect(afterDashDash.status == 2 && afterDashDash.stderr.contains("no such file: --help"))
        let viaHelp = try CLI.run(["help", "vcard", "inspect"])
        #expect(viaHelp.status == 0 && viaHelp.stdout == help.stdout)
        let group = try CLI.run(["help", "outbox"])
        #expect(group.status == 0 && group.stdout.hasPrefix("Usage: contacts outbox <status|send|settle|prune>"))
        let unknown = try CLI.run(["help", "frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("frobnicate"))
    }

    @Test func everyCommandHasGeneratedHelp() throws {
        let commands = try Self.commands()
        #expect(commands.contains("vcard inspect") && commands.contains("completion") && commands.count > 15)
        for command in commands {
            let r = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(r.stdout.hasPrefix("Usage: contacts \(command)"), "\(command)")
            #expect(r.stdout.contains("-h, --help"), "\(command)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionNamesEveryCommandAndOption(shell: String) throws {
        let r = try CLI.run(["completion", shell])
        #expect(r.status == 0, "\(r.stderr)")
        for command in try Self.commands() {
            for word in command.split(separator: " ") {
                #expect(r.stdout.contains(String(word)), "\(shell): \(command)")
            }
            for option in try Self.options(of: command) {
                let expected = shell == "fish" ? "-l \(option.dropFirst(2))" : option
                #expect(r.stdout.contains(expected), "\(shell): \(command) \(option)")
            }
        }
        #expect(r.stdout.contains(shell == "zsh" ? "'email' 'messages' 'both'" : "email messages both"))
    }

    @Test func bashCompletionScriptIsValid() throws {
        let script = try CLI.run(["completion", "bash"]).stdout
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
        let bad = try CLI.run(["completion", "tcsh"])
        #expect(bad.status == 2 && bad.stderr.contains("tcsh"))
    }
}
