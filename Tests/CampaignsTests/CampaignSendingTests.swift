import Composer
import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// What "send" means for a campaign (`CampaignSending`), and the identity of its batch, as a library
/// user meets them.
@Suite struct CampaignSendingTests {
    let fixtures = CampaignDeliveryTests()

    @Test("without send, a delivery through an outbox is a dry run: each message described, no outbox, nothing sent")
    func withoutSendNothingIsSent() throws {
        let dir = try Scratch.directory("sending-dry")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try fixtures.makeCampaign()
        let delivery = Delivery(target: .sendmail(try fixtures.sendmail(in: dir)))
        var described: [String] = []
        let dry = try campaign.deliver(
            selection, library: try fixtures.library(in: dir),
            sending: CampaignSending(delivery: delivery, outboxFolder: dir)
        ) { event in
            if case .wouldSend(let item, _) = event { described.append(item.key) }
        }
        #expect(Set(described) == ["felipe", "bruno", "emailonly"])
        #expect(dry.summary.skipped == 3 && dry.outbox == nil)
        #expect(fixtures.calls(in: dir).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("outbox-") })

        let sent = try campaign.deliver(
            selection, library: try fixtures.library(in: dir),
            sending: CampaignSending(delivery: delivery, send: true, outboxFolder: dir))
        #expect(sent.summary.sent == 3 && sent.outbox != nil)
        #expect(fixtures.calls(in: dir).count == 3)
    }

    @Test("a batch is its template, data, rows, recipients and transport; the order of keys does not matter")
    func batchIdentity() throws {
        let dir = try Scratch.directory("sending-identity")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try fixtures.makeCampaign()
        let sendmail = Delivery(target: .sendmail(try fixtures.sendmail(in: dir)))
        let files = Delivery(target: .files(dir))
        var a = campaign
        a.data = ["project": "Atlas", "when": ["day": "Friday", "hour": 8]]
        var b = campaign
        b.data = ["when": ["hour": 8, "day": "Friday"], "project": "Atlas"]
        let identity = a.batchIdentity(selection, text: nil, delivery: sendmail)
        #expect(identity == b.batchIdentity(selection, text: nil, delivery: sendmail))
        var otherData = a
        otherData.data["project"] = "Borealis"
        var otherRows = a
        otherRows.recipientData["bruno"] = ["table": "3"]
        var otherTemplate = a
        otherTemplate.template = "note"
        let text = ComposerText(subject: "Dinner", body: "Hi")
        var edited = text
        edited.body = "Hello"
        let others = [
            otherData.batchIdentity(selection, text: nil, delivery: sendmail),
            otherRows.batchIdentity(selection, text: nil, delivery: sendmail),
            otherTemplate.batchIdentity(selection, text: nil, delivery: sendmail),
            a.batchIdentity(selection, text: nil, delivery: files),
            a.batchIdentity(selection, text: text, delivery: sendmail),
            a.batchIdentity(selection, text: edited, delivery: sendmail),
        ]
        #expect(Set(others + [identity]).count == others.count + 1)
        selection.deselect(id: "bruno")
        #expect(a.batchIdentity(selection, text: nil, delivery: sendmail) != identity)
    }
}
