import Foundation

/// Where a secret (a password) comes from: never the command line, never an environment variable.
package enum SecretSource: Sendable, Equatable {
    /// The first line of a file: a plain file, `/dev/fd/N`, a FIFO or `<(…)`.
    case file(String)
    /// The first line of what a command (run by `/bin/sh -c`) prints; it may ask on the terminal itself.
    case command(String)
    /// Typed at a prompt on the terminal (`/dev/tty`), echoing nothing; the text is the prompt.
    case prompt(String)
}

/// Why a secret could not be read. No case holds the secret, or any of the text read.
package enum SecretError: Error, Equatable, CustomStringConvertible {
    /// Both a file and a command were given.
    case twoSources
    /// A file or a command was given without a user name.
    case noUser
    /// The file cannot be opened or read (the system's reason).
    case unreadable(path: String, reason: String)
    /// The file's first line is longer than ``SecretReader/maximumLength`` bytes.
    case tooLong(source: String)
    /// The command could not be started (the system's reason).
    case commandNotRun(reason: String)
    /// The command failed: `exit N` or `signal N`.
    case commandFailed(how: String)
    /// No terminal to ask on (`/dev/tty` cannot be opened).
    case noTerminal
    /// The user gave up at the prompt (Ctrl-C, or Ctrl-D on an empty line).
    case cancelled

    package var description: String {
        switch self {
        case .twoSources: return "give --password-file or --password-command, not both"
        case .noUser: return "a password needs --user"
        case .unreadable(let path, let reason): return "cannot read the password file \(path): \(reason)"
        case .tooLong(let source):
            return "the password from \(source) is longer than \(SecretReader.maximumLength) bytes"
        case .commandNotRun(let reason): return "cannot run the password command: \(reason)"
        case .commandFailed(let how): return "the password command failed (\(how))"
        case .noTerminal:
            return "no terminal to ask for the password on: give --password-file or --password-command"
        case .cancelled: return "no password given (cancelled at the prompt)"
        }
    }
}

/// The one reader of secrets (``SecretSource``): what `compose`, `outbox send`, `pick` and `sync` call. The
/// secret is returned to the caller only; it is never printed, logged or put in an error. A file that
/// others can read is read all the same, with a warning (a plain file only: a pipe has no such mode).
///
/// ```swift
/// let password = try SecretReader.password(
///     user: "ada", file: "/home/ada/.config/smtp-password", command: nil, prompt: "Password for ada: ",
///     warn: { print($0) })
/// ```
package enum SecretReader {
    /// The longest secret read (bytes); a longer first line is refused, not cut.
    package static let maximumLength = 4096

    /// The password for `user`: from `file`, from `command`, or else asked for at `prompt` on the terminal;
    /// nil when there is no user (and neither a file nor a command). `warn` receives the warning about a
    /// file others can read.
    package static func password(
        user: String?, file: String?, command: String?, prompt: @autoclosure () -> String,
        warn: (String) -> Void
    ) throws(SecretError) -> String? {
        if file != nil && command != nil { throw .twoSources }
        guard user != nil else {
            if file != nil || command != nil { throw .noUser }
            return nil
        }
        if let file { return try read(.file(file), warn: warn) }
        if let command { return try read(.command(command), warn: warn) }
        return try read(.prompt(prompt()), warn: warn)
    }

    /// Reads one secret from `source` (its first line, without the line end).
    package static func read(_ source: SecretSource, warn: (String) -> Void = { _ in }) throws(SecretError)
        -> String
    {
        switch source {
        case .file(let path): return try readFile(path, warn: warn)
        case .command(let command):
            let result: ChildRun.Result
            do { result = try ChildRun.run("/bin/sh", ["-c", command]) } catch {
                throw .commandNotRun(reason: error.reason)
            }
            guard result.exitStatus == 0 else {
                throw .commandFailed(how: result.exitStatus.map { "exit \($0)" } ?? "signal \(result.signal ?? 0)")
            }
            let line = firstLine(result.output)
            guard line.count <= maximumLength else { throw .tooLong(source: "the password command") }
            return String(decoding: line, as: UTF8.self)
        case .prompt(let text): return try ask(text)
        }
    }

    /// The first line of `path`, read up to its first newline (a FIFO's writer need not close it).
    private static func readFile(_ path: String, warn: (String) -> Void) throws(SecretError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw .unreadable(path: path, reason: String(cString: strerror(EISDIR)))
            }
            if info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o004 != 0 {
                warn("warning: the password file \(path) is readable by everyone (chmod 600 \(path))")
            }
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !bytes.contains(0x0A) && bytes.count <= maximumLength + 2 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes += buffer[..<n]
        }
        let line = firstLine(bytes)
        guard line.count <= maximumLength else { throw .tooLong(source: path) }
        return String(decoding: line, as: UTF8.self)
    }

    /// The bytes before the first LF, without a CR before it.
    static func firstLine(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var line = bytes[..<(bytes.firstIndex(of: 0x0A) ?? bytes.endIndex)]
        if line.last == 0x0D { line = line.dropLast() }
        return line
    }

    /// Asks on `/dev/tty` with echo off, reading key by key: Enter ends, Backspace and Ctrl-U edit, Ctrl-C
    /// (and Ctrl-D on an empty line) give up. The terminal's settings are put back whatever happens.
    private static func ask(_ prompt: String) throws(SecretError) -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else { throw .noTerminal }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { throw .noTerminal }
        var quiet = saved
        // No echo, key by key, and Ctrl-C read as a key: a signal here would leave the echo off.
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        write(tty, prompt)
        guard tcsetattr(tty, TCSAFLUSH, &quiet) == 0 else { throw .noTerminal }
        defer {
            _ = tcsetattr(tty, TCSAFLUSH, &saved)
            write(tty, "\n")
        }
        var typed: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(tty, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { throw .cancelled }
            switch byte {
            case 0x0A, 0x0D: return String(decoding: typed, as: UTF8.self)
            case 0x03: throw .cancelled
            case 0x04: if typed.isEmpty { throw .cancelled }
            case 0x15: typed.removeAll()
            case 0x7F, 0x08:
                // One character back: the UTF-8 continuation bytes and the byte that starts them.
                while let last = typed.popLast(), last & 0xC0 == 0x80 {}
            default:
                guard typed.count < maximumLength else { continue }
                typed.append(byte)
            }
        }
    }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}
