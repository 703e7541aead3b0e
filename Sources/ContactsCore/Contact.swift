import Foundation
import Locales

/// One person (or organization) of an address book, read from a vCard.
///
/// Everything the model does not name is kept in ``unknownProperties`` so that writing the contact back
/// loses nothing.
///
/// ```swift
/// var c = Contact(id: "ada")
/// c.givenName = "Ada"; c.familyName = "Lovelace"
/// c.emails = [LabeledValue(label: .work, value: "ada@example.com")]
/// print(c.displayName)   // "Ada Lovelace"
/// ```
public struct Contact: Sendable, Hashable, Identifiable {
    /// The vCard UID (without a `urn:uuid:` prefix), else a deterministic id derived from the card's bytes.
    public var id: String
    public var namePrefix: String = ""
    public var givenName: String = ""
    public var middleName: String = ""
    public var familyName: String = ""
    public var nameSuffix: String = ""
    /// `FN` ("" when absent).
    public var formattedName: String = ""
    /// `NICKNAME`: the "remark name" that lists prefer when present.
    public var nickname: String = ""
    /// `X-PHONETIC-FIRST-NAME`, else the second `SORT-AS` value of `N` when there are two or more.
    public var phoneticGivenName: String = ""
    /// `X-PHONETIC-LAST-NAME`, else the first `SORT-AS` value of `N`.
    public var phoneticFamilyName: String = ""
    /// The `SORT-AS` values of `N` (vCard 4), in order.
    public var sortAsComponents: [String] = []
    /// First component of `ORG`.
    public var organization: String = ""
    /// The other components of `ORG` (departments), joined with ", ".
    public var department: String = ""
    /// `TITLE`.
    public var jobTitle: String = ""
    /// `TEL`s in preference order (preferred first), each value as written (a `tel:` URI without its scheme).
    public var phones: [LabeledValue] = []
    /// `EMAIL`s in preference order.
    public var emails: [LabeledValue] = []
    /// `ADR`s in preference order.
    public var addresses: [LabeledAddress] = []
    /// `URL`s in preference order.
    public var urls: [LabeledValue] = []
    /// `BDAY`.
    public var birthday: ContactDate?
    /// `ANNIVERSARY` and Apple `X-ABDATE`s.
    public var dates: [LabeledDate] = []
    /// `NOTE` ("" when absent).
    public var note: String = ""
    /// `PHOTO`.
    public var photo: ContactPhoto?
    /// `CATEGORIES`, in order, without duplicates.
    public var categories: [String] = []
    /// `LANG` values (BCP 47) in preference order.
    public var languages: [String] = []
    /// Every property the model does not name, verbatim (group, name, parameters, value).
    public var unknownProperties: [VCardProperty] = []

    /// Creates an empty contact with `id`.
    public init(id: String) { self.id = id }

    /// The `SORT-AS` values joined with a space, when present.
    public var sortAs: String? { sortAsComponents.isEmpty ? nil : sortAsComponents.joined(separator: " ") }

    /// True when any name part, `FN`, the nickname or the organization is present.
    public var hasName: Bool {
        !(givenName.isEmpty && familyName.isEmpty && middleName.isEmpty && namePrefix.isEmpty
            && nameSuffix.isEmpty && formattedName.isEmpty && nickname.isEmpty && organization.isEmpty)
    }

    /// The contact's name, the one every surface shows (list, search, `vcard inspect`, templates' `fullName`,
    /// the To: header, draft file names), whoever reads it: the name parts in the name's own order
    /// (`NameOrder.format(_:language:)` with the contact's first `LANG`), else `FN`, the nickname, the
    /// organization, the first email or phone; "" when nothing is there.
    public var displayName: String { displayName(preferringNickname: false) }

