import ContactsSelection
import Foundation

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

/// One subcommand of the tool. Commands register themselves in `Commands.all` (main.swift).
protocol Command {
    /// The words that select it ("sort", "vcard inspect").
    static var name: String { get }
    /// One line for `contacts --help`.
    static var summary: String { get }
    /// The full `--help` text (usage, options, examples).
    static var help: String { get }
    /// Runs with the arguments after the command words; returns the exit code.
    static func run(_ args: inout Arguments) throws -> ExitCode
}

/// A small, strict argument reader: options may come in any order; unknown options are usage errors.
struct Arguments {
    private(set) var items: [String]
    private var consumed: [Bool]
    let command: String

    init(_ items: [String], command: String) {
        self.items = items
        self.consumed = Array(repeating: false, count: items.count)
        self.command = command
    }

    /// `--name` present (boolean flag).
    mutating func flag(_ name: String, short: String? = nil) -> Bool {
        var found = false
        for (i, item) in items.enumerated() where !consumed[i] && (item == name || item == short) {
            consumed[i] = true
            found = true
        }
        return found
    }

    /// `--name VALUE` or `--name=VALUE`; the last one wins.
    mutating func option(_ name: String, short: String? = nil) throws -> String? {
        var value: String?
        var i = 0
        while i < items.count {
            defer { i += 1 }
            guard !consumed[i] else { continue }
            let item = items[i]
            if item == name || (short != nil && item == short) {
                guard i + 1 < items.count, !consumed[i + 1] else {
                    throw CLIError.usage("\(command): option \(name) needs a value")
                }
                consumed[i] = true
                consumed[i + 1] = true
                value = items[i + 1]
                i += 1
            } else if item.hasPrefix(name + "=") {
                consumed[i] = true
                value = String(item.dropFirst(name.count + 1))
            }
        }
        return value
    }

    /// All values of a repeatable option (`--name A --name B`, `--name=C`), in order.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        var i = 0
        while i < items.count {
            defer { i += 1 }
            guard !consumed[i] else { continue }
            if items[i] == name {
                guard i + 1 < items.count, !consumed[i + 1] else {
                    throw CLIError.usage("\(command): option \(name) needs a value")
                }
                consumed[i] = true
                consumed[i + 1] = true
                values.append(items[i + 1])
                i += 1
            } else if items[i].hasPrefix(name + "=") {
                consumed[i] = true
                values.append(String(items[i].dropFirst(name.count + 1)))
            }
        }
        return values
    }

    /// The remaining positional arguments, after every option was read. Any leftover `-x`/`--x` that no
    /// one asked for is a usage error (a lone `-` means stdin and is positional).
    mutating func positionals(max: Int, names: String) throws -> [String] {
        var result: [String] = []
        var afterDashDash = false
        for (i, item) in items.enumerated() where !consumed[i] {
            if item == "--" && !afterDashDash {
                afterDashDash = true
                continue
            }
            if !afterDashDash && item.hasPrefix("-") && item != "-" {
                throw CLIError.usage("\(command): unknown option '\(item)' (see 'contacts \(command) --help')")
            }
            result.append(item)
        }
        if result.count > max {
            throw CLIError.usage("\(command): unexpected argument '\(result[max])' (expected \(names))")
        }
        return result
    }
}

/// Reads a whole file, or stdin for `-`. Missing files are usage errors (exit 2), other I/O errors exit 1.
func readInput(_ path: String, command: String) throws -> Data {
    if path == "-" {
        return FileHandle.standardInput.readDataToEndOfFile()
    }
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
        throw CLIError.usage("\(command): no such file: \(path)")
    }
    if isDir.boolValue { throw CLIError.failure("\(command): \(path) is a directory") }
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw CLIError.failure("\(command): cannot read \(path): \(error.localizedDescription)")
    }
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

/// Serializes an `Encodable` value as pretty, key-sorted JSON followed by a newline.
func jsonString<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// The locale for a command: `--locale`, else the environment's (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else "en".
func environmentLocale(_ explicit: String?) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    return environmentLocale(ProcessInfoEnvironment.current)
}
