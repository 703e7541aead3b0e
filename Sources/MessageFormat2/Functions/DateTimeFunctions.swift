import Foundation
import ICUKit

/// The draft `:date`, `:time` and `:datetime`: ISO 8601 text or dates, formatted by ICU from a skeleton
/// made of the length and precision options. They format only; they do not select.
enum DateTimeFunctions {
    static let date: MessageFunction = { call throws(MessageError) in
        try make(&call, function: "date", dateOption: "length", timeOption: nil, defaults: ("medium", nil))
    }
    static let time: MessageFunction = { call throws(MessageError) in
        try make(&call, function: "time", dateOption: nil, timeOption: "precision", defaults: (nil, "minute"))
    }
    static let datetime: MessageFunction = { call throws(MessageError) in
        try make(
            &call, function: "datetime", dateOption: "dateLength", timeOption: "timePrecision",
            defaults: ("medium", "minute"))
    }

    static let dateSkeletons = ["full": "yMMMMEEEEd", "long": "yMMMMd", "medium": "yMMMd", "short": "yMd"]
    static let timeSkeletons = ["hour": "j", "minute": "jmm", "second": "jmmss"]

    static func make(
        _ call: inout FunctionCall, function: String, dateOption: String?, timeOption: String?,
        defaults: (date: String?, time: String?)
    ) throws(MessageError) -> ResolvedValue {
        guard let operand = call.operand else { throw .bad(.badOperand, ":\(function) needs an operand") }
        let moment: DateTimeValue
        switch operand.base {
        case .date(let d): moment = d
        case .string(let s):
            guard let d = DateTimeValue(iso: s) else { throw .bad(.badOperand, "'\(s)' is not an ISO 8601 date") }
            moment = d
        default: throw .bad(.badOperand, ":\(function) needs a date or ISO 8601 text")
        }
        var skeleton = ""
        var options: [String: ResolvedValue] = [:]
        if let dateOption {
            var length = defaults.date!
            if let given = call.options[dateOption]?.stringValue ?? call.options["dateStyle"]?.stringValue {
                if dateSkeletons[given] != nil { length = given } else { call.report(.badOption, "\(dateOption)") }
            }
            options[dateOption] = ResolvedValue(string: length)
            skeleton += dateSkeletons[length]!
        }
        if let timeOption {
            var precision = defaults.time!
            if let given = call.options[timeOption]?.stringValue {
                if timeSkeletons[given] != nil { precision = given } else { call.report(.badOption, "\(timeOption)") }
            }
            options[timeOption] = ResolvedValue(string: precision)
            skeleton += timeSkeletons[precision]!
        }
        var zone = moment.timeZone ?? "UTC"
        if let given = call.options["timeZone"]?.stringValue {
            zone = given
            options["timeZone"] = ResolvedValue(string: given)
        }
        let pattern = skeleton
        let shownIn = zone
        return ResolvedValue(
            base: .date(moment), function: function, options: options, locale: call.locale,
            format: { value, _ throws(MessageError) in try format(value, false, skeleton: pattern, zone: shownIn) })
    }

    /// A date formatted with the skeleton (default: medium date and minutes).
    static func format(_ value: ResolvedValue, _ parts: Bool, skeleton: String = "yMMMdjmm", zone: String? = nil)
        throws(MessageError) -> FormattedValue
    {
        guard case .date(let d) = value.base else { throw .bad(.badOperand, "not a date") }
        do {
            let text = try ICUFormat.date(
                millisecondsSince1970: d.millisecondsSince1970, locale: value.locale,
                timeZone: zone ?? d.timeZone ?? "UTC", skeleton: skeleton)
            let direction: ResolvedValue.Direction = ICUCache.shared.isRightToLeft(value.locale) ? .rtl : .ltr
            return FormattedValue(type: "datetime", text: text, direction: direction)
        } catch {
            throw .bad(.functionError, "ICU could not format the date: \(error)")
        }
    }
}

extension DateTimeValue {
    /// Reads ISO 8601 text: `YYYY-MM-DD`, optionally `Thh:mm[:ss[.fff]]` and `Z` or `±hh:mm`. Without a zone
    /// the time is floating (shown as written).
    public init?(iso text: String) {
        let u = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= u.count else { return nil }
            var n = 0
            for b in u[from..<from + count] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        guard u.count >= 10, u[4] == 0x2D, u[7] == 0x2D, let y = number(0, 4), let m = number(5, 2),
            let d = number(8, 2), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        var seconds = 0.0
        var i = 10
        var zone: String?
        if i < u.count, u[i] == 0x54 {
            guard let h = number(11, 2), u.count > 13, u[13] == 0x3A, let mi = number(14, 2), h < 24, mi < 60 else {
                return nil
            }
            seconds = Double(h * 3600 + mi * 60)
            i = 16
            if i < u.count, u[i] == 0x3A {
                guard let s = number(17, 2), s < 61 else { return nil }
                seconds += Double(s)
                i = 19
                if i < u.count, u[i] == 0x2E {
                    i += 1
                    var scale = 0.1
                    while i < u.count, u[i] >= 0x30, u[i] <= 0x39 {
                        seconds += Double(u[i] - 0x30) * scale
                        scale /= 10
                        i += 1
                    }
                }
            }
            if i < u.count, u[i] == 0x5A {
                zone = "UTC"
                i += 1
            } else if i < u.count, u[i] == 0x2B || u[i] == 0x2D, let oh = number(i + 1, 2), u.count > i + 3,
                u[i + 3] == 0x3A, let om = number(i + 4, 2)
            {
                let sign = u[i] == 0x2B ? 1.0 : -1.0
                seconds -= sign * Double(oh * 3600 + om * 60)
                zone = String(format: "GMT%@%02d:%02d", u[i] == 0x2B ? "+" : "-", oh, om)
                i += 6
            }
        }
        guard i == u.count else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        self.init(millisecondsSince1970: (Double(days) * 86400 + seconds) * 1000, timeZone: zone)
    }
}