    /// ``displayName``, or the nickname when `preferringNickname` and the contact has one (like iOS
    /// "Prefer Nicknames").
    ///
    /// ```swift
    /// var c = Contact(id: "n")
    /// c.givenName = "Noah"; c.familyName = "White"; c.nickname = "Abby"
    /// c.displayName                                // "Noah White"
    /// c.displayName(preferringNickname: true)      // "Abby"
    /// ```
    public func displayName(preferringNickname: Bool) -> String {
        if preferringNickname {
            let nickname = NameOrder.trimmed(nickname)
            if !nickname.isEmpty { return nickname }
        }
        let parts = PersonName(
            prefix: namePrefix, given: givenName, middle: middleName, family: familyName, suffix: nameSuffix)
        if !parts.isEmpty { return NameOrder.format(parts, language: languages.first) }
        for candidate in [formattedName, nickname, organization] {
            let trimmed = NameOrder.trimmed(candidate)
            if !trimmed.isEmpty { return trimmed }
        }
        return emails.first?.value ?? phones.first?.value ?? ""
    }
}

/// The label of a phone, email, address, URL or date: the vCard `TYPE`s or an Apple `X-ABLabel`.
///
/// ```swift
/// ContactLabel(abLabel: "_$!<Mobile>!$_")   // .mobile
/// ContactLabel(abLabel: "Grandma")          // .custom("Grandma")
/// ```
public enum ContactLabel: Sendable, Hashable {
    case unlabeled, home, work, other, mobile, iPhone, main, homeFax, workFax, otherFax, pager, homePage, school
    case anniversary
    case custom(String)

    /// A stable identifier ("mobile", "homeFax"); a custom label's own text.
    public var identifier: String {
        switch self {
        case .unlabeled: return ""
        case .home: return "home"
        case .work: return "work"
        case .other: return "other"
        case .mobile: return "mobile"
        case .iPhone: return "iPhone"
        case .main: return "main"
        case .homeFax: return "homeFax"
        case .workFax: return "workFax"
        case .otherFax: return "otherFax"
        case .pager: return "pager"
        case .homePage: return "homePage"
        case .school: return "school"
        case .anniversary: return "anniversary"
        case .custom(let text): return text
        }
    }

    /// Reads an Apple `X-ABLabel` value: `_$!<Name>!$_` for the built-in labels, anything else is custom.
    public init(abLabel: String) {
        self = ContactLabel(asciiABLabel: abLabel) ?? ContactLabel(unicodeABLabel: abLabel)
    }

    /// ``init(abLabel:)`` on Characters with Unicode lower-casing: the rule itself, for any label; the
    /// ASCII path below must agree with it.
    init(unicodeABLabel abLabel: String) {
        var text = Substring(abLabel)
        if text.hasPrefix("_$!<") && text.hasSuffix(">!$_") { text = text.dropFirst(4).dropLast(4) }
        switch text.lowercased() {
        case "home": self = .home
        case "work": self = .work
        case "other": self = .other
        case "mobile", "cell": self = .mobile
        case "iphone": self = .iPhone
        case "main": self = .main
        case "homefax": self = .homeFax
        case "workfax": self = .workFax
        case "otherfax": self = .otherFax
        case "pager": self = .pager
        case "homepage": self = .homePage
        case "school": self = .school
        case "anniversary": self = .anniversary
        default: self = text.isEmpty ? .unlabeled : .custom(String(text))
        }
    }
}

