import Foundation
import TestSupport
import Testing

@testable import Composer

/// A real aiosmtpd server on 127.0.0.1 (Fixtures/smtp_server.py, run with the venv's python), with fault
/// injection through its stdin.
final class SMTPTestServer {
    enum Mode: String { case plain, smtps, starttls }
    private let server: ScriptServer
    let mailbox: URL
    var port: Int { server.port }

    init(
        mode: Mode = .plain, requireStartTLS: Bool = false, tls: TLSFiles? = nil, auth: String? = nil,
        sizeLimit: Int? = nil
    ) throws {
        mailbox = try Env.tempDirectory("mailbox")
        var args = ["--mailbox", mailbox.path, "--mode", mode.rawValue]
        if requireStartTLS { args.append("--require-starttls") }
        if let tls { args += ["--cert", tls.cert.path, "--key", tls.key.path] }
        if let auth { args += ["--auth", auth] }
        if let sizeLimit { args += ["--size-limit", String(sizeLimit)] }
        server = try ScriptServer(
            python: Env.python, script: Env.fixtures.appendingPathComponent("smtp_server.py"), arguments: args)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: mailbox)
    }

    /// Sends one control command and waits for its OK.
    @discardableResult
    func command(_ line: String) -> String {
        server.send(line)
        return server.readLine()
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
