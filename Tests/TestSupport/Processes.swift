import Foundation

/// A program running in the background, its standard output and error collected in files (no pipe can
/// fill up and block it), for tests that signal or kill it while it runs.
public final class BackgroundProcess {
    public let process = Process()
    private let outFile: URL
    private let errFile: URL

    /// Starts `executable args…` with `NO_COLOR=1` and `environment` added to this process's environment;
    /// its output files go into `scratch`. `standardInput` is its stdin (default: this process's).
    public init(
        _ executable: URL, _ args: [String], scratch: URL, environment: [String: String] = [:],
        currentDirectory: URL? = nil, standardInput: FileHandle? = nil
    ) throws {
        let tag = UUID().uuidString
        outFile = scratch.appendingPathComponent("out-\(tag)")
        errFile = scratch.appendingPathComponent("err-\(tag)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = args
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let standardInput { process.standardInput = standardInput }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Waits up to `timeout` seconds for the program to end; kills it (SIGKILL) and returns false when it
    /// does not.
    public func wait(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        process.waitUntilExit()
        return true
    }

    public var stdout: String { (try? String(contentsOf: outFile, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }
    /// The exit status, or nil when a signal ended the program.
    public var exitedWith: Int32? { process.terminationReason == .exit ? process.terminationStatus : nil }
}

/// Waits up to `timeout` seconds for `pid` to be gone (a signal is delivered asynchronously).
public func processEnds(_ pid: Int32, timeout: Double = 3) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while processIsAlive(pid) {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

/// True while `pid` exists and is not a zombie (a zombie has ended; its parent has not waited for it yet).
public func processIsAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
    return state != "Z" && state != "X"
}

/// Runs `args` (the program looked up on PATH by `env`) to its end with stdin closed; stdout and stderr
/// together, in the order written. `environment` is added to this process's environment (a nil value
/// removes the variable).
public func runToEnd(
    _ args: [String], in directory: URL? = nil, environment: [String: String?] = [:]
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = args
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
