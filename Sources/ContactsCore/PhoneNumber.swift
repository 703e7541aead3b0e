import CPhoneNumber
import ICUKit
import Locales

/// A phone number as written, with what libphonenumber makes of it: E.164, international and national
/// formats, validity and type. Unparseable numbers keep their text and have no E.164 form.
///
/// ```swift
/// let n = PhoneNumber.parse("(415) 555-0100", region: "US")
/// n.e164                           // "+14155550100"
/// n.formatted(.international)      // "+1 415-555-0100"
/// PhoneNumber.parse("030 1234567", region: "DE").e164   // "+49301234567"
/// ```
public struct PhoneNumber: Sendable, Hashable {
    /// The kind of line libphonenumber sees.
    public enum Kind: Sendable, Hashable {
        case fixedLine, mobile, fixedLineOrMobile, tollFree, premiumRate, sharedCost, voip, personalNumber, pager
        case uan, voicemail, unknown
    }

    /// Output styles of ``formatted(_:)``.
    public enum Style: Sendable, Hashable {
        case e164, international, national
    }

    /// The text as written.
    public var raw: String
    /// `+` and digits, when the number parses and has a possible length for its region.
    public var e164: String?
    /// True when the number matches a valid pattern of its region.
    public var isValid: Bool
    /// Mobile, fixed line, …; `.unknown` when unparseable.
    public var type: Kind
    /// The number's region ("US"), when known.
    public var region: String?
    /// Digits only, for searching: the E.164 digits without "+" when parseable, else the digits of ``raw``
    /// (any script's decimal digits, as ASCII).
    public var searchDigits: String
    private var international: String?
    private var national: String?

    /// Parses `raw` with `region` (ISO 3166 alpha-2, e.g. "US") as the default for numbers written
    /// without a country code.
    public static func parse(_ raw: String, region: String) -> PhoneNumber {
        var info = cphone_info()
        let upperRegion = region.uppercased()
        let utf8 = bridgeInput(raw)
        var capacity: Int32 = 96
        for _ in 0..<2 {
            var status: Int32 = 0
            let (needed, out) = callBridge(utf8, capacity: Int(capacity)) { input, length, output, size in
                cphone_parse(input, length, upperRegion, &info, output, size, &status)
            }
            if status == Int32(CPHONE_BUFFER_OVERFLOW) {
                capacity = needed
                continue
            }
            guard status == 0 else { break }
            let e = Int(info.e164_length)
            let i = Int(info.international_length)
            let n = Int(info.national_length)
            let e164 = String(decoding: out[0..<e], as: UTF8.self)
            // C bridge: a fixed char array of the C struct, read-only.
            let regionCode = withUnsafeBytes(of: info.region) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            let possible = info.is_possible != 0
            return PhoneNumber(
                raw: raw, e164: possible ? e164 : nil, isValid: info.is_valid != 0,
                type: possible ? Kind(info.type) : .unknown, region: regionCode.isEmpty ? nil : regionCode,
                searchDigits: possible ? String(e164.dropFirst()) : PhoneNumber.digits(of: raw),
                international: possible ? String(decoding: out[e..<(e + i)], as: UTF8.self) : nil,
                national: possible ? String(decoding: out[(e + i)..<(e + i + n)], as: UTF8.self) : nil)
        }
        return PhoneNumber(
            raw: raw, e164: nil, isValid: false, type: .unknown, region: nil,
            searchDigits: digits(of: raw), international: nil, national: nil)
    }

    /// Parses `raw` with the region `locale` names itself (BCP 47; "de-DE" → "DE"). A language alone names
    /// none ("de", "ja"): then only numbers in international form parse.
    public static func parse(_ raw: String, locale: String) -> PhoneNumber {
        parse(raw, region: defaultRegion(forLocale: locale))
    }

    /// The region a locale names itself: `LocalePolicy.explicitRegion(of:)` ("en-GB" → "GB"), "ZZ" when it
    /// names none ("en", "ja", "de-u-co-phonebk": a language never implies a region).
    public static func defaultRegion(forLocale locale: String) -> String {
        LocalePolicy.explicitRegion(of: locale) ?? "ZZ"
    }

    /// True when libphonenumber knows `region` (ISO 3166 alpha-2, any case): "US", "de" yes; "ZZ", "XY" no.
    ///
    /// ```swift
    /// PhoneNumber.isSupportedRegion("gb")   // true
    /// PhoneNumber.isSupportedRegion("XY")   // false
    /// ```
    public static func isSupportedRegion(_ region: String) -> Bool {
        region.utf8.count == 2 && cphone_country_code_for_region(region.uppercased()) > 0
    }

    /// The number in `style`; the raw text when it did not parse.
    public func formatted(_ style: Style) -> String {
        switch style {
        case .e164: return e164 ?? raw
        case .international: return international ?? raw
        case .national: return national ?? raw
        }
    }

    /// The decimal digits of `text` (any script), as ASCII.
    public static func digits(of text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                out.unicodeScalars.append(scalar)
            } else if scalar.properties.numericType == .decimal, let v = scalar.properties.numericValue {
                out += String(Int(v))
            }
        }
        return out
    }
}

extension PhoneNumber.Kind {
    init(_ code: Int32) {
        switch code {
        case Int32(CPHONE_TYPE_FIXED_LINE): self = .fixedLine
        case Int32(CPHONE_TYPE_MOBILE): self = .mobile
        case Int32(CPHONE_TYPE_FIXED_LINE_OR_MOBILE): self = .fixedLineOrMobile
        case Int32(CPHONE_TYPE_TOLL_FREE): self = .tollFree
        case Int32(CPHONE_TYPE_PREMIUM_RATE): self = .premiumRate
        case Int32(CPHONE_TYPE_SHARED_COST): self = .sharedCost
        case Int32(CPHONE_TYPE_VOIP): self = .voip
        case Int32(CPHONE_TYPE_PERSONAL_NUMBER): self = .personalNumber
        case Int32(CPHONE_TYPE_PAGER): self = .pager
        case Int32(CPHONE_TYPE_UAN): self = .uan
        case Int32(CPHONE_TYPE_VOICEMAIL): self = .voicemail
        default: self = .unknown
        }
    }
}

extension PhoneNumber {
    /// `raw` as the bridge takes it: its UTF-8, or nothing past 250 bytes (libphonenumber rejects longer
    /// text; the number then keeps its text as written).
    static func bridgeInput(_ raw: String) -> [UInt8] {
        let utf8 = Array(raw.utf8)
        return utf8.count > 250 ? [] : utf8
    }

    /// Calls a CPhoneNumber function with `input` as (pointer, length) and an output buffer of `capacity`
    /// bytes; returns what it returned and the buffer. Unsafe code: the C bridge takes (pointer, length) pairs.
    static func callBridge(
        _ input: [UInt8], capacity: Int,
        _ call: (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    ) -> (Int32, [UInt8]) {
        var out = [UInt8](repeating: 0, count: capacity)
        let result = input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                i.withMemoryRebound(to: CChar.self) { inChars in
                    o.withMemoryRebound(to: CChar.self) { outChars in
                        call(inChars.baseAddress, Int32(inChars.count), outChars.baseAddress, Int32(outChars.count))
                    }
                }
            }
        }
        return (result, out)
    }
}
