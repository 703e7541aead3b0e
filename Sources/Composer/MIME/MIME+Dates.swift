import Foundation

// Date (RFC 5322 3.3), UTC
extension MIME {
    static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func appendDate(_ date: Date, to out: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86_400
        var rem = seconds % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        let weekday = Int(((days % 7) + 7) % 7)
        // civil_from_days (H. Hinnant)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        func two(_ v: Int64) {
            out.append(UInt8(48 + v / 10))
            out.append(UInt8(48 + v % 10))
        }
        out.append(contentsOf: dayNames[weekday].utf8)
        out.append(contentsOf: ", ".utf8)
        two(day)
        out.append(0x20)
        out.append(contentsOf: monthNames[Int(month) - 1].utf8)
        out.append(0x20)
        if year >= 1000 && year <= 9999 {
            two(year / 100)
            two(year % 100)
        } else {
            out.append(contentsOf: String(year).utf8)
        }
        out.append(0x20)
        two(rem / 3600)
        out.append(UInt8(ascii: ":"))
        two((rem % 3600) / 60)
        out.append(UInt8(ascii: ":"))
        two(rem % 60)
        out.append(contentsOf: " +0000".utf8)
    }
}
