/// The parts of a person's name, as a contact card stores them.
public struct PersonName: Sendable, Hashable {
    public var prefix: String
    public var given: String
    public var middle: String
    public var family: String
    public var suffix: String

    public init(prefix: String = "", given: String = "", middle: String = "", family: String = "", suffix: String = "")
    {
        self.prefix = prefix
        self.given = given
        self.middle = middle
        self.family = family
        self.suffix = suffix
    }

    /// True when every part is empty or whitespace.
    public var isEmpty: Bool {
        Self.isBlank(prefix) && Self.isBlank(given) && Self.isBlank(middle) && Self.isBlank(family)
            && Self.isBlank(suffix)
    }

    static func isBlank(_ s: String) -> Bool {
        // Fast path: a first byte that is ASCII and not whitespace starts a character that is not blank.
        if let b = s.utf8.first, isNonSpaceASCII(b) { return false }
        return s.allSatisfy(\.isWhitespace)
    }
}

/// Whether a name is written given-first ("Anna Berg") or family-first ("山田太郎", "Nagy Péter").
///
/// The order is a property of the name, not of whoever reads it: its script (Han, kana and Hangul names
/// are family-first) and, for names in other scripts, the contact's language (vCard `LANG`: Hungarian and
/// Vietnamese names are family-first in Latin script too). An English "John Smith" reads "John Smith" in a
/// Hungarian list; a Hungarian "Nagy Péter" reads "Nagy Péter" in an English one.
///
/// ```swift
/// NameOrder.display(for: "hu")                                                  // .familyFirst
/// NameOrder.format(PersonName(given: "太郎", family: "山田"))                      // "山田太郎" (CJK script)
/// NameOrder.format(PersonName(given: "Anna", family: "Berg"))                     // "Anna Berg"
/// NameOrder.format(PersonName(given: "Péter", family: "Nagy"), language: "hu")    // "Nagy Péter"
/// NameOrder.format(PersonName(given: "An", middle: "Văn", family: "Nguyễn"), language: "vi")  // "Nguyễn Văn An"
/// ```
public enum NameOrder: String, Sendable, CaseIterable {
    case givenFirst
    case familyFirst

    /// Languages whose names are shown family-first.
    static let familyFirstLanguages: Set<String> = ["zh", "ja", "ko", "hu", "vi", "mn", "km", "yue", "wuu"]

    static let cjkLanguages: Set<String> = ["zh", "ja", "ko", "yue", "wuu"]

    /// Family-first languages that write the middle name between family and given name (Vietnamese
    /// "Nguyễn Văn An": family, middle, given); the others put it after the given name ("Kovács János Péter").
    static let middleBeforeGivenLanguages: Set<String> = ["vi"]

    /// The display order of names in a locale's own script.
    public static func display(for locale: String) -> NameOrder {
        familyFirstLanguages.contains(language(of: locale)) ? .familyFirst : .givenFirst
    }

    /// The order of `name` itself: family-first for Han, kana and Hangul names; for names in other scripts
    /// the order of their `language` (the contact's `LANG`, e.g. "hu", "vi"), given-first without one. A
    /// CJK language does not turn a Latin-script name ("John Smith") around.
    public static func order(of name: PersonName, language: String? = nil) -> NameOrder {
        if isCJKName(name) { return .familyFirst }
        guard let language = language.map(Self.language(of:)), !cjkLanguages.contains(language) else {
            return .givenFirst
        }
        return familyFirstLanguages.contains(language) ? .familyFirst : .givenFirst
    }

    /// The contact's name as it is written, the same for every reader: CJK-script names family-first
    /// without a space; other names in ``order(of:language:)``, with single spaces; empty parts never
    /// leave a stray space.
    public static func format(_ name: PersonName, language: String? = nil) -> String {
        let given = trimmed(name.given)
        let family = trimmed(name.family)
        let middle = trimmed(name.middle)
        let prefix = trimmed(name.prefix)
        let suffix = trimmed(name.suffix)
        if isCJKName(name) {
            return join([prefix, family + middle + given, suffix])
        }
        switch order(of: name, language: language) {
        case .givenFirst: return join([prefix, given, middle, family, suffix])
        case .familyFirst:
            if let language, middleBeforeGivenLanguages.contains(Self.language(of: language)) {
                return join([prefix, family, middle, given, suffix])
            }
            return join([prefix, family, given, middle, suffix])
        }
    }

