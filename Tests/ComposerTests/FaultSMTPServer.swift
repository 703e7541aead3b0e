import Foundation
import TestSupport
import Testing

@testable import Composer

/// Fixtures/smtp_fault_server.py on 127.0.0.1 (a free port), run with the venv's python: per-recipient
/// faults (RCPT 550/451, 451/554 after DATA, drop mid-DATA, drop after storing, slow reply) and 421 at
/// connect, with a JSON-lines record of every message it stored. Stopped and removed on deinit.
final class FaultSMTPServer {
    enum Fault: String, CaseIterable {
        case rcpt550, rcpt451, data451, data554
        case dropMidData = "drop_mid_data"
        case dropAfterStore = "drop_after_store"
        case slowReply = "slow_reply"
        case slowOK = "slow_ok"
    }

    struct Stored: Decodable {
        var messageID: String?
        var from: String
        var to: [String]
        var fault: String?
        enum CodingKeys: String, CodingKey {
            case messageID = "message_id"
            case from, to, fault
        }
    }

    private let server: ScriptServer
    let directory: URL
    var recordFile: URL { directory.appendingPathComponent("stored.jsonl") }
    var port: Int { server.port }

    /// `faults`: per recipient address, the faults of its next transactions in order; `connect421`: the
    /// connection numbers (1 = first) greeted with 421. `slow`: seconds a slow reply takes.
    init(
        faults: [String: [Fault]] = [:], connect421: [Int] = [], slow: Double = 3, slowOK: Double = 0.3,
        port: Int? = nil, size: Int? = nil
    ) throws {
        directory = try Env.tempDirectory("fault-smtp")
        let config: [String: Any] = [
            "recipients": faults.mapValues { $0.map(\.rawValue) }, "connect421": connect421,
        ]
        let configFile = directory.appendingPathComponent("faults.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)
        do {
            server = try ScriptServer(
                python: Env.python, script: Env.fixtures.appendingPathComponent("smtp_fault_server.py"),
                arguments: [
                    "--record", directory.appendingPathComponent("stored.jsonl").path, "--faults", configFile.path,
                    "--slow", String(slow), "--slow-ok",
                    String(slowOK), "--log", directory.appendingPathComponent("commands.log").path,
                ] + (port.map { ["--port", String($0)] } ?? []) + (size.map { ["--size", String($0)] } ?? []))
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var url: String { "smtp://127.0.0.1:\(port)" }

    /// Every command line the server received so far (EHLO, MAIL FROM:<…> SIZE=…, RCPT TO, DATA, …).
    func commands() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("commands.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Every message stored so far, in order: the complete records (a line the server is still writing,
    /// not yet ended by its newline, is left for the next call).
    func stored() throws -> [Stored] {
        guard let data = FileManager.default.contents(atPath: recordFile.path) else { return [] }
        let end = data.lastIndex(of: 10).map { $0 + 1 } ?? data.startIndex
        return try data[data.startIndex..<end].split(separator: 10).map {
            try JSONDecoder().decode(Stored.self, from: Data($0))
        }
    }

    /// How many messages the server with this record file has stored (callable from any thread).
    static func storedCount(_ record: URL) -> Int {
        FileManager.default.contents(atPath: record.path)?.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } ?? 0
    }

    /// How many times each Message-ID was stored.
    func storedCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for s in try stored() { counts[s.messageID ?? "?", default: 0] += 1 }
        return counts
    }
}

/// The Message-ID header of a message file.
func messageID(ofFile url: URL) throws -> String {
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let headers = text.components(separatedBy: "\r\n\r\n").first ?? ""
    for line in headers.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("message-id:") {
        return String(line.dropFirst(11)).trimmingCharacters(in: .whitespaces)
    }
    throw ComposerError.missingField("Message-ID in \(url.lastPathComponent)")
}
