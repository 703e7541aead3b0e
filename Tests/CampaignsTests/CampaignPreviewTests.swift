import Composer
import ContactsSelection
import Foundation
import PickerModel
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// What a compose sheet is filled with: the campaign of a written message or a template, checked before
/// anyone is picked, its pages, and its delivery.
@Suite struct CampaignPreviewTests {
    let fixtures = CampaignDeliveryTests()

    @Test func aWrittenMessageIsCheckedAtOnceAndRenderedUnderItsOwnName() throws {
        let dir = try Scratch.directory("preview-campaign")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try fixtures.library(in: dir)
        let ada = try MailAddress(name: "Ada", address: "ada@example.org")
        let text = ComposerText(
            subject: "Hi {{recipient.givenName}}", body: "*bold*", bodyFile: "n.md", html: false,
            messageBody: nil)
        #expect(text.format == .markdown && text.messageBody == nil)
        let written = try CampaignPreview.campaign(
            text: text, template: nil, library: library, locale: "de", from: ada, data: ["k": "v"])
        #expect(written.template == CampaignPreview.writtenTemplate && written.locale == "de" && written.from == ada)
        #expect(written.data.keys.sorted() == ["k"])
        let seat = try CampaignPreview.campaign(text: nil, template: "seat", library: library, locale: "en", from: nil)
        #expect(seat.template == "seat")
        // A template error of the text, with its part, line and column, before anyone is picked.
        let broken = ComposerText(subject: "{{#open}}", body: nil, bodyFile: nil, html: false, messageBody: nil)
        #expect(throws: TemplatingError.self) {
            try CampaignPreview.campaign(text: broken, template: nil, library: library, locale: "en", from: nil)
        }
    }

    @Test func thePreviewShowsEachRecipientsMessageAndDeliversWhatItShows() throws {
        let dir = try Scratch.directory("preview-deliver")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (campaign, selection) = try fixtures.makeCampaign()
        let preview = try CampaignPreview(
            selection: selection, campaign: campaign, library: try fixtures.library(in: dir), text: nil,
            delivery: Delivery(target: .files(dir)), locale: "en")
        #expect(preview.pages.map(\.subject) == ["Table 2, Bruno", "Table 4, Erin", "Table 1, Felipe"])  // list order
        #expect(preview.failures.count == 1 && preview.failures[0].hasPrefix("Hélène"))
        #expect(preview.alert == nil && preview.editableText == nil)
        let result = try preview.deliver(sending: CampaignSending(delivery: Delivery(target: .files(dir))))
        #expect(result.summary.saved == 3 && result.failures.map(\.contactID) == ["helene"])
    }
}