    /// True when a name is Japanese, so that its Han characters are never read as Mandarin (its kana
    /// reading is what a search matches): the contact's `language` is Japanese, or — without a Chinese or
    /// Korean language — one of its name `texts` (name parts, readings, `FN`) has kana.
    ///
    /// ```swift
    /// NameOrder.isJapanese(["渡辺", "大輔"], language: "ja")        // true
    /// NameOrder.isJapanese(["山田", "やまだ"], language: nil)         // true (kana)
    /// NameOrder.isJapanese(["王", "伟"], language: "zh-Hans")       // false
    /// ```
    public static func isJapanese(_ texts: [String], language: String?) -> Bool {
        if let language = language.map(Self.language(of:)) {
            if language == "ja" { return true }
            if cjkLanguages.contains(language) { return false }
        }
        return texts.contains { text in
            text.unicodeScalars.contains {
                (0x3041...0x30FF).contains($0.value) || (0x31F0...0x31FF).contains($0.value)
                    || (0xFF66...0xFF9F).contains($0.value)
            }
        }
    }

    /// True when the name is written in a CJK script (its family name, else its given name).
    static func isCJKName(_ name: PersonName) -> Bool {
        let family = trimmed(name.family)
        return isCJK(family) || (family.isEmpty && isCJK(trimmed(name.given)))
    }

    /// The string a list sorted "by family name" or "by given name" compares (like the
    /// sort order setting of Apple's Contacts, `CNContactsUserDefaults.sortOrder`); falls back to the other part when one is empty.
    public static func sortString(_ name: PersonName, by sortOrder: NameSortOrder) -> String {
        let given = trimmed(name.given)
        let family = trimmed(name.family)
        let middle = trimmed(name.middle)
        switch sortOrder {
        case .givenName: return join([given, middle, family])
        case .familyName: return join([family, given, middle])
        }
    }

    static func language(of locale: String) -> String {
        // Fast path: an ASCII lowercase language subtag ("en", "zh-Hans") is taken as it is.
        var stop = locale.utf8.startIndex
        while stop < locale.utf8.endIndex, (0x61...0x7A).contains(locale.utf8[stop]) {
            stop = locale.utf8.index(after: stop)
        }
        if stop == locale.utf8.endIndex || locale.utf8[stop] == 0x2D || locale.utf8[stop] == 0x5F {
            return String(locale[..<stop])
        }
        let lower = locale.lowercased()
        let end = lower.firstIndex(where: { $0 == "-" || $0 == "_" }) ?? lower.endIndex
        return String(lower[..<end])
    }

    /// `s` without leading and trailing whitespace (Unicode White_Space, newlines included).
    public static func trimmed(_ s: String) -> String {
        // Fast path: first and last bytes ASCII and not whitespace (an ASCII scalar never extends a
        // character, so those are the first and last characters).
        let utf8 = s.utf8
        guard let first = utf8.first, let last = utf8.last else { return s }
        if isNonSpaceASCII(first) && isNonSpaceASCII(last) { return s }
        // Otherwise nothing to trim is still the usual case ("Zoë"): no new string then.
        if let f = s.first, let l = s.last, !f.isWhitespace, !l.isWhitespace { return s }
        var scalars = Substring(s)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    static func join(_ parts: [String]) -> String {
        var out = ""
        for part in parts where !part.isEmpty {
            if !out.isEmpty { out += " " }
            out += part
        }
        return out
    }

    /// True when the text's first letter is Han, Hiragana, Katakana or Hangul.
    public static func isCJK(_ text: String) -> Bool {
        // Fast path: the first byte is an ASCII letter.
        if let b = text.utf8.first, (0x61...0x7A).contains(b | 0x20) { return false }
        guard let scalar = text.unicodeScalars.first(where: { $0.properties.isAlphabetic }) else { return false }
        switch scalar.value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            return true
        default: return false
        }
    }
}

/// Which name part a sorted list compares first.
public enum NameSortOrder: String, Sendable, CaseIterable {
    case givenName
    case familyName
}

/// An ASCII byte that is not whitespace: a character that starts (or ends) with it is not whitespace.
func isNonSpaceASCII(_ b: UInt8) -> Bool { b < 0x80 && b != 0x20 && !(0x09...0x0D).contains(b) }
