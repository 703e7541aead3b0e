import Foundation
import Support
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one reader of secrets: a file's first line (plain files, `/dev/fd/N`, FIFOs), a command's first line,
/// the choice between them; never the secret in an error or a warning.
@Suite struct SecretReaderTests {
    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aFileGivesItsFirstLineAndWarnsWhenEveryoneCanReadIt() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("pw")
        try "s3cr et\r\nsecond\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        var warnings: [String] = []
        #expect(try SecretReader.read(.file(file.path), warn: { warnings.append($0) }) == "s3cr et")
        #expect(warnings.isEmpty)
        chmod(file.path, 0o644)
        #expect(try SecretReader.read(.file(file.path), warn: { warnings.append($0) }) == "s3cr et")
        #expect(
            warnings == ["warning: the password file \(file.path) is readable by everyone (chmod 600 \(file.path))"])
        #expect(!warnings.joined().contains("s3cr"))
    }

    @Test func aDescriptorAndAFIFOAreReadToTheirFirstLine() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        _ = Array("from a pipe\nrest".utf8).withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        // The writer stays open: the reader stops at the first newline.
        #expect(try SecretReader.read(.file("/dev/fd/\(fds[0])")) == "from a pipe")
        close(fds[0])
        close(fds[1])

        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = Array("through a fifo\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            Thread.sleep(forTimeInterval: 0.3)
            close(fd)
        }
        writer.start()
        var warnings: [String] = []
        #expect(try SecretReader.read(.file(fifo), warn: { warnings.append($0) }) == "through a fifo")
        #expect(warnings.isEmpty)
    }

    @Test func aCommandGivesTheFirstLineItPrints() throws {
        #expect(try SecretReader.read(.command("printf 'hunter2\\nmore'")) == "hunter2")
        do {
            _ = try SecretReader.read(.command("echo hunter2; exit 3"))
            Issue.record("a failing command gives no password")
        } catch {
            #expect(error == .commandFailed(how: "exit 3"))
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func theChoiceOfSource() throws {
        let noPrompt = { () -> String in
            Issue.record("no prompt expected")
            return ""
        }
        #expect(
            try SecretReader.password(user: nil, file: nil, command: nil, prompt: noPrompt(), warn: { _ in }) == nil)
        #expect(throws: SecretError.noUser) {
            try SecretReader.password(user: nil, file: "/dev/null", command: nil, prompt: noPrompt(), warn: { _ in })
        }
        #expect(throws: SecretError.twoSources) {
            try SecretReader.password(
                user: "ada", file: "/dev/null", command: "true", prompt: noPrompt(), warn: { _ in })
        }
        #expect(
            try SecretReader.password(user: "ada", file: nil, command: "echo pw", prompt: noPrompt(), warn: { _ in })
                == "pw")
        do {
            _ = try SecretReader.read(.file("/nonexistent/pw"))
            Issue.record("a missing file is an error")
        } catch {
            #expect(error.description.hasPrefix("cannot read the password file /nonexistent/pw: "))
        }
    }
}
