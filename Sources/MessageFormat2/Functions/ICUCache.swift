import ICUKit
import Synchronization

/// ICU handles shared by every formatter: number formatters by locale and skeleton, plural rules by locale
/// and kind, and the direction of each locale. Each is built once and reused from any thread.
final class ICUCache: Sendable {
    static let shared = ICUCache()

    private let numberFormatters = Mutex<[String: ICUNumberFormatter]>([:])
    private let pluralRules = Mutex<[String: PluralRules]>([:])
    private let directions = Mutex<[String: Bool]>([:])
    /// At most this many handles of each kind are kept; beyond it new ones are built for each use.
    static let limit = 4096

    func numberFormatter(locale: String, skeleton: String) throws(MessageError) -> ICUNumberFormatter {
        let key = locale + "\u{0}" + skeleton
        if let f = numberFormatters.withLock({ $0[key] }) { return f }
        do {
            let f = try ICUNumberFormatter(locale: locale, skeleton: skeleton)
            numberFormatters.withLock { if $0.count < Self.limit { $0[key] = f } }
            return f
        } catch {
            throw .bad(.badOption, "ICU cannot format numbers as '\(skeleton)': \(error)")
        }
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
