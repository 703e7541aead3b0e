import ArgumentModel
import Collation
import ContactsCore
import ContactsSelection
import Foundation
import Locales
import Support

/// Exit codes of the `contacts` tool: 0 ok, 1 failure (I/O, unreadable input, lint errors), 2 usage.
enum ExitCode: Int32 {
    case ok = 0
    case failure = 1
    case usage = 2
    /// Stopped by SIGINT/SIGTERM (128 + 2, as shells report a Ctrl-C).
    case interrupted = 130
}

/// An error that ends a command with a one-line message on stderr and an exit code.
struct CLIError: Error {
    var message: String
    var code: ExitCode
    static func usage(_ message: String) -> CLIError { CLIError(message: message, code: .usage) }
    static func failure(_ message: String) -> CLIError { CLIError(message: message, code: .failure) }
}

/// One subcommand of the tool. Commands register themselves in `allCommands` (main.swift). Each declares its
/// options and arguments once, in `spec`; parsing, validation, help and shell completion come from it.
protocol Command {
    /// The words that select it ("sort", "vcard inspect").
    static var name: String { get }
    /// One line for `contacts --help`.
    static var summary: String { get }
    /// The command's model: options, arguments, discussion and examples (its `--help` is made from it).
    static var spec: CommandSpec { get }
    /// Runs with the arguments after the command words, already checked against `spec`; returns the exit code.
    static func run(_ args: inout Arguments) throws -> ExitCode
}

/// The arguments of a command, parsed and checked against its `CommandSpec` (unknown options, missing
/// values, disallowed values, missing required options and extra arguments were usage errors already).
struct Arguments {
    let parsed: ParsedArguments
    let spec: CommandSpec
    var command: String { spec.name }

    init(_ parsed: ParsedArguments, spec: CommandSpec) {
        self.parsed = parsed
        self.spec = spec
    }

    private func declared(_ name: String, _ kinds: Set<OptionSpec.Kind>) throws {
        guard let option = spec.option(name), kinds.contains(option.kind) else {
            throw CLIError.failure("\(command): \(name) is not declared in the command's options")
        }
    }

    /// `--name` present (boolean flag).
    func flag(_ name: String) -> Bool {
        assert(spec.option(name)?.kind == .flag, "\(command): flag \(name) is not declared")
        return parsed.flag(name)
    }

    /// `--name VALUE` or `--name=VALUE`; the last one wins.
    func option(_ name: String) throws -> String? {
        try declared(name, [.option, .repeatedOption])
        return parsed.value(name)
    }

    /// All values of a repeatable option (`--name A --name B`, `--name=C`), in order.
    func options(_ name: String) throws -> [String] {
        try declared(name, [.option, .repeatedOption])
        return parsed.values(name)
    }

    /// The positional arguments (a lone `-` means stdin; everything after `--`).
    func positionals(max: Int, names: String) throws -> [String] {
        let result = parsed.positionals
        if result.count > max {
            throw CLIError.usage("\(command): unexpected argument '\(result[max])' (expected \(names))")
        }
        return result
    }
}

/// Reads a whole file, or stdin for `-` (``ContactSource/wholeInput(_:)``). Missing files are usage errors
/// (exit 2), other I/O errors exit 1.
func readInput(_ path: String, command: String) throws -> Data {
    try opening(command) { try ContactSource.wholeInput(path) }
}

/// Whether FILE is read as a stream: standard input (`-`), a FIFO or a device (``ContactSource/isStream(_:)``).
func isPipeInput(_ path: String) -> Bool { ContactSource.isStream(path) }

/// Fails as reading FILE would when there is no such file (a usage error) or it is a directory.
func checkInputFile(_ path: String, command: String) throws {
    try opening(command) { try ContactSource.checkFile(path) }
}

/// Buffered UTF-8 output to stdout (one write at the end of a chunk, not per line).
struct Output {
    private var buffer: [UInt8] = []
    init() { buffer.reserveCapacity(1 << 16) }
    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }
    mutating func line(_ s: String = "") {
        write(s)
        buffer.append(0x0A)
    }
    /// Writes what `write(i, &bytes)` appends for every i in `positions`, in order; made in blocks on all
    /// cores.
    mutating func formatInParallel(_ positions: Range<Int>, _ write: @Sendable (Int, inout [UInt8]) -> Void) {
        let block = 4_096
        var start = positions.lowerBound
        while start < positions.upperBound {
            // A few blocks per thread at a time: the memory in flight stays small.
            let blocks = min(ParallelWork.threads * 4, (positions.upperBound - start + block - 1) / block)
            let first = start
            let end = positions.upperBound
            let parts = ParallelWork.map(count: blocks) { k in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(block * 48)
                for i in (first + k * block)..<min(end, first + (k + 1) * block) { write(i, &bytes) }
                return bytes
            }
            for part in parts {
                buffer.append(contentsOf: part)
                if buffer.count >= 1 << 16 { flush() }
            }
            start = min(end, first + blocks * block)
        }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes a line to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Serializes an `Encodable` value as the package writes JSON (`JSONText.encoded`: pretty, keys sorted).
func jsonString<T: Encodable>(_ value: T) throws -> String { try JSONText.encoded(value) }

/// The locales for a command, most preferred first: `--locale` (one, or a list such as `en,zh-Hans`), else the
/// environment's list (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else `["en"]`. Every `--locale` value has
/// been checked before the command runs (``checkLocaleOptions(_:)``).
func commandLocales(_ explicit: String?) -> [String] {
    guard let explicit else { return LocalePolicy.environmentLocales(environment: ProcessInfoEnvironment.current) }
    return (try? LocalePolicy.localeList(explicit)) ?? [explicit]
}

/// The locale for a command that uses one: the first of ``commandLocales(_:)``.
func environmentLocale(_ explicit: String?) -> String { commandLocales(explicit)[0] }

/// Checks every `--locale` value by the package's rule (``LocalePolicy/localeList(_:)``), for every command
/// before it runs: a malformed or unknown locale is a usage error naming the expected form.
func checkLocaleOptions(_ parsed: ParsedArguments) throws {
    for value in parsed.values("--locale") {
        do { _ = try LocalePolicy.localeList(value) } catch { throw CLIError.usage("--locale: \(error)") }
    }
}