extension ContactLabel {
    /// ``init(abLabel:)`` on bytes for an all-ASCII label (the usual case): the same result without making
    /// substrings or a lower-cased copy; nil for a label with non-ASCII bytes.
    init?(asciiABLabel abLabel: String) {
        var copy = abLabel
        let result: ContactLabel? = copy.withUTF8 { all -> ContactLabel? in
            for b in all where b >= 0x80 { return nil }
            var s = 0
            var e = all.count
            // For ASCII text a Character is a byte (CR LF aside, which these markers do not contain).
            if e >= 8 && all[0] == 0x5F && all[1] == 0x24 && all[2] == 0x21 && all[3] == 0x3C
                && all[e - 4] == 0x3E && all[e - 3] == 0x21 && all[e - 2] == 0x24 && all[e - 1] == 0x5F
            {
                s = 4
                e -= 4
            }
            func isWord(_ word: StaticString) -> Bool {
                guard e - s == word.utf8CodeUnitCount else { return false }
                let w = word.utf8Start
                for i in 0..<(e - s) {
                    let b = all[s + i]
                    if (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) != w[i] { return false }
                }
                return true
            }
            switch e - s {
            case 0: return .unlabeled
            case 4:
                if isWord("home") { return .home }
                if isWord("work") { return .work }
                if isWord("cell") { return .mobile }
                if isWord("main") { return .main }
            case 5:
                if isWord("other") { return .other }
                if isWord("pager") { return .pager }
            case 6:
                if isWord("mobile") { return .mobile }
                if isWord("iphone") { return .iPhone }
                if isWord("school") { return .school }
            case 7:
                if isWord("homefax") { return .homeFax }
                if isWord("workfax") { return .workFax }
            case 8:
                if isWord("otherfax") { return .otherFax }
                if isWord("homepage") { return .homePage }
            case 11:
                if isWord("anniversary") { return .anniversary }
            default: break
            }
            return .custom(String(decoding: all[s..<e], as: UTF8.self))
        }
        guard let result else { return nil }
        self = result
    }
}

/// A labelled phone number, email address or URL.
///
/// ```swift
/// let phone = LabeledValue(label: .mobile, value: "+1 415 555 0100", preference: 1)
/// ```
public struct LabeledValue: Sendable, Hashable {
    public var label: ContactLabel
    /// The value as written in the vCard (unescaped).
    public var value: String
    /// vCard 4 `PREF` (1 = most preferred); 1 for a 2.1/3.0 `TYPE=pref`; nil when absent.
    public var preference: Int?

    public init(label: ContactLabel = .unlabeled, value: String, preference: Int? = nil) {
        self.label = label
        self.value = value
        self.preference = preference
    }
}

/// A postal address (`ADR`), component by component.
///
/// ```swift
/// let a = PostalAddress(street: "1 Main St", locality: "Springfield", country: "USA")
/// ```
public struct PostalAddress: Sendable, Hashable {
    public var poBox: String
    public var extended: String
    public var street: String
    public var locality: String
    public var region: String
    public var postalCode: String
    public var country: String

    public init(
        poBox: String = "", extended: String = "", street: String = "", locality: String = "",
        region: String = "", postalCode: String = "", country: String = ""
    ) {
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
    }

    /// True when every component is empty.
    public var isEmpty: Bool {
        poBox.isEmpty && extended.isEmpty && street.isEmpty && locality.isEmpty && region.isEmpty
            && postalCode.isEmpty && country.isEmpty
    }
}

/// A labelled postal address.
///
/// ```swift
/// let home = LabeledAddress(label: .home, value: PostalAddress(locality: "Lyon"))
/// ```
public struct LabeledAddress: Sendable, Hashable {
    public var label: ContactLabel
    public var value: PostalAddress
    public var preference: Int?

    public init(label: ContactLabel = .unlabeled, value: PostalAddress, preference: Int? = nil) {
        self.label = label
        self.value = value
        self.preference = preference
    }
}

