import Foundation
import TestSupport
import Testing

/// Credentials from the command line: one password reader for compose, outbox send, pick and sync; AUTH
/// only after TLS unless the server is on the loopback interface; never a secret in what is printed or
/// written.
@Suite("credentials: password sources, AUTH and TLS, no secret shown", .serialized)
struct CredentialsCLITests {
    static let secret = "s3cret-Zq9"

    /// The project's aiosmtpd server (plain, AUTH as ada with ``secret``) storing into `mailbox`.
    func authServer(mailbox: URL) throws -> (server: ScriptServer, url: String) {
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let server = try ScriptServer(
            python: URL(fileURLWithPath: DemoCLITests.python),
            script: DemoCLITests.packageRoot.appendingPathComponent("Tests/ComposerTests/Fixtures/smtp_server.py"),
            arguments: ["--mailbox", mailbox.path, "--mode", "plain", "--auth", "ada:\(Self.secret)"])
        return (server, "smtp://127.0.0.1:\(server.port)")
    }

    func passwordFile(in dir: URL, mode: Int16 = 0o600) throws -> URL {
        let file = dir.appendingPathComponent("password")
        try (Self.secret + "\n").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file
    }

    @Test("--check says what the server offered: no 'AUTH accepted' from a server that offers no AUTH")
    func checkSaysWhatHappened() throws {
        let dir = Scratch.path("credentials")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("commands.log")
        let fault = try ScriptServer(
            python: URL(fileURLWithPath: DemoCLITests.python),
            script: DemoCLITests.packageRoot.appendingPathComponent(
                "Tests/ComposerTests/Fixtures/smtp_fault_server.py"),
            arguments: ["--record", dir.appendingPathComponent("stored.jsonl").path, "--log", log.path])
        defer { fault.stop() }
        let url = "smtp://127.0.0.1:\(fault.port)"
        let r = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file", try passwordFile(in: dir).path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("AUTH accepted"), "\(r.stdout)")
        #expect(
            r.stdout.contains(
                "check: \(url): connected, EHLO accepted, no TLS; the server offered no AUTH: the user name and password were not used"
            ), "\(r.stdout)")
        let commands = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!commands.uppercased().contains("AUTH"))
    }

    @Test(
        "--never-plaintext-auth: without STARTTLS no AUTH is sent, on the loopback interface too; the default sends it there"
    )
    func noAuthWithoutTLS() throws {
        let dir = Scratch.path("credentials")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mailbox = dir.appendingPathComponent("mailbox")
        let (server, url) = try authServer(mailbox: mailbox)
        defer { server.stop() }
        let password = try passwordFile(in: dir)
        let strict = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file", password.path,
            "--never-plaintext-auth",
        ])
        #expect(strict.status == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(
            strict.stderr.contains("\(url) offers no STARTTLS, and the password is sent only after TLS"),
            "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mailbox.appendingPathComponent("auth.log").path))
        let loopback = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file", password.path,
        ])
        #expect(loopback.status == 0, "\(loopback.stderr)")
        #expect(
            loopback.stdout.contains("check: \(url): connected, EHLO accepted, no TLS, AUTH "), "\(loopback.stdout)")
        #expect(loopback.stdout.contains(" accepted\n"))
        let both = try CLI.run([
            "compose", "--check", "--smtp", url, "--user", "ada", "--password-file", password.path,
            "--never-plaintext-auth", "--allow-plaintext-auth",
        ])
        #expect(both.status == 2)
        for output in [strict.stdout, strict.stderr, loopback.stdout, loopback.stderr] {
            #expect(!output.contains(Self.secret))
        }
    }

    @Test("a password in the --smtp URL is refused, pointing to --user and --password-file, and not shown")
    func passwordInURL() throws {
        for args in [["compose", "--check"], ["outbox", "send", "/nonexistent"]] {
            let r = try CLI.run(args + ["--smtp", "smtp://ada:\(Self.secret)@127.0.0.1:1"])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("--user") && r.stderr.contains("--password-file"), "\(r.stderr)")
            #expect(!r.stderr.contains(Self.secret) && !r.stdout.contains(Self.secret))
        }
    }

    @Test(
        "compose reads the password through the one reader: a warning for a file everyone can read, --password-command; no secret in output or outbox"
    )
    func noSecretShown() throws {
        let merge = MailMergeCLITests()
        let (dir, templates) = try merge.setup()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picked = try merge.recipients()
        let mailbox = dir.appendingPathComponent("mailbox")
        let (server, url) = try authServer(mailbox: mailbox)
        defer { server.stop() }
        let password = try passwordFile(in: dir, mode: 0o644)
        let campaign = [
            "compose", "--source", CLI.sampleBook, "--template", "note", "--templates", templates.path, "--mode",
            "email", "--ids", picked[0].id, "--from", "ada@example.org", "--smtp", url, "--user", "ada",
        ]
        var outputs: [String] = []
        let dry = try CLI.run(campaign + ["--password-file", password.path], currentDirectory: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("compose: warning: the password file \(password.path) is readable by everyone"))
        let sent = try CLI.run(
            campaign + ["--password-command", "cat '\(password.path)'", "--send"], currentDirectory: dir)
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stdout.contains("summary: sent 1"), "\(sent.stdout)")
        #expect(!sent.stderr.contains("readable by everyone"))
        outputs += [dry.stdout, dry.stderr, sent.stdout, sent.stderr]
        server.stop()
        // The server is gone: the message waits, and the line that resumes it names no secret.
        let deferred = try CLI.run(
            campaign + ["--password-file", password.path, "--send", "--new-batch", "--attempts", "1"],
            currentDirectory: dir)
        #expect(deferred.status == 1 && deferred.stdout.contains("contacts outbox send "), "\(deferred.stdout)")
        outputs += [deferred.stdout, deferred.stderr]
        for output in outputs { #expect(!output.contains(Self.secret), "\(output)") }
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?.compactMap {
            $0 as? URL
        }
        var outboxFiles = 0
        for file in files ?? [] where file.path.contains("/outbox-") && file != password {
            outboxFiles += 1
            let data = (try? Data(contentsOf: file)) ?? Data()
            #expect(data.range(of: Data(Self.secret.utf8)) == nil, "\(file.path)")
        }
        #expect(outboxFiles > 0)
    }

    @Test("with --user and no password option, the password is asked for on the terminal and not echoed")
    func promptOnTheTerminal() throws {
        let dir = Scratch.path("credentials")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, url) = try authServer(mailbox: dir.appendingPathComponent("mailbox"))
        defer { server.stop() }
        let status = dir.appendingPathComponent("status")
        let window = try TmuxWindow(
            columns: 100, lines: 12,
            command:
                "'\(CLI.executable.path)' compose --check --smtp \(url) --user ada; echo $? > '\(status.path)'; sleep 30",
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"])
        defer { window.close() }
        #expect(window.waitFor("Password for ada at \(url):"), "\(window.screen)")
        try window.send("wrong", literal: true)
        try window.send("C-u")
        try window.send(Self.secret + "x", literal: true)
        try window.send("BSpace")
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n", "\(window.screen)")
        let screen = window.screen
        #expect(screen.contains("AUTH PLAIN accepted") || screen.contains("AUTH LOGIN accepted"), "\(screen)")
        #expect(!screen.contains(Self.secret) && !screen.contains("wrong"), "\(screen)")
    }
}
