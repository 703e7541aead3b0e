import Foundation
import Testing

@testable import Composer

/// A real aiosmtpd server on 127.0.0.1 (Fixtures/smtp_server.py, run with the venv's python), with fault
/// injection through its stdin.
final class SMTPTestServer {
    enum Mode: String { case plain, smtps, starttls }
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let mailbox: URL
    private(set) var port = 0
    private var buffer: [UInt8] = []

    init(mode: Mode = .plain, requireStartTLS: Bool = false, tls: TLSFiles? = nil, auth: String? = nil) throws {
        mailbox = try Env.tempDirectory("mailbox")
        process.executableURL = Env.python
        var args = [
            Env.fixtures.appendingPathComponent("smtp_server.py").path, "--mailbox", mailbox.path, "--mode",
            mode.rawValue,
        ]
        if requireStartTLS { args.append("--require-starttls") }
        if let tls { args += ["--cert", tls.cert.path, "--key", tls.key.path] }
        if let auth { args += ["--auth", auth] }
        process.arguments = args
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        let first = readLine()
        guard first.hasPrefix("PORT "), let p = Int(first.dropFirst(5)) else {
            process.terminate()
            throw ComposerError.io(path: "smtp_server.py", message: "did not start: '\(first)'")
        }
        port = p
    }

    deinit {
        if process.isRunning {
            try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: mailbox)
    }

    private func readLine() -> String {
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

    /// Sends one control command and waits for its OK.
    @discardableResult
    func command(_ line: String) -> String {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        return readLine()
    }

    var url: String { "smtp://127.0.0.1:\(port)" }

    struct Delivery {
        var from: String
        var to: [String]
        var tls: Bool
        var auth: Bool
        var message: [UInt8]
        var messageID: String? {
            let text = String(decoding: message, as: UTF8.self)
            return text.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("message-id:") }
                .map { String($0.dropFirst(11)).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Accepted messages in order.
    func deliveries() throws -> [Delivery] {
        let names = try FileManager.default.contentsOfDirectory(atPath: mailbox.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.map { name in
            let meta =
                try JSONSerialization.jsonObject(with: Data(contentsOf: mailbox.appendingPathComponent(name)))
                as! [String: Any]
            let eml = try Data(contentsOf: mailbox.appendingPathComponent(String(name.dropLast(5)) + ".eml"))
            return Delivery(
                from: meta["from"] as! String, to: meta["to"] as! [String], tls: meta["tls"] as! Bool,
                auth: meta["auth"] as! Bool, message: Array(eml))
        }
    }

    func authMechanisms() -> [String] {
        let text = (try? String(contentsOf: mailbox.appendingPathComponent("auth.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}

/// A self-signed certificate for 127.0.0.1/localhost made with `openssl` for this test run.
struct TLSFiles {
    var cert: URL
    var key: URL

    static func generate() throws -> TLSFiles {
        let dir = try Env.tempDirectory("tls")
        let files = TLSFiles(cert: dir.appendingPathComponent("cert.pem"), key: dir.appendingPathComponent("key.pem"))
        let result = try Env.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", files.key.path, "-out", files.cert.path, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard result.status == 0 else { throw ComposerError.io(path: "openssl", message: result.err) }
        return files
    }
}

/// True when the venv with aiosmtpd is there; SMTP tests fail with a clear message otherwise.
func requireVenv() -> Bool {
    guard FileManager.default.isExecutableFile(atPath: Env.python.path) else {
        Issue.record("\(Env.python.path) missing: run `make deps` to create the test venv (aiosmtpd, fast-mail-parser)")
        return false
    }
    return true
}