/// A date as vCards write it: full, without year (`--0412`), or free text.
///
/// ```swift
/// ContactDate(parsing: "--04-12")   // month 4, day 12, no year
/// ```
public struct ContactDate: Sendable, Hashable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    /// The text when the value is not a date ("circa 1800"); nil for parsed dates.
    public var text: String?

    public init(year: Int? = nil, month: Int? = nil, day: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
    }

    public init(text: String) { self.text = text }

    /// Parses `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD`, `--MMDD`, `YYYY-MM`, `YYYY` (a time part after `T` is
    /// ignored); anything else is kept as ``text``.
    public init(parsing raw: String) {
        var copy = raw
        let parsed: (Int?, Int?, Int?)? = copy.withUTF8 { all in
            // A time part after 'T' is ignored.
            var n = all.count
            if let t = all.firstIndex(of: 0x54) { n = t }
            let bytes = all[0..<n]
            func number(_ r: Range<Int>) -> Int? {
                guard r.upperBound <= bytes.count else { return nil }
                var v = 0
                for k in r {
                    let b = bytes[k]
                    guard b >= 0x30 && b <= 0x39 else { return nil }
                    v = v * 10 + Int(b - 0x30)
                }
                return v
            }
            let dash: UInt8 = 0x2D
            switch bytes.count {
            case 6 where bytes[0] == dash && bytes[1] == dash:  // --MMDD
                guard let m = number(2..<4), let d = number(4..<6) else { return nil }
                return (nil, m, d)
            case 7 where bytes[0] == dash && bytes[1] == dash && bytes[4] == dash:  // --MM-DD
                guard let m = number(2..<4), let d = number(5..<7) else { return nil }
                return (nil, m, d)
            case 10 where bytes[4] == dash && bytes[7] == dash:  // YYYY-MM-DD
                guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
                return (y, m, d)
            case 8:  // YYYYMMDD
                guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8) else { return nil }
                return (y, m, d)
            case 7 where bytes[4] == dash:  // YYYY-MM
                guard let y = number(0..<4), let m = number(5..<7) else { return nil }
                return (y, m, nil)
            case 4:  // YYYY
                guard let y = number(0..<4) else { return nil }
                return (y, nil, nil)
            default:
                return nil
            }
        }
        guard let (y, m, d) = parsed, m.map({ (1...12).contains($0) }) ?? true,
            d.map({ (1...31).contains($0) }) ?? true
        else {
            self.init(text: raw)
            return
        }
        self.init(year: y, month: m, day: d)
    }

    /// ISO 8601 form: `YYYY-MM-DD`, `--MM-DD`, `YYYY-MM`, `YYYY`, or the text.
    public var isoString: String {
        if let text { return text }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func four(_ n: Int) -> String { String(repeating: "0", count: max(0, 4 - String(n).count)) + String(n) }
        switch (year, month, day) {
        case (let y?, let m?, let d?): return "\(four(y))-\(two(m))-\(two(d))"
        case (nil, let m?, let d?): return "--\(two(m))-\(two(d))"
        case (let y?, let m?, nil): return "\(four(y))-\(two(m))"
        case (let y?, nil, nil): return four(y)
        default: return ""
        }
    }
}

/// A labelled date (`ANNIVERSARY`, Apple `X-ABDATE`).
///
/// ```swift
/// LabeledDate(label: .anniversary, value: ContactDate(year: 2010, month: 6, day: 1))
/// ```
public struct LabeledDate: Sendable, Hashable {
    public var label: ContactLabel
    public var value: ContactDate

    public init(label: ContactLabel, value: ContactDate) {
        self.label = label
        self.value = value
    }
}

/// A contact's picture: embedded bytes with their media type, or a URI.
///
/// ```swift
/// if case .embedded(let data, let type)? = contact.photo { print(data.count, type ?? "?") }
/// ```
public enum ContactPhoto: Sendable, Hashable {
    /// Decoded bytes and a media type ("image/jpeg") when the card named one.
    case embedded(Data, mediaType: String?)
    /// A link (`http:`, `https:`, …).
    case uri(String)
}

/// A vCard property kept verbatim: group, upper-cased name, parameters and the value text as written
/// (unfolded, quoted-printable and charset already decoded to UTF-8, escapes untouched).
///
/// ```swift
/// VCardProperty(group: "item1", name: "X-ABADR", value: "us")
/// ```
public struct VCardProperty: Sendable, Hashable {
    public var group: String?
    public var name: String
    public var parameters: [VCardParameter]
    public var value: String

    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], value: String) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The values of parameter `name` (case-insensitive), all occurrences merged.
    public func parameter(_ name: String) -> [String] {
        let upper = name.uppercased()
        return parameters.filter { $0.name == upper }.flatMap(\.values)
    }
}

/// One parameter of a property: upper-cased name and its values (quotes and RFC 6868 escapes removed).
///
/// ```swift
/// VCardParameter(name: "TYPE", values: ["work", "voice"])   // written as TYPE=work,voice
/// ```
public struct VCardParameter: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}
