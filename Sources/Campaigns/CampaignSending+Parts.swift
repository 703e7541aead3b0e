import Composer
import Foundation

extension CampaignSending {
    /// The batch identity of a send: `base` (``Campaign/batchIdentity(_:text:delivery:)``), made another
    /// batch by a test send (``testTo``), which counts for no real recipient.
    func identity(_ base: String) -> String {
        testTo.map { base + " test " + $0.asciiAddress.lowercased() } ?? base
    }

    /// The messages this send delivers, in order: without those an outbox of the batch `identity` in
    /// ``outboxFolder`` holds already as parts of it (nil, ``newBatch`` or a test: none left out), then the
    /// first ``limit`` (one for a test send without a limit), then for a test send each readdressed to
    /// ``testTo`` alone.
    func choose(_ messages: [PersonalizedMessage], identity: String?) -> (
        messages: [PersonalizedMessage], alreadyQueued: Int, heldBack: Int
    ) {
        var chosen = messages
        if resume == nil, !newBatch, testTo == nil, let identity {
            let done = Outbox.recipients(ofBatch: identity, in: outboxFolder)
            if !done.isEmpty { chosen.removeAll { done[$0.value.lowercased()] != nil } }
        }
        let alreadyQueued = messages.count - chosen.count
        var heldBack = 0
        if let cap = limit ?? (testTo == nil ? nil : 1), chosen.count > cap {
            heldBack = chosen.count - cap
            chosen = Array(chosen.prefix(cap))
        }
        if let testTo { chosen = chosen.compactMap { $0.test(to: testTo) } }
        return (chosen, alreadyQueued, heldBack)
    }
}

extension PersonalizedMessage {
    /// This mail as a test: to `address` alone (no copies, no VERP sender), `[TEST]` before the subject;
    /// nil for a text message (a test goes to an e-mail address).
    func test(to address: MailAddress) -> PersonalizedMessage? {
        guard var draft = mail else { return nil }
        draft.to = [address]
        draft.cc = []
        draft.bcc = []
        draft.envelopeSender = nil
        draft.subject = "[TEST] " + draft.subject
        return PersonalizedMessage(
            contactID: contactID, displayName: displayName, locale: locale, channel: channel,
            value: address.address, rendered: rendered, mail: draft, message: nil)
    }
}
