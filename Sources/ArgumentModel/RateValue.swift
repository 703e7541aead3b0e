/// A sending rate as an option's value: `N/min` (or `N/minute`, or `N` alone) and `N/hour` (or `N/h`),
/// N above 0, as messages per minute. The one rate grammar of every command that delivers (`compose`,
/// `pick`, `outbox send` `--rate`).
///
/// ```swift
/// RateValue("30/min")?.perMinute        // 30
/// RateValue("6/hour")?.perMinute        // 0.1
/// RateValue("0/min")                    // nil
/// RateValue("1/day")                    // nil
/// ```
public struct RateValue: Sendable, Hashable {
    /// Messages per minute.
    public let perMinute: Double

    /// The lowest rate a delivery takes: one message an hour.
    public static let lowestPerMinute = 1.0 / 60

    /// What a value must look like, for an error.
    public static let expected = "N/min or N/hour with N > 0"

    /// The units after a number, in minutes.
    static let units: [(suffix: String, minutes: Double)] = [("/min", 1), ("/minute", 1), ("/hour", 60), ("/h", 60)]

    /// `text` as a rate; nil when it is not one (no number above 0, or another unit). A rate below
    /// ``lowestPerMinute`` is a rate: the caller says it is too low.
    public init?(_ text: String) {
        var number = Substring(text)
        var minutes = 1.0
        if let unit = Self.units.first(where: { text.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            minutes = unit.minutes
        }
        guard let n = Double(number), n.isFinite, n > 0 else { return nil }
        perMinute = n / minutes
    }
}
