import Foundation
import ICUKit

/// `:number`, `:integer`, `:percent`, `:currency`, `:offset` and the draft `:unit`, on ICU's number
/// formatter (skeletons) and plural rules.
enum NumberFunctions {
    static let numeric: Set<String> = ["number", "integer", "percent", "currency", "unit"]

    static let number: MessageFunction = { call throws(MessageError) in try make(.number, &call) }
    static let integer: MessageFunction = { call throws(MessageError) in try make(.integer, &call) }
    static let percent: MessageFunction = { call throws(MessageError) in try make(.percent, &call) }
    static let unit: MessageFunction = { call throws(MessageError) in try make(.unit, &call) }

    static let currency: MessageFunction = { call throws(MessageError) in
        let inherited = call.operand?.function == "currency" ? call.operand?.options["currency"] : nil
        guard call.options["currency"] != nil || inherited != nil else {
            throw .bad(.badOperand, ":currency needs a currency option or a :currency operand")
        }
        return try make(.currency, &call)
    }

    /// `:offset add=n` / `subtract=n`: the operand's number moved by n, formatted and selected as the
    /// operand was (or as `:number`).
    static let offset: MessageFunction = { call throws(MessageError) in
        guard let operand = call.operand, let n = operand.numberValue else {
            throw .bad(.badOperand, ":offset needs a numeric operand")
        }
        let add = call.options["add"]
        let subtract = call.options["subtract"]
        guard (add == nil) != (subtract == nil) else {
            throw .bad(.badOption, ":offset needs exactly one of add and subtract")
        }
        guard let delta = (add ?? subtract)?.digitSize else {
            throw .bad(.badOption, ":offset's add or subtract must be a digit size")
        }
        let moved = NumberValue(n.decimal + Decimal(add != nil ? delta : -delta))
        if let f = operand.function, numeric.contains(f), operand.format != nil {
            var value = operand
            value.base = .number(moved)
            return value
        }
        var plain = FunctionCall(operand: ResolvedValue(base: .number(moved)), options: [:], locale: call.locale)
        return try make(.number, &plain)
    }

    static func make(_ kind: NumberOptions.Kind, _ call: inout FunctionCall) throws(MessageError) -> ResolvedValue {
        guard let operand = call.operand, var n = operand.numberValue else {
            throw .bad(.badOperand, ":\(kind.rawValue) needs a numeric operand")
        }
        let inherited = operand.function.map { numeric.contains($0) } == true ? operand.options : [:]
        let skeleton: String
        let mode: NumberOptions.SelectMode
        let inheritable: [String: ResolvedValue]
        if inherited.isEmpty, call.options.isEmpty, kind != .currency, kind != .unit {
            // The common case (`{$n :number}`): no options to check, the default skeleton.
            skeleton =
                kind == .integer
                ? "precision-integer" : kind == .percent ? "percent scale/100 precision-integer" : ".###"
            mode = .plural
            inheritable = [:]
        } else {
            let options = NumberOptions(kind: kind, inherited: inherited, call: &call)
            if kind == .unit, options.values["unit"] == nil { throw .bad(.badOption, ":unit needs a unit option") }
            skeleton = options.skeleton
            mode = options.select
            inheritable = options.inheritable
        }
        if kind == .integer {
            var rounded = Decimal()
            var source = n.decimal
            NSDecimalRound(&rounded, &source, 0, .plain)
            n = NumberValue(rounded)
        }
        let selects = kind != .currency && kind != .unit
        var value = ResolvedValue(
            base: .number(n), function: kind.rawValue, options: inheritable, locale: call.locale)
        let bodies = try ICUCache.shared.numberBodies(locale: call.locale, skeleton: skeleton)
        value.format = bodies.format
        if selects {
            let style = bodies.style
            value.select =
                mode == .plural
                ? bodies.pluralSelect
                : { value, keys, errors throws(MessageError) in
                    try select(value, keys, &errors, style: style, mode: mode)
                }
        }
        return value
    }

