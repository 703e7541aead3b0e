import Foundation
import ICUKit
internal import Support

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
    /// Reads `YYYY-MM-DD` or an RFC 3339 date-time (`2006-01-02T15:04:06`, `…Z`, `…-05:00`) with the
    /// package's one date reader; nil when the text is not a date or names a day that does not exist.
    public init?(iso text: String) {
        guard let (millis, zone) = try? ISODate.parse(text).get() else { return nil }
        self.init(millisecondsSince1970: millis, timeZone: zone)
    }
}
