import Foundation

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

    /// Whether a phone with this label can receive a text message: every label but fax and pager (the
    /// package's one rule for "textable", used by the list, the value chooser, the picker and campaigns).
    ///
    /// ```swift
    /// ContactLabel.workFax.receivesTextMessages   // false
    /// ContactLabel.mobile.receivesTextMessages    // true
    /// ```
    public var receivesTextMessages: Bool {
        switch self {
        case .homeFax, .workFax, .otherFax, .pager: return false
        default: return true
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
