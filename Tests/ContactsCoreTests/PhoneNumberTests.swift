import Foundation
import Testing

@testable import ContactsCore

@Suite struct PhoneNumberTests {
    @Test func usNumber() {
        let n = PhoneNumber.parse("(415) 555-0100", region: "US")
        #expect(n.raw == "(415) 555-0100")
        #expect(n.e164 == "+14155550100")
        #expect(n.formatted(.e164) == "+14155550100")
        #expect(n.formatted(.international) == "+1 415-555-0100")
        #expect(n.formatted(.national) == "(415) 555-0100")
        #expect(n.searchDigits == "14155550100")
        #expect(n.region == "US" || n.region == nil)
    }

    @Test func germanNumber() {
        let n = PhoneNumber.parse("030 1234567", region: "DE")
        #expect(n.e164 == "+49301234567")
        #expect(n.formatted(.international) == "+49 30 1234567")
        #expect(n.isValid)
        #expect(n.type == .fixedLine)
        #expect(n.region == "DE")
        let mobile = PhoneNumber.parse("+49 151 23456789", region: "US")
        #expect(mobile.e164 == "+4915123456789")
        #expect(mobile.type == .mobile)
        #expect(mobile.isValid)
    }

    @Test func regionIsOnlyADefault() {
        #expect(PhoneNumber.parse("+44 20 7946 0018", region: "DE").e164 == "+442079460018")
        #expect(PhoneNumber.parse("(415) 555-0100", region: "us").e164 == "+14155550100")
    }

    @Test func unparseableKeepsText() {
        for raw in ["call me", "", "12", String(repeating: "9", count: 400)] {
            let n = PhoneNumber.parse(raw, region: "US")
            #expect(n.e164 == nil)
            #expect(!n.isValid)
            #expect(n.type == .unknown)
            #expect(n.formatted(.international) == raw)
            #expect(n.raw == raw)
        }
        // A local-only number has no E.164 form; its digits are still searchable.
        let local = PhoneNumber.parse("555-0100", region: "US")
        #expect(local.e164 == nil)
        #expect(local.searchDigits == "5550100")
        #expect(PhoneNumber.parse("٠١٢ abc", region: "ZZ").searchDigits == "012")
    }

    @Test func defaultRegionFromLocale() {
        #expect(PhoneNumber.defaultRegion(forLocale: "de") == "DE")
        #expect(PhoneNumber.defaultRegion(forLocale: "ja") == "JP")
        #expect(PhoneNumber.defaultRegion(forLocale: "pt_BR") == "BR")
        #expect(PhoneNumber.defaultRegion(forLocale: "zh-Hant") == "TW")
        #expect(PhoneNumber.parse("030 1234567", locale: "de-DE").e164 == "+49301234567")
    }
}
