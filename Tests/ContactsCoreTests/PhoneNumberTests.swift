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
        // Only a region the locale names itself: a language never implies one.
        #expect(PhoneNumber.defaultRegion(forLocale: "de") == "ZZ")
        #expect(PhoneNumber.defaultRegion(forLocale: "ja") == "ZZ")
        #expect(PhoneNumber.defaultRegion(forLocale: "de-u-co-phonebk") == "ZZ")
        #expect(PhoneNumber.defaultRegion(forLocale: "pt_BR") == "BR")
        #expect(PhoneNumber.defaultRegion(forLocale: "zh-Hant") == "ZZ")
        #expect(PhoneNumber.parse("030 1234567", locale: "de-DE").e164 == "+49301234567")
        #expect(PhoneNumber.parse("(206) 555-0101", locale: "ja").e164 == nil)
        #expect(PhoneNumber.isSupportedRegion("gb") && !PhoneNumber.isSupportedRegion("XY"))
    }

    @Test func addressCountryWhenNotValidInTheRegion() {
        let n = PhoneNormalizer.shared
        #expect(n.e164("030 1234567", region: "US", addressRegion: "DE") == "+49301234567")
        #expect(n.e164("030 1234567", region: "ZZ", addressRegion: "DE") == "+49301234567")
        #expect(n.e164("(206) 555-0101", region: "ZZ", addressRegion: nil) == nil)
        // Valid in the region: the region wins; international form: kept whatever the addresses say.
        #expect(n.e164("(415) 555-0100", region: "US", addressRegion: "DE") == n.e164("(415) 555-0100", region: "US"))
        #expect(n.e164("+44 20 7946 0958", region: "US", addressRegion: "DE") == "+442079460958")
        var c = Contact(id: "c")
        c.addresses = [
            LabeledAddress(value: PostalAddress(country: "Deutschland")),
            LabeledAddress(value: PostalAddress(country: "DE")),
        ]
        #expect(c.addressRegion == "DE")
        c.addresses.append(LabeledAddress(value: PostalAddress(country: "France")))
        #expect(c.addressRegion == nil)
    }
}
