import Foundation
import Testing

/// Runs the built `contacts` executable (it sits beside the test bundle) and captures its output.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data
}

enum CLI {
    /// The sample address book as a file (`--source`): `compose --send` never mails the built-in one.
    static let sampleBook = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ContactsCore/Resources/sample.vcf").path

    static var executable: URL {
        // The test bundle (or runner) lives in the build products folder next to the `contacts` binary.
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for dir in candidates {
            let url = dir.appendingPathComponent("contacts")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/contacts")
    }

    /// Runs `contacts args…` with `stdin` as its standard input and an environment without colour; with
    /// `umask`, under that file-creation mask (through `/bin/sh`, so the test process keeps its own).
    static func run(
        _ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, umask: String? = nil
    ) throws -> CLIResult {
        let process = Process()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", executable.path] + args
        } else {
            process.executableURL = executable
            process.arguments = args
        }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        return try collect(process, stdin: stdin)
    }

    /// Runs `process` (made ready, not started) to its end with `stdin` as its input, and captures its output.
    static func collect(_ process: Process, stdin: Data? = nil) throws -> CLIResult {
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full stderr pipe cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }
}
