import Foundation
import TestSupport
import Testing

@testable import Composer

#if canImport(Glibc)
    import Glibc
#endif

/// A server that takes each connection and closes it at once, without a greeting.
private final class HangUpServer: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    init() throws {
        let (fd, port) = try loopbackSocket(listening: true)
        self.fd = fd
        self.port = UInt16(port)
        let listening = fd
        Thread.detachNewThread {
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { return }
                close(client)
            }
        }
    }
    deinit { shutdown(fd, Int32(SHUT_RDWR)) }
}

/// libcurl's texts reach the user in words: no bare errno numbers.
@Suite struct SMTPErrorWordsTests {
    @Test func aServerThatHangsUpIsSaidInWords() throws {
        let server = try HangUpServer()
        var config = try SMTPConfiguration(url: "smtp://127.0.0.1:\(server.port)")
        config.connectTimeout = 2
        let draft = MailDraft(
            from: try MailAddress(address: "anna@example.com"), to: [try MailAddress(address: "rcpt@example.com")],
            subject: "Hi", textBody: "Hello\n")
        guard case .failed(let error) = try SMTPTransport(configuration: config).send(draft) else {
            Issue.record("expected a failure")
            return
        }
        let text = "\(error)"
        #expect(!text.contains("errno"), "\(text)")
        #expect(text.contains("the server closed the connection without a reply"), "\(text)")
    }

    @Test func errnoNumbersBecomeTheSystemsWords() {
        #expect(
            SMTPTransport.plainWords("response reading failed (errno: 115)")
                == "the server closed the connection without a reply")
        #expect(
            SMTPTransport.plainWords("response reading failed (errno: 104)")
                == "reading the server's reply failed: Connection reset by peer")
        #expect(
            SMTPTransport.plainWords("bind failed with errno 98: Address already in use")
                == "bind failed: Address already in use")
        #expect(
            SMTPTransport.plainWords("select/poll on SSL socket, errno: 110")
                == "select/poll on SSL socket: Connection timed out")
    }
}
