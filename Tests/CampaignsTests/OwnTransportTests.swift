import Composer
import ContactsSelection
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Campaigns

/// A transport the package does not have, written by a library user: a message bus that keeps what it is
/// given, greylists one address with a 550 reply and says, by its own rule, that this refusal is transient
/// (the rule for SMTP would make it final).
private final class Bus: DeliveryTransport, EnvelopeTransport {
    let greylisted: String
    let delivered = Mutex<[String: [UInt8]]>([:])

    init(greylisting address: String) { greylisted = address }

    var via: String { "bus://campaigns" }
    var carriesMail: Bool { true }
    var needsOutbox: Bool { true }
    func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport { self }

    func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        let refused = try deliverAccepted(message, from: sender, to: recipients, onCommit: onCommit)
        if let error = refused.values.first { throw error }
    }

    func deliverAccepted(
        _ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void
    ) throws(ComposerError) -> [String: ComposerError] {
        var refused: [String: ComposerError] = [:]
        for address in recipients where address == greylisted {
            refused[address] = .smtp(code: 550, message: "<\(address)>: greylisted, come back later")
        }
        let accepted = recipients.filter { refused[$0] == nil }
        guard !accepted.isEmpty else { return refused }
        do { try onCommit() } catch { throw ComposerError.io(path: "journal", message: "\(error)") }
        delivered.withLock { for address in accepted { $0[address] = message } }
        return refused
    }

    func classify(_ error: ComposerError, afterCommit: Bool) -> DeliveryFailure {
        if case .smtp(550, let reply) = error, reply.contains("greylisted") { return .transient }
        return DeliveryFailure(error, afterCommit: afterCommit)
    }
}

@Suite struct OwnTransportTests {
    @Test("a transport of the test target's own runs a campaign through the outbox, its failures counted by its rule")
    func aNewTransportRunsACampaign() throws {
        let dir = try Scratch.directory("own-transport")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixtures = CampaignDeliveryTests()
        let (campaign, selection) = try fixtures.makeCampaign()
        let bus = Bus(greylisting: "bruno@example.org")
        let delivery = Delivery(target: DeliveryTarget(bus), policy: OutboxPolicy(maxAttempts: 1, backoff: 0))
        #expect(delivery.carriesMail && !delivery.carriesTexts && delivery.needsOutbox)
        let result = try campaign.deliver(
            selection, library: try fixtures.library(in: dir),
            sending: CampaignSending(delivery: delivery, send: true, outboxFolder: dir))
        let delivered = bus.delivered.withLock { $0 }
        #expect(Set(delivered.keys) == ["felipe@example.com", "erin@example.net"])
        #expect(delivered.values.allSatisfy { String(decoding: $0, as: UTF8.self).contains("See you.") })
        // Greylisted: deferred (to be retried by a later run), not failed, by the bus's own classification.
        #expect(result.summary.sent == 2 && result.summary.deferred == 1 && result.summary.failed == 0)
        #expect(result.failures.map(\.contactID) == ["helene"])
        #expect(result.outbox != nil)
        // The same refusal by the rule every transport gets unless it says otherwise: final.
        #expect(DeliveryFailure(.smtp(code: 550, message: "greylisted"), afterCommit: false) == .permanent)
    }
}
