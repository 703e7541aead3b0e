/// The package's one reader of dates and date-times as people and programs write them in data.
package enum ISODate {
    /// Why a date string was not read.
    package struct Problem: Error, Equatable {
        package var message: String
    }

    /// Parses `YYYY-MM-DD` (UTC) or an RFC 3339 date-time `YYYY-MM-DD(T| )HH:MM[:SS[.fraction]]` followed by
    /// `Z` or `±HH:MM` (`±HHMM` too; no suffix is UTC) into milliseconds since 1970 and the time zone to
    /// show it in (`UTC` or `GMT-05:00`). The day must exist in its month (`2026-02-29` does not).
    package static func parse(_ s: String) -> Result<(millis: Double, timeZone: String), Problem> {
        let b = Array(s.utf8)
        func num(_ a: Int, _ n: Int) -> Int? {
            guard a + n <= b.count else { return nil }
            var v = 0
            for i in a..<a + n {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let malformed = Result<(millis: Double, timeZone: String), Problem>.failure(
            Problem(message: "not in a date form"))
        guard b.count >= 10, b[4] == 0x2D, b[7] == 0x2D, let y = num(0, 4), let m = num(5, 2), let d = num(8, 2) else {
            return malformed
        }
        guard (1...12).contains(m) else { return .failure(Problem(message: "there is no month \(m)")) }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        guard (1...monthDays).contains(d) else {
            return .failure(
                Problem(message: "day \(d) does not exist in \(s.prefix(7)) (\(monthDays) days)"))
        }
        var seconds = 0
        var fraction = 0.0
        var offset = 0
        var timeZone = "UTC"
        if b.count > 10 {
            guard b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let hh = num(11, 2), b.count > 13, b[13] == 0x3A,
                let mm = num(14, 2)
            else { return malformed }
            guard hh < 24, mm < 60 else {
                return .failure(Problem(message: "there is no time \(two(hh)):\(two(mm))"))
            }
            var rest = 16
            var ss = 0
            if b.count > 16 && b[16] == 0x3A {
                guard let sec = num(17, 2) else { return malformed }
                guard sec < 61 else { return .failure(Problem(message: "there is no second \(sec)")) }
                ss = min(sec, 59)
                rest = 19
                if rest < b.count && (b[rest] == 0x2E || b[rest] == 0x2C) {
                    var digits = rest + 1
                    var scale = 0.1
                    while digits < b.count, b[digits] >= 0x30 && b[digits] <= 0x39 {
                        fraction += Double(b[digits] - 0x30) * scale
                        scale /= 10
                        digits += 1
                    }
                    guard digits > rest + 1 else { return malformed }
                    rest = digits
                }
            }
            if rest == b.count || (rest + 1 == b.count && (b[rest] == 0x5A || b[rest] == 0x7A)) {
                // UTC
            } else if b[rest] == 0x2B || b[rest] == 0x2D {
                let sign = b[rest] == 0x2D ? -1 : 1
                guard let oh = num(rest + 1, 2) else { return malformed }
                var om: Int?
                if rest + 6 == b.count && b[rest + 3] == 0x3A {
                    om = num(rest + 4, 2)
                } else if rest + 5 == b.count {
                    om = num(rest + 3, 2)
                }
                guard let om else { return malformed }
                guard oh < 24, om < 60 else {
                    return .failure(Problem(message: "there is no offset \(two(oh)):\(two(om))"))
                }
                offset = sign * (oh * 3600 + om * 60)
                if offset != 0 {
                    timeZone = "GMT\(sign < 0 ? "-" : "+")\(two(oh)):\(two(om))"
                }
            } else {
                return malformed
            }
            seconds = hh * 3600 + mm * 60 + ss
        }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return .success(((Double(days * 86400 + seconds - offset) + fraction) * 1000, timeZone))
    }
}
