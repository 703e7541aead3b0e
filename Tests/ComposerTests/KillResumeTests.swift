import Foundation
import Testing

@testable import Composer

@Suite("Outbox: SIGKILL mid-batch, then resume", .serialized)
struct KillResumeTests {
    @Test("kill -9 twice while sending; after resume every message is delivered at most once and all are accounted for")
    func killAndResume() throws {
        guard requireVenv() else { return }
        guard let contacts = Env.contactsExecutable else {
            Issue.record("contacts executable not found next to the tests: build it with `swift build --build-tests`")
            return
        }
        let server = try SMTPTestServer()
        let dir = try Env.tempDirectory("outbox-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = try Outbox(directory: dir)
        let drafts = try (1...20).map { n in
            MailDraft(
                from: try MailAddress(address: "anna@example.com"),
                to: [try MailAddress(name: "Kontakt \(n)", address: "k\(n)@example.com")],
                subject: "Nachricht \(n)", textBody: "Hallo \(n)")
        }
        #expect(try outbox.enqueue(drafts).ids.count == 20)

        // 600/min = one message every 0.1 s: each run is killed once two more messages have arrived.
        for _ in 0..<2 {
            let before = try server.deliveries().count
            let p = Process()
            p.executableURL = contacts
            p.arguments = ["outbox", "send", dir.path, "--smtp", server.url, "--rate", "600/min"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let deadline = Date().addingTimeInterval(20)
            while try server.deliveries().count < before + 2 && Date() < deadline && p.isRunning {
                Thread.sleep(forTimeInterval: 0.01)
            }
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal)
        }
        let midway = try server.deliveries().count
        #expect(midway > 0 && midway < 20)

        let finish = Process()
        finish.executableURL = contacts
        finish.arguments = ["outbox", "send", dir.path, "--smtp", server.url]
        finish.standardOutput = FileHandle.nullDevice
        finish.standardError = FileHandle.nullDevice
        try finish.run()
        finish.waitUntilExit()

        let status = try outbox.status()
        let delivered = try server.deliveries().flatMap(\.to)
        #expect(Set(delivered).count == delivered.count, "a message was delivered twice: \(delivered.sorted())")
        let sent = status.items.filter { $0.state == .sent }.flatMap(\.recipients)
        let uncertain = status.items.filter { $0.state == .uncertain }.flatMap(\.recipients)
        // Sent means delivered; an uncertain one (killed in the one-round-trip window) is at most once.
        #expect(Set(sent).isSubset(of: Set(delivered)))
        #expect(Set(delivered).isSubset(of: Set(sent + uncertain)))
        #expect(sent.count + uncertain.count == 20 && uncertain.count <= 2)
        #expect(finish.terminationStatus == (uncertain.isEmpty ? 0 : 1))
    }
}
