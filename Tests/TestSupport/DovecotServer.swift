import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real IMAP server for tests: Debian's Dovecot (`dovecot-imapd`) started in the foreground from a
/// temporary configuration in a scratch folder: one user from a passwd-file, Maildir mail in the folder
/// (mailbox `Sent` created on login), plain IMAP on 127.0.0.1 at a port that was free, nothing outside
/// the folder. Run as root, Dovecot's own unprivileged users (`dovenull`, `dovecot`) serve logins and
/// mail, as Dovecot refuses root for both; otherwise everything runs as the current user. ``stop()`` ends
/// it (also on deinit).
public final class DovecotServer {
    public static let executable = "/usr/sbin/dovecot"
    public let folder: URL
    public let port: Int
    public let user = "ada"
    public let password = "imap-test-\(UInt32.random(in: 0...UInt32.max))"
    private let process: Process
    private let log: URL

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The Maildir of a mailbox (`Sent`), as Dovecot lays it out.
    public func maildir(_ mailbox: String) -> URL {
        folder.appendingPathComponent("mail/\(user)/.\(mailbox)")
    }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw StartError(description: "\(Self.executable) is missing: install dovecot-imapd (make deps)")
        }
        // Short: Dovecot's sockets live under base_dir, and a socket path holds at most 107 bytes.
        var dir = Scratch.root.appendingPathComponent("dv\(UInt32.random(in: 0...UInt32.max) % 100_000)")
        if dir.path.utf8.count > 64 {
            dir = URL(fileURLWithPath: "/tmp/contacts-dv-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        }
        folder = dir
        let mail = dir.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        let root = getuid() == 0
        func account(_ name: String) -> (uid: UInt32, gid: UInt32)? {
            guard let pw = getpwnam(name) else { return nil }
            return (pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        let me = String(cString: getpwuid(getuid()).pointee.pw_name)
        let group = String(cString: getgrgid(getgid()).pointee.gr_name)
        var mailUID = getuid()
        var mailGID = getgid()
        var loginUser = me
        var internalUser = me
        var internalGroup = group
        if root {
            guard let dovecot = account("dovecot"), account("dovenull") != nil else {
                throw StartError(description: "the dovecot and dovenull users are missing (install dovecot-imapd)")
            }
            (mailUID, mailGID) = dovecot
            loginUser = "dovenull"
            internalUser = "dovecot"
            internalGroup = "dovecot"
            chown(mail.path, mailUID, mailGID)
            chmod(dir.path, 0o755)
        }
        try Data("\(user):{PLAIN}\(password)::::::\n".utf8).write(to: dir.appendingPathComponent("passwd"))
        log = dir.appendingPathComponent("dovecot.log")
        var lastError = ""
        for _ in 0..<5 {
            let port = try Self.freePort()
            let config = """
                base_dir = \(dir.path)/run
                state_dir = \(dir.path)/state
                log_path = \(log.path)
                protocols = imap
                listen = 127.0.0.1
                ssl = no
                disable_plaintext_auth = no
                auth_mechanisms = plain login
                mail_location = maildir:\(mail.path)/%u
                first_valid_uid = \(mailUID)
                default_login_user = \(loginUser)
                default_internal_user = \(internalUser)
                default_internal_group = \(internalGroup)
                passdb {
                  driver = passwd-file
                  args = scheme=PLAIN username_format=%u \(dir.path)/passwd
                }
                userdb {
                  driver = passwd-file
                  args = username_format=%u \(dir.path)/passwd
                  default_fields = uid=\(mailUID) gid=\(mailGID) home=\(mail.path)/%u
                }
                namespace inbox {
                  inbox = yes
                  mailbox Sent {
                    auto = create
                    special_use = \\Sent
                  }
                }
                service imap-login {
                  inet_listener imap {
                    address = 127.0.0.1
                    port = \(port)
                  }
                  inet_listener imaps {
                    port = 0
                  }
                  chroot =
                }
                service anvil {
                  chroot =
                }
                service auth {
                  user = \(root ? "root" : me)
                }
                service auth-worker {
                  user = \(root ? "root" : me)
                }

                """
            let configFile = dir.appendingPathComponent("dovecot.conf")
            try Data(config.utf8).write(to: configFile)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["-F", "-c", configFile.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitForListener(port: port, process: process) {
                self.process = process
                self.port = port
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            lastError = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        throw StartError(description: "Dovecot did not start: \(lastError.suffix(600))")
    }

    deinit { stop() }

    /// Ends the server (SIGTERM, then SIGKILL after 5 s) and removes a folder outside the scratch root.
    public func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        if !folder.path.hasPrefix(Scratch.root.path) { try? FileManager.default.removeItem(at: folder) }
    }

    /// What the server logged (for failure messages).
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// A port nothing listened on a moment ago.
    static func freePort() throws -> Int {
        let (fd, port) = try loopbackSocket(listening: false)
        close(fd)
        return port
    }

    /// Whether something accepts connections on `port` within 10 s (false at once when `process` ended).
    static func waitForListener(port: Int, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && process.isRunning {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
