import Foundation

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
