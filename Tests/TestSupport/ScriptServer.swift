import Foundation

/// A test server run as a script (the venv's python and one of the fixtures' server scripts) on
/// 127.0.0.1: it prints `PORT n` as its first line once it listens, takes control lines on stdin and ends
/// on `quit`. Shared by the SMTP servers of every test target; stopped on deinit.
public final class ScriptServer {
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    /// The port it listens on.
    public private(set) var port = 0

    /// Why a server did not start: its first line was not `PORT n`.
    public struct StartError: Error, CustomStringConvertible {
        public var script: String
        public var firstLine: String
        public var description: String { "\(script) did not start: '\(firstLine)'" }
    }

    /// Starts `python script arguments…` and waits for its `PORT n` line.
    public init(python: URL, script: URL, arguments: [String]) throws {
        process.executableURL = python
        process.arguments = [script.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = readLine()
        guard first.hasPrefix("PORT "), let p = Int(first.dropFirst(5)) else {
            process.terminate()
            process.waitUntilExit()
            throw StartError(script: script.lastPathComponent, firstLine: first)
        }
        port = p
    }

    /// The next line the server prints (what is left when it ends without one).
    public func readLine() -> String {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return String(decoding: buffer, as: UTF8.self) }
            buffer.append(contentsOf: data)
        }
    }

    /// Writes one control line to the server's stdin.
    public func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Asks it to quit, waits up to `grace` seconds, then terminates it.
    public func stop(grace: Double = 5) {
        guard process.isRunning else { return }
        send("quit")
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}
