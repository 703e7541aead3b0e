import Foundation
import Testing

@testable import Composer

/// Paths and helpers shared by the Composer tests.
enum Env {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static var sharedPresent: Bool { FileManager.default.fileExists(atPath: shared.path) }
    static var allowMissingShared: Bool { ProcessInfo.processInfo.environment["CONTACTS_ALLOW_MISSING_SHARED"] == "1" }
    /// Run shared-dependent tests unless shared/ is absent *and* the user said that is fine.
    static var runShared: Bool {
        if sharedPresent { return true }
        if allowMissingShared { print("NOTICE: \(shared.path) absent: conformance not run") }
        return !allowMissingShared
    }
    static var venv: URL {
        if let v = ProcessInfo.processInfo.environment["CONTACTS_VENV"], !v.isEmpty { return URL(fileURLWithPath: v) }
        return packageRoot.appendingPathComponent(".venv")
    }
    static var python: URL { venv.appendingPathComponent("bin/python") }
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    static func tempDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "composer-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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

/// Writes each message to a file and validates all of them with one run of ../shared/tools/check_eml.py
/// (the venv's python with fast-mail-parser). Records an issue per file with errors; returns the reports.
@discardableResult
func checkEML(_ messages: [(label: String, bytes: [UInt8])], sourceLocation: SourceLocation = #_sourceLocation)
    throws -> [EMLReport]
{
    let tool = Env.shared.appendingPathComponent("tools/check_eml.py")
    guard FileManager.default.fileExists(atPath: tool.path) else {
        Issue.record("\(tool.path) absent: MIME messages not validated", sourceLocation: sourceLocation)
        return []
    }
    guard FileManager.default.isExecutableFile(atPath: Env.python.path) else {
        Issue.record(
            "\(Env.python.path) missing: run `make deps` (venv with fast-mail-parser)", sourceLocation: sourceLocation)
        return []
    }
    let dir = try Env.tempDirectory("eml")
    defer { try? FileManager.default.removeItem(at: dir) }
    var paths: [String: String] = [:]
    var args = [tool.path, "--json"]
    for (i, m) in messages.enumerated() {
        let url = dir.appendingPathComponent("m\(i).eml")
        try Data(m.bytes).write(to: url)
        paths[url.path] = m.label
        args.append(url.path)
    }
    let result = try Env.run(Env.python, args)
    var reports: [EMLReport] = []
    for line in result.out.split(separator: "\n") {
        let report = try JSONDecoder().decode(EMLReport.self, from: Data(line.utf8))
        reports.append(report)
        let label = paths[report.file] ?? report.file
        for e in report.errors { Issue.record("\(label): \(e)", sourceLocation: sourceLocation) }
        for w in report.warnings where !w.contains("fast-mail-parser warning") {
            Issue.record("\(label): warning \(w)", sourceLocation: sourceLocation)
        }
    }
    #expect(reports.count == messages.count, "check_eml.py failed: \(result.err)", sourceLocation: sourceLocation)
    return reports
}