    /// A number formatted with the style (default: `:number`'s defaults in the value's locale).
    static func format(_ value: ResolvedValue, _ parts: Bool, style known: NumberStyle? = nil) throws(MessageError)
        -> FormattedValue
    {
        guard case .number(let n) = value.base else { throw .bad(.badOperand, "not a number") }
        let style =
            if let known, known.locale == value.locale { known } else {
                try ICUCache.shared.numberBodies(locale: value.locale, skeleton: known?.skeleton ?? ".###").style
            }
        let direction: ResolvedValue.Direction = style.isRightToLeft ? .rtl : .ltr
        do {
            if !parts {
                return FormattedValue(
                    type: "number", text: try style.formatter.format(decimal: n.text), direction: direction)
            }
            let (text, fields) = try style.formatter.formatToFields(decimal: n.text)
            return FormattedValue(
                type: "number", text: text, direction: direction, parts: subparts(text, fields))
        } catch {
            throw .bad(.functionError, "ICU could not format \(n.text): \(error)")
        }
    }

    /// Exact matches first (keys equal to the number), then the plural category's key.
    static func select(
        _ value: ResolvedValue, _ keys: [String], _ errors: inout [MessageError], style known: NumberStyle,
        mode: NumberOptions.SelectMode
    ) throws(MessageError) -> [String] {
        guard case .number(let n) = value.base else { throw .bad(.badSelector, "not a number") }
        guard mode != .invalid else { throw .bad(.badSelector, "the select option was not valid") }
        let exact = known.percent ? n.decimal * 100 : n.decimal
        var matches: [String] = []
        var hasKeywords = false
        for key in keys {
            if let first = key.utf8.first, first == 0x2D || (first >= 0x30 && first <= 0x39),
                let k = NumberValue(literal: key)
            {
                if k.decimal == exact { matches.append(key) }
            } else if PluralRules.Category(rawValue: key) != nil {
                hasKeywords = true
            } else {
                errors.append(.bad(.badVariantKey, "'\(key)' is neither a number nor a plural category"))
            }
        }
        guard mode != .exact, hasKeywords else { return matches }
        let style =
            if known.locale == value.locale { known } else {
                try ICUCache.shared.numberBodies(locale: value.locale, skeleton: known.skeleton).style
            }
        let category: PluralRules.Category
        do {
            if style.integersSelectAsIs, n.text.utf8.count < 16, let i = Int(n.text) {
                category = try style.category(ofInteger: i, ordinal: mode == .ordinal)
            } else {
                let rules = try style.rules(ordinal: mode == .ordinal)
                category = try style.formatter.pluralCategory(decimal: n.text, rules: rules)
            }
        } catch let error as MessageError {
            throw error
        } catch {
            throw .bad(.badSelector, "ICU could not select for \(n.text): \(error)")
        }
        if keys.contains(category.rawValue) { matches.append(category.rawValue) }
        return matches
    }

    /// ICU's fields as non-overlapping parts: each byte goes to the innermost field covering it.
    static func subparts(_ text: String, _ fields: [ICUNumberFormatter.Field]) -> [FormattedSubpart] {
        let bytes = Array(text.utf8)
        var owner = [Int](repeating: -1, count: bytes.count)
        for (i, f) in fields.enumerated() {
            for b in f.utf8Range where b < bytes.count {
                if owner[b] < 0 || fields[owner[b]].utf8Range.count > f.utf8Range.count { owner[b] = i }
            }
        }
        var parts: [FormattedSubpart] = []
        var start = 0
        while start < bytes.count {
            var end = start + 1
            while end < bytes.count, owner[end] == owner[start] { end += 1 }
            let piece = String(decoding: bytes[start..<end], as: UTF8.self)
            let type = owner[start] < 0 ? "literal" : fieldName(fields[owner[start]].field, piece)
            parts.append(FormattedSubpart(type: type, value: piece))
            start = end
        }
        return parts
    }

    static func fieldName(_ field: Int32, _ text: String) -> String {
        switch field {
        case 0: "integer"
        case 1: "fraction"
        case 2: "decimal"
        case 3: "exponentSeparator"
        case 4: "exponentMinusSign"
        case 5: "exponentInteger"
        case 6: "group"
        case 7: "currency"
        case 8: "percentSign"
        case 9: "permille"
        case 10: text.contains("+") ? "plusSign" : "minusSign"
        case 11: "unit"
        case 12: "compact"
        case 13: "approximatelySign"
        default: "literal"
        }
    }
}
