import Foundation
import TestSupport
import Testing

@testable import Composer

@Suite("mailto: and sms: URIs")
struct URITests {
    @Test func mailtoRoundTrip() throws {
        let uri = MailtoURI(
            to: ["a@example.com", "b@example.com"], cc: ["c@example.com"], subject: "Grüße & more?",
            body: "Line 1\nLine 2 = 100%")
        #expect(
            uri.string
                == "mailto:a@example.com,b@example.com?cc=c@example.com&subject=Gr%C3%BC%C3%9Fe%20%26%20more%3F&body=Line%201%0D%0ALine%202%20%3D%20100%25"
        )
        let back = try MailtoURI(parsing: uri.string)
        #expect(back.to == uri.to && back.cc == uri.cc && back.subject == uri.subject)
        #expect(back.body == "Line 1\r\nLine 2 = 100%")
        let draft = try back.draft()
        #expect(draft.textBody == "Line 1\nLine 2 = 100%")
    }

    @Test func mailtoParsesRFC6068Examples() throws {
        let a = try MailtoURI(parsing: "mailto:infobot@example.com?subject=current-issue")
        #expect(a.to == ["infobot@example.com"] && a.subject == "current-issue")
        let b = try MailtoURI(parsing: "mailto:?to=joe@example.com&cc=bob@example.com&body=hello")
        #expect(b.to == ["joe@example.com"] && b.cc == ["bob@example.com"] && b.body == "hello")
        let c = try MailtoURI(parsing: "MAILTO:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E")
        #expect(c.otherFields == [MailHeader(name: "in-reply-to", value: "<3469A91.D10AF4C@example.com>")])
        let unsafe = try MailtoURI(parsing: "mailto:a@example.com?from=boss@example.com&references=%3Cx@example.com%3E")
        #expect(try unsafe.draft().extraHeaders == [MailHeader(name: "references", value: "<x@example.com>")])
        let d = try MailtoURI(parsing: "mailto:%22not%40me%22@example.org")
        #expect(d.to == ["\"not@me\"@example.org"])
    }

    @Test func mailtoErrorsNameTheColumn() {
        #expect(
            throws: ComposerError.invalidURI(
                "mailto:a@example.com?subject=%G1", reason: "column 30: expected %XX (two hex digits)")
        ) {
            try MailtoURI(parsing: "mailto:a@example.com?subject=%G1")
        }
        #expect(throws: ComposerError.invalidURI("http://x", reason: "column 1: expected 'mailto:'")) {
            try MailtoURI(parsing: "http://x")
        }
        #expect(throws: ComposerError.self) { try MailtoURI(parsing: "mailto:not-an-address") }
        #expect(throws: ComposerError.self) { try MailtoURI(parsing: "mailto:a@example.com?subject") }
    }

    @Test func smsBuildAndParse() throws {
        let uri = try SMSURI(draft: MessageDraft(recipients: ["+15555550123", "+15555550124"], body: "Hi 👋 & bye"))
        #expect(uri.string == "sms:+15555550123,+15555550124?body=Hi%20%F0%9F%91%8B%20%26%20bye")
        let back = try SMSURI(parsing: uri.string)
        #expect(back.recipients == uri.recipients && back.body == "Hi 👋 & bye")
        let visual = try SMSURI(parsing: "sms:+1-555-555-0199;foo=bar?body=x")
        #expect(visual.recipients == ["+15555550199"])
        #expect(throws: ComposerError.invalidPhoneNumber("5550123")) { try SMSURI(recipients: ["5550123"]) }
        #expect(throws: ComposerError.self) { try SMSURI(parsing: "sms:12345") }
    }

    @Test("random strings survive mailto: and sms: round trips")
    func randomRoundTrips() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let s = randomText(&rng, length: Int(rng.next() % 40))
            let m = try MailtoURI(parsing: MailtoURI(to: ["x@example.com"], subject: s).string)
            #expect(m.subject == s)
            let t = try SMSURI(parsing: try SMSURI(recipients: ["+15555550100"], body: s).string)
            #expect(t.body == s)
        }
    }
}

@Suite("SMS segments")
struct SMSSegmentTests {
    struct Vectors: Decodable {
        struct Vector: Decodable {
            var testDescription: String
            var body: String
            var encoding: String
            var segments: Int
            var messageSize: Int?
            var totalSize: Int?
        }
        var vectors: [Vector]
    }

    /// 44 vectors carried in Fixtures/sms (MIT: see its LICENSE and SOURCE.txt).
    @Test("all segment-counting vectors pass")
    func conformance() throws {
        let data = try Data(contentsOf: Env.fixtures.appendingPathComponent("sms/twilio_segment_vectors.json"))
        let vectors = try JSONDecoder().decode(Vectors.self, from: data).vectors
        #expect(vectors.count == 44)
        for v in vectors {
            let info = SMSSegments.count(v.body)
            #expect(info.encoding.rawValue == v.encoding, "\(v.testDescription)")
            #expect(info.segments == v.segments, "\(v.testDescription)")
            if let m = v.messageSize { #expect(info.messageBits == m, "\(v.testDescription)") }
            if let t = v.totalSize { #expect(info.totalBits == t, "\(v.testDescription)") }
        }
    }

    @Test func extensionCharactersCostTwoAndStayTogether() {
        #expect(SMSSegments.count("€").units == 2)
        #expect(SMSSegments.count(String(repeating: "a", count: 152) + "€").segments == 1)  // 154 septets
        let info = SMSSegments.count(String(repeating: "a", count: 152) + "€" + String(repeating: "a", count: 10))
        #expect(info.segments == 2 && info.units == 164)
        #expect(SMSSegments.count("").segments == 1)
        #expect(SMSSegments.count("ç").encoding == .ucs2)
        #expect(SMSSegments.count("Ç").encoding == .gsm7)
        #expect(MessageDraft(recipients: [], body: "Grüße 🎉").segments == SMSSegments.count("Grüße 🎉"))
        #expect(SMSSegments.count(String(repeating: "😜", count: 35)).segments == 1)  // 70 UTF-16 units
        #expect(SMSSegments.count(String(repeating: "😜", count: 36)).segments == 2)
    }
}

/// Random text drawn from ASCII (incl. specials), Latin-1, Greek, CJK, emoji and combining marks.
func randomText(_ rng: inout SplitMix64, length: Int, controls: Bool = false) -> String {
    let pools: [[Unicode.Scalar]] =
        [
            Array(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~=?abcXYZ019".unicodeScalars),
            Array("äöüßéèçñÅØ".unicodeScalars),
            Array("ΑβγΔεζ".unicodeScalars),
            Array("山田太郎東京日本語".unicodeScalars),
            Array("😜🎉👩\u{200D}🇮🇹🏳\u{FE0F}".unicodeScalars),
            Array("\u{0301}\u{0308}".unicodeScalars),
        ] + (controls ? [Array("\r\n\u{0}\t".unicodeScalars)] : [])
    var s = String.UnicodeScalarView()
    for _ in 0..<length {
        let pool = pools[Int(rng.next() % UInt64(pools.count))]
        s.append(pool[Int(rng.next() % UInt64(pool.count))])
    }
    return String(s)
}
