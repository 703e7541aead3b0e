import ContactsCore
import ContactsSelection
import Foundation
import SelectionFixtures
import Templating
import TestSupport
import Testing

@testable import Campaigns

/// A number no region reads is never texted: the campaign reports that recipient instead.
@Suite struct CampaignPhoneRegionTests {
    func source(locale: String, region: String?) throws -> ContactsDataSource {
        var config = Configuration()
        config.locale = locale
        config.phoneRegion = region
        config.mode = .messages
        return try ContactsDataSource(contacts: phoneRegionBook, configuration: config)
    }

    @Test func messagesAreNotSentToNumbersNoRegionReads() throws {
        let dir = Scratch.path("phones-campaign")
        let t = dir.appendingPathComponent("hi")
        try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
        for (file, text) in [
            ("subject.mustache", "Hello"), ("body.txt.mustache", "Hello\n"),
            ("message.txt.mustache", "Hi {{recipient.givenName}}"),
        ] {
            try text.write(to: t.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let library = try TemplateLibrary(directory: dir)
        let selection = SelectionController(dataSource: try source(locale: "de", region: "ZZ"))
        for id in ["noah", "aerin", "hans"] { try selection.select(id: id) }
        let (messages, failures) = Campaign(template: "hi").compose(selection, library: library)
        #expect(messages.map(\.value).sorted() == ["+442079460140", "+49301234567"])
        #expect(failures.map(\.contactID) == ["noah"])
        #expect(failures.first.map { "\($0.error)" } == "no region for '(206) 555-0101': give --region")
        // With a region the number is texted.
        let us = SelectionController(dataSource: try source(locale: "de", region: "US"))
        try us.select(id: "noah")
        let sent = Campaign(template: "hi").compose(us, library: library)
        #expect(sent.failures.isEmpty && sent.messages.map(\.value) == ["+12065550101"])
    }
}
