/// A length of time as an option's value: a number of seconds, or a number with `s`, `m`, `h` or `d`
/// (`90s`, `30m`, `2h`, `1d`, `0.5h`, `600`). The one duration grammar of every command (`outbox send
/// --wait`, `outbox prune --older-than`, the delivery timeouts and backoff); each option gives its own range.
///
/// ```swift
/// DurationValue("30m")?.seconds                     // 1800
/// DurationValue("2d", in: 0...86_400)               // nil: more than a day
/// DurationValue.describe(in: 0...86_400)            // "a duration such as 90s, 30m, 2h or 1d (a number alone is seconds) up to 1d"
/// ```
public struct DurationValue: Sendable, Hashable {
    /// The duration in seconds.
    public let seconds: Double

    /// The units after a number, in seconds.
    static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// `text` as a duration within `range` (seconds); nil when it is not one, or is outside it.
    public init?(_ text: String, in range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude) {
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let factor = Self.units[last] {
            number = number.dropLast()
            unit = factor
        }
        // Digits and one point only: no signs, exponents, "inf" or "nan".
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let n = Double(number)
        else { return nil }
        let seconds = n * unit
        guard seconds.isFinite, range.contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// What a value must look like, for an error: "a duration such as 90s, 30m, 2h or 1d (a number alone
    /// is seconds)", with the bounds of `range` when it has some (`from 1s`, `up to 30d`).
    public static func describe(in range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude) -> String {
        var text = "a duration such as 90s, 30m, 2h or 1d (a number alone is seconds)"
        if range.lowerBound >= 1 { text += " from \(written(range.lowerBound))" }
        if range.upperBound < Double.greatestFiniteMagnitude { text += " up to \(written(range.upperBound))" }
        return text
    }

    /// `seconds` in the largest unit that writes it whole (`86400` → `1d`).
    static func written(_ seconds: Double) -> String {
        for (unit, factor) in [("d", 86_400.0), ("h", 3600), ("m", 60)]
        where seconds >= factor && seconds.truncatingRemainder(dividingBy: factor) == 0 {
            return "\(Int(seconds / factor))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
