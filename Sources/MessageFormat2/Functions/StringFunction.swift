/// `:string`: formats its operand as text and selects on the text (keys compare as canonically equivalent
/// strings, so NFC and NFD spellings match).
enum StringFunction {
    static let call: MessageFunction = { (call: inout FunctionCall) throws(MessageError) -> ResolvedValue in
        guard let operand = call.operand else { throw .bad(.badOperand, ":string needs an operand") }
        var value = ResolvedValue(
            base: .string(Resolver.plainText(operand)), function: "string", locale: call.locale, format: format,
            select: select)
        value.direction = operand.direction
        value.id = operand.id
        return value
    }

    static let format: ResolvedValue.FormatBody = { value, _ in
        FormattedValue(type: "string", text: Resolver.plainText(value), direction: .auto)
    }

    static let select: ResolvedValue.SelectBody = { value, keys, _ in
        let text = Resolver.plainText(value)
        return keys.filter { $0 == text }
    }
}

/// How values that no function formatted are shown: strings as they are, numbers and dates as `:number`
/// and `:datetime` show them by default.
enum DefaultFormat {
    static let format: ResolvedValue.FormatBody = { value, parts throws(MessageError) in
        switch value.base {
        case .number:
            return try NumberFunctions.format(value, parts)
        case .date:
            return try DateTimeFunctions.format(value, parts)
        default:
            return FormattedValue(type: "string", text: Resolver.plainText(value), direction: .auto)
        }
    }
}
