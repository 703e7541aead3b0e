import ICUKit
import Synchronization

/// ICU handles shared by every formatter: number styles by locale and skeleton, plural rules by locale and
/// kind, and the direction of each locale. Each is built once and reused from any thread.
final class ICUCache: Sendable {
    static let shared = ICUCache()

    private let numberStyles = Mutex<[StyleKey: NumberBodies]>([:])
    private let pluralRules = Mutex<[String: PluralRules]>([:])
    private let directions = Mutex<[String: Bool]>([:])
    /// At most this many handles of each kind are kept; beyond it new ones are built for each use.
    static let limit = 4096

    struct StyleKey: Hashable {
        var locale: String
        var skeleton: String
    }

    /// The formatter, rules and direction for numbers of `locale` shown as `skeleton`, with the bodies of
    /// the values made with them.
    func numberBodies(locale: String, skeleton: String) throws(MessageError) -> NumberBodies {
        let key = StyleKey(locale: locale, skeleton: skeleton)
        if let bodies = numberStyles.withLock({ $0[key] }) { return bodies }
        let formatter: ICUNumberFormatter
        do {
            formatter = try ICUNumberFormatter(locale: locale, skeleton: skeleton)
        } catch {
            throw .bad(.badOption, "ICU cannot format numbers as '\(skeleton)': \(error)")
        }
        let style = NumberStyle(
            formatter: formatter, isRightToLeft: isRightToLeft(locale),
            cardinal: try? plural(locale: locale, ordinal: false), ordinal: try? plural(locale: locale, ordinal: true))
        let bodies = NumberBodies(style: style)
        numberStyles.withLock { if $0.count < Self.limit { $0[key] = bodies } }
        return bodies
    }

    func plural(locale: String, ordinal: Bool) throws(MessageError) -> PluralRules {
        let key = (ordinal ? "o:" : "c:") + locale
        if let r = pluralRules.withLock({ $0[key] }) { return r }
        do {
            let r = try PluralRules(locale: locale, kind: ordinal ? .ordinal : .cardinal)
            pluralRules.withLock { if $0.count < Self.limit { $0[key] = r } }
            return r
        } catch {
            throw .bad(.functionError, "no plural rules for '\(locale)': \(error)")
        }
    }

    func isRightToLeft(_ locale: String) -> Bool {
        if let rtl = directions.withLock({ $0[locale] }) { return rtl }
        let rtl = ICULocale.isRightToLeft(locale)
        directions.withLock { if $0.count < Self.limit { $0[locale] = rtl } }
        return rtl
    }
}

/// Numbers of one locale shown with one ICU skeleton: the formatter, the plural rules and the direction.
final class NumberStyle: Sendable {
    let formatter: ICUNumberFormatter
    let isRightToLeft: Bool
    /// Whether the skeleton scales by 100 (`:percent`): exact keys then match the shown number.
    let percent: Bool
    let cardinal: PluralRules?
    let ordinal: PluralRules?
    /// Whether an integer keeps its plural category when shown with the skeleton (no fraction digits are
    /// added, nothing is scaled, rounded to significant digits or compacted): then the rules select it
    /// without formatting it first.
    let integersSelectAsIs: Bool
    /// The categories of the integers 0…255 once asked for (cardinal, then ordinal): index + 1 in
    /// `PluralRules.Category.allCases`, 0 when not known yet. Counts in messages are mostly small.
    private let smallIntegers = Mutex<[UInt8]>([UInt8](repeating: 0, count: 512))

    var locale: String { formatter.locale }
    var skeleton: String { formatter.skeleton }

    init(formatter: ICUNumberFormatter, isRightToLeft: Bool, cardinal: PluralRules?, ordinal: PluralRules?) {
        self.formatter = formatter
        self.isRightToLeft = isRightToLeft
        self.cardinal = cardinal
        self.ordinal = ordinal
        percent = formatter.skeleton.hasPrefix("percent")
        integersSelectAsIs = formatter.skeleton.split(separator: " ").allSatisfy { stem in
            stem == "precision-integer" || (stem.first == "." && stem.dropFirst().allSatisfy { $0 == "#" })
                || ["group-", "sign-", "integer-width/", "numbering-system/", "rounding-mode-"].contains {
                    stem.hasPrefix($0)
                }
        }
    }

    /// The plural category of the integer `i` (shown with a skeleton that keeps integers as they are).
    func category(ofInteger i: Int, ordinal: Bool) throws(MessageError) -> PluralRules.Category {
        let slot = i >= 0 && i < 256 ? i + (ordinal ? 256 : 0) : nil
        if let slot {
            let known = smallIntegers.withLock { $0[slot] }
            if known > 0 { return PluralRules.Category.allCases[Int(known) - 1] }
        }
        let category = try rules(ordinal: ordinal).category(for: i)
        if let slot, let index = PluralRules.Category.allCases.firstIndex(of: category) {
            smallIntegers.withLock { $0[slot] = UInt8(index + 1) }
        }
        return category
    }

    /// The plural rules of the kind asked for; throws when ICU had none for the locale.
    func rules(ordinal: Bool) throws(MessageError) -> PluralRules {
        if let rules = ordinal ? self.ordinal : cardinal { return rules }
        return try ICUCache.shared.plural(locale: locale, ordinal: ordinal)
    }
}

/// A number style with the format and plural-select bodies of every value made with it, built once so that
/// resolving `{$n :number}` allocates no closure.
struct NumberBodies: Sendable {
    let style: NumberStyle
    let format: ResolvedValue.FormatBody
    let pluralSelect: ResolvedValue.SelectBody

    init(style: NumberStyle) {
        self.style = style
        format = { value, parts throws(MessageError) in try NumberFunctions.format(value, parts, style: style) }
        pluralSelect = { value, keys, errors throws(MessageError) in
            try NumberFunctions.select(value, keys, &errors, style: style, mode: .plural)
        }
    }
}
