import Foundation

/// The test suite's `:test:function`, `:test:select` and `:test:format` (its README defines them): a number
/// shown with 0 or 1 decimal places, which can be told to fail when formatting or selecting.
enum TestFunctions {
    struct State: Sendable {
        var input: Decimal
        var decimalPlaces: Int
        var failsFormat: Bool
        var failsSelect: Bool
    }

    static func make(formats: Bool, selects: Bool) -> MessageFunction {
        { call throws(MessageError) in
            var state = State(input: 0, decimalPlaces: 0, failsFormat: false, failsSelect: false)
            guard let operand = call.operand else { throw .bad(.badOperand, "test functions need an operand") }
            if case .other(let previous as State) = operand.base {
                state = previous
            } else if let n = operand.numberValue {
                state.input = n.decimal
            } else {
                throw .bad(.badOperand, "test functions need a number")
            }
            if let places = call.options["decimalPlaces"] {
                guard let n = places.digitSize, n <= 1 else {
                    throw .bad(.badOption, "decimalPlaces is 0 or 1")
                }
                state.decimalPlaces = n
            }
            if let fails = call.options["fails"] {
                switch fails.stringValue {
                case "always":
                    state.failsFormat = true
                    state.failsSelect = true
                case "format": state.failsFormat = true
                case "select": state.failsSelect = true
                case "never": break
                default: call.report(.badOption, "fails is never, select, format or always")
                }
            }
            let name = formats ? (selects ? "test:function" : "test:format") : "test:select"
            return ResolvedValue(
                base: .other(state), function: name, locale: call.locale,
                format: formats
                    ? format
                    : { _, _ throws(MessageError) in
                        throw .bad(.notFormattable, ":test:select does not format")
                    }, select: selects ? select : nil)
        }
    }

    static let format: ResolvedValue.FormatBody = { value, _ throws(MessageError) in
        guard case .other(let state as State) = value.base else { throw .bad(.badOperand, "not a test value") }
        if state.failsFormat { throw .bad(.badOption, "told to fail when formatting") }
        var parts: [FormattedSubpart] = []
        var magnitude = state.input
        if magnitude < 0 {
            parts.append(FormattedSubpart(type: "minusSign", value: "-"))
            magnitude = -magnitude
        }
        var whole = Decimal()
        NSDecimalRound(&whole, &magnitude, 0, .down)
        parts.append(FormattedSubpart(type: "integer", value: whole.description))
        if state.decimalPlaces == 1 {
            var tenths = (magnitude - whole) * 10
            var digit = Decimal()
            NSDecimalRound(&digit, &tenths, 0, .down)
            parts.append(FormattedSubpart(type: "decimal", value: "."))
            parts.append(FormattedSubpart(type: "fraction", value: digit.description))
        }
        return FormattedValue(
            type: "test", text: parts.map(\.value).joined(), direction: .ltr, parts: parts)
    }

    static let select: ResolvedValue.SelectBody = { value, keys, _ throws(MessageError) in
        guard case .other(let state as State) = value.base else { throw .bad(.badSelector, "not a test value") }
        if state.failsSelect { throw .bad(.badOption, "told to fail when selecting") }
        guard state.input == 1 else { return [] }
        let matching = state.decimalPlaces == 1 ? ["1.0", "1"] : ["1"]
        return matching.filter { keys.contains($0) }
    }
}
