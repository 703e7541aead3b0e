import Foundation
import TestSupport
import Testing

@testable import Composer

/// Paths and helpers shared by the Composer tests.
enum Env {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The project's strict .eml validator (raw RFC 5322/MIME rules, `email` with `policy.strict`,
    /// fast-mail-parser as a second parser).
    static let checkEML: URL = packageRoot.appendingPathComponent("scripts/check_eml.py")
    static var venv: URL {
        if let v = ProcessInfo.processInfo.environment["CONTACTS_VENV"], !v.isEmpty { return URL(fileURLWithPath: v) }
        return packageRoot.appendingPathComponent(".venv")
    }
    static var python: URL { venv.appendingPathComponent("bin/python") }
    /// The `contacts` tool built beside the tests (`swift build --build-tests` builds it too).
    static var contactsExecutable: URL? {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.map { $0.appendingPathComponent("contacts") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    static func tempDirectory(_ label: String) throws -> URL {
        try Scratch.directory("composer-\(label)")
    }

    static func run(_ executable: URL, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        nonisolated(unsafe) var errData = Data()
        let g = DispatchGroup()
        g.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            g.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        g.wait()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

/// Result of `check_eml.py --json` for one file.
struct EMLReport: Decodable {
    var file: String
    var errors: [String]
    var warnings: [String]
    var python: PythonView?

    /// What Python's `email` package decoded (fast-mail-parser must have agreed, or `errors` says so).
    struct PythonView: Decodable {
        var subject: String?
        var from: [[String]]?
        var to: [[String]]?
        var cc: [[String]]?
        var plain: String?
        var html: String?
    }
}

/// Writes each message to a file and validates all of them with one run of scripts/check_eml.py (the
/// venv's python with fast-mail-parser). Records an issue per file with errors; returns the reports.
@discardableResult
func checkEML(_ messages: [(label: String, bytes: [UInt8])], sourceLocation: SourceLocation = #_sourceLocation)
    throws -> [EMLReport]
{
    let reports = try validateEML(messages.map(\.bytes), sourceLocation: sourceLocation)
    for (report, m) in zip(reports, messages) {
        for e in report.errors { Issue.record("\(m.label): \(e)", sourceLocation: sourceLocation) }
        for w in report.warnings where !w.contains("fast-mail-parser warning") {
            Issue.record("\(m.label): warning \(w)", sourceLocation: sourceLocation)
        }
    }
    return reports
}

/// Runs scripts/check_eml.py over the messages and returns its reports in order, recording nothing about
/// the messages themselves (the validator's own tests expect errors).
func validateEML(_ messages: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) throws -> [EMLReport] {
    guard FileManager.default.isExecutableFile(atPath: Env.python.path) else {
        Issue.record(
            "\(Env.python.path) missing: run `make deps` (venv with fast-mail-parser)", sourceLocation: sourceLocation)
        return []
    }
    let dir = try Env.tempDirectory("eml")
    defer { try? FileManager.default.removeItem(at: dir) }
    var args = [Env.checkEML.path, "--json"]
    for (i, bytes) in messages.enumerated() {
        let url = dir.appendingPathComponent("m\(i).eml")
        try Data(bytes).write(to: url)
        args.append(url.path)
    }
    let result = try Env.run(Env.python, args)
    let reports = try result.out.split(separator: "\n").map {
        try JSONDecoder().decode(EMLReport.self, from: Data($0.utf8))
    }
    #expect(reports.count == messages.count, "check_eml.py failed: \(result.err)", sourceLocation: sourceLocation)
    return reports
}
