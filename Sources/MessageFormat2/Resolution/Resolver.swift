/// One formatting run of a message: resolves variables once each (lazily, so unused declarations cost
/// nothing and report nothing), expressions, options and selectors, and collects the errors.
struct Resolver {
    let message: Message
    let declarationIndex: [String: Int]
    let functions: FunctionRegistry
    let locale: String
    let arguments: [String: MessageArgument]
    /// Variables resolved so far, names beside values (a message has few variables: a search beats hashing).
    var cachedNames: [String] = []
    var cachedValues: [ResolvedValue] = []
    var errors: [MessageError] = []

    init(formatter: MessageFormatter, arguments: [String: MessageArgument]) {
        message = formatter.message
        declarationIndex = formatter.declarationIndex
        functions = formatter.functions
        locale = formatter.locale
        self.arguments = arguments
    }

    // MARK: Variables

    mutating func resolveVariable(_ name: String) -> ResolvedValue {
        if let i = cachedNames.firstIndex(of: name) { return cachedValues[i] }
        var value: ResolvedValue
        if let i = declarationIndex[name] {
            let declaration = message.declarations[i]
            var isInput = false
            if case .input = declaration { isInput = true }
            value = resolveExpression(declaration.expression, operandFromArguments: isInput)
            if value.isFallback { value.base = .fallback("$" + name) }
        } else {
            value = argument(name)
        }
        if cachedNames.isEmpty {
            cachedNames.reserveCapacity(4)
            cachedValues.reserveCapacity(4)
        }
        cachedNames.append(name)
        cachedValues.append(value)
        return value
    }

    mutating func argument(_ name: String) -> ResolvedValue {
        guard let argument = arguments[name] else {
            errors.append(.bad(.unresolvedVariable, "no value for $\(name)"))
            return ResolvedValue(base: .fallback("$" + name), locale: locale)
        }
        return argument.resolved(locale: locale)
    }

    // MARK: Expressions

    /// The value of an expression (a fallback value when it fails).
    mutating func resolveExpression(_ expression: Expression, operandFromArguments: Bool = false) -> ResolvedValue {
        var operand: ResolvedValue?
        switch expression.operand {
        case .literal(let literal):
            operand = ResolvedValue(base: .string(literal.value), locale: locale)
        case .variable(let variable):
            operand = operandFromArguments ? argument(variable.name) : resolveVariable(variable.name)
        case nil:
            break
        }
        guard let function = expression.function else {
            return operand ?? ResolvedValue(base: .fallback(Self.source(of: expression)), locale: locale)
        }
        guard let body = functions[function.name.description] else {
            errors.append(.bad(.unknownFunction, "unknown function :\(function.name)"))
            return ResolvedValue(base: .fallback(Self.source(of: expression)), locale: locale)
        }
        var options: [String: ResolvedValue] = [:]
        var literalOptions = Set<String>()
        var direction: ResolvedValue.Direction?
        var id: String?
        var callLocale = locale
        for option in function.options {
            let name = option.name.description
            guard let value = resolveOption(option) else { continue }
            if option.name.namespace == "u" {
                switch option.name.name {
                case "id": id = value.stringValue
                case "dir":
                    switch value.stringValue {
                    case "ltr": direction = .ltr
                    case "rtl": direction = .rtl
                    case "auto": direction = .auto
                    case "inherit": direction = nil
                    default: errors.append(.bad(.badOption, "u:dir is ltr, rtl, auto or inherit"))
                    }
                case "locale":
                    if let tag = value.stringValue, Self.isLocaleTag(tag) {
                        callLocale = tag
                    } else {
                        errors.append(.bad(.badOption, "u:locale is not a BCP 47 language tag"))
                    }
                default: break
                }
                continue
            }
            if case .literal = option.value { literalOptions.insert(name) }
            options[name] = value
        }
        var call = FunctionCall(operand: operand, options: options, literalOptions: literalOptions, locale: callLocale)
        do {
            var value = try body(&call)
            if !call.errors.isEmpty { errors += call.errors }
            if value.locale == "und" { value.locale = callLocale }
            if direction != nil { value.direction = direction }
            if id != nil { value.id = id }
            return value
        } catch {
            errors += call.errors
            errors.append(error)
            return ResolvedValue(base: .fallback(Self.source(of: expression)), locale: locale)
        }
    }

    /// An expression's fallback source: `$name` for a variable, `|literal|` for a literal, `:fn` for a
    /// function alone.
    static func source(of expression: Expression) -> String {
        switch expression.operand {
        case .literal(let literal): quoted(literal.value)
        case .variable(let variable): "$" + variable.name
        case nil: ":" + (expression.function?.name.description ?? "")
        }
    }

    /// An option's value, or nil when its variable does not resolve (the option is then left out).
    mutating func resolveOption(_ option: Option) -> ResolvedValue? {
        switch option.value {
        case .literal(let literal): return ResolvedValue(base: .string(literal.value), locale: locale)
        case .variable(let variable):
            let value = resolveVariable(variable.name)
            return value.isFallback ? nil : value
        }
    }

    /// Markup options as text, its `u:id`, and errors for `u:dir` and `u:locale`, which markup does not take.
    mutating func resolveMarkup(_ markup: Markup) -> MessagePart {
        var options: [String: String] = [:]
        var id: String?
        for option in markup.options {
            guard let value = resolveOption(option) else { continue }
            let text = value.stringValue ?? Self.plainText(value)
            if option.name.namespace == "u" {
                switch option.name.name {
                case "id": id = text
                case "dir", "locale": errors.append(.bad(.badOption, "markup takes no u:\(option.name.name)"))
                default: break
                }
                continue
            }
            options[option.name.description] = text
        }
        return .markup(kind: markup.kind, name: markup.name.description, id: id, options: options)
    }

    static func plainText(_ value: ResolvedValue) -> String {
        switch value.base {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        case .date(let d): String(d.millisecondsSince1970)
        case .other(let o): String(describing: o)
        case .fallback(let s): "{\(s)}"
        }
    }

    /// `|value|` with `\` and `|` escaped: a literal's fallback source.
    static func quoted(_ value: String) -> String {
        var out = "|"
        for c in value.unicodeScalars {
            if c == "\\" || c == "|" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out + "|"
    }

    /// A well-formed BCP 47 tag shape: alphanumeric subtags of 1–8 characters, the first 2–8 letters.
    static func isLocaleTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
