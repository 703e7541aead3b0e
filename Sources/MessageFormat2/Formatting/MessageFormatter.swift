import ICUKit

/// A MessageFormat 2 message ready to format: parsed, validated, with its locale and functions.
///
/// ```swift
/// let f = try MessageFormatter(
///     ".input {$n :number} .match $n one {{{$n} file}} * {{{$n} files}}", locale: "en")
/// f.format(["n": 3]).text   // "3 files"
/// ```
public struct MessageFormatter: Sendable {
    public let message: Message
    public let locale: String
    public var bidiIsolation: BidiStrategy
    public var functions: FunctionRegistry
    let declarationIndex: [String: Int]
    let isRightToLeft: Bool
    /// Per selector, the distinct literal keys of its column in variant order: what its function is asked.
    let selectorKeys: [[String]]

    /// Parses and validates `source`; throws its syntax or data-model error.
    public init(
        _ source: String, locale: String, bidiIsolation: BidiStrategy = .default,
        functions: FunctionRegistry = .standard
    ) throws(MessageError) {
        try self.init(
            message: try Message(parsing: source), locale: locale, bidiIsolation: bidiIsolation, functions: functions)
    }

    /// Validates a message built or parsed before; throws its data-model error.
    public init(
        message: Message, locale: String, bidiIsolation: BidiStrategy = .default,
        functions: FunctionRegistry = .standard
    ) throws(MessageError) {
        try message.validate()
        self.message = message
        self.locale = locale
        self.bidiIsolation = bidiIsolation
        self.functions = functions
        var index: [String: Int] = [:]
        for (i, d) in message.declarations.enumerated() { index[d.name] = i }
        declarationIndex = index
        isRightToLeft = ICULocale.isRightToLeft(locale)
        var keys: [[String]] = []
        if case .match(let selectors, let variants) = message.body {
            for i in selectors.indices {
                var column: [String] = []
                var seen = Set<String>()
                for variant in variants {
                    if case .literal(let l) = variant.keys[i], seen.insert(l.value).inserted { column.append(l.value) }
                }
                keys.append(column)
            }
        }
        selectorKeys = keys
    }

    /// Formats the message to a string; placeholders that fail show their fallback (`{$name}`) and their
    /// errors are returned beside the text.
    public func format(_ arguments: [String: MessageArgument] = [:]) -> FormatResult {
        var resolver = Resolver(formatter: self, arguments: arguments)
        let pattern = selectPattern(&resolver)
        var text = ""
        for element in pattern.elements {
            switch element {
            case .text(let s): text += s
            case .markup(let m): _ = resolver.resolveMarkup(m)
            case .expression(let e):
                let (placeholder, isolation) = formatPlaceholderText(e, &resolver)
                if let isolation { text += isolation }
                text += placeholder
                if isolation != nil { text += "\u{2069}" }
            }
        }
        return FormatResult(text: text, errors: resolver.errors)
    }

    /// Formats the message to parts: text, markup, formatted placeholders (with their own parts, such as a
    /// number's integer and fraction), bidi isolation marks and fallbacks.
    public func formatToParts(_ arguments: [String: MessageArgument] = [:]) -> PartsResult {
        var resolver = Resolver(formatter: self, arguments: arguments)
        let pattern = selectPattern(&resolver)
        var parts: [MessagePart] = []
        for element in pattern.elements {
            switch element {
            case .text(let s): parts.append(.text(s))
            case .markup(let m): parts.append(resolver.resolveMarkup(m))
            case .expression(let e):
                let (part, isolation) = formatPlaceholder(e, parts: true, &resolver)
                if let isolation { parts.append(.bidiIsolation(isolation)) }
                parts.append(part)
                if isolation != nil { parts.append(.bidiIsolation("\u{2069}")) }
            }
        }
        return PartsResult(parts: parts, errors: resolver.errors)
    }

    /// One placeholder: its formatted value or its fallback, and the bidi isolation mark that opens it (U+2069
    /// closes it) when the strategy isolates it.
    func formatPlaceholder(_ expression: Expression, parts: Bool, _ resolver: inout Resolver) -> (
        part: MessagePart, isolation: String?
    ) {
        let value = resolver.resolveExpression(expression)
        let part: MessagePart
        var direction = ResolvedValue.Direction.auto
        if case .fallback(let fallbackSource) = value.base {
            part = .fallback(source: expression.function == nil ? fallbackSource : Resolver.source(of: expression))
        } else {
            do {
                let formatted = try (value.format ?? DefaultFormat.format)(value, parts)
                let explicit = value.direction == .auto ? nil : value.direction
                part = .expression(
                    ExpressionPart(value: formatted, locale: value.locale, direction: explicit, id: value.id))
                direction = value.direction ?? formatted.direction
            } catch {
                resolver.errors.append(error)
                part = .fallback(source: Resolver.source(of: expression))
            }
        }
        return (part, isolation(direction, explicit: value.direction != nil))
    }

    /// `formatPlaceholder(_:parts:_:)` for a string: the placeholder's text without making it a part.
    func formatPlaceholderText(_ expression: Expression, _ resolver: inout Resolver) -> (
        text: String, isolation: String?
    ) {
        let value = resolver.resolveExpression(expression)
        var direction = ResolvedValue.Direction.auto
        let text: String
        if case .fallback(let fallbackSource) = value.base {
            text = "{" + (expression.function == nil ? fallbackSource : Resolver.source(of: expression)) + "}"
        } else {
            do {
                let formatted = try (value.format ?? DefaultFormat.format)(value, false)
                text = formatted.text
                direction = value.direction ?? formatted.direction
            } catch {
                resolver.errors.append(error)
                text = "{" + Resolver.source(of: expression) + "}"
            }
        }
        return (text, isolation(direction, explicit: value.direction != nil))
    }

    /// The mark that opens a placeholder's isolation, or nil when the strategy leaves it as it is.
    func isolation(_ direction: ResolvedValue.Direction, explicit: Bool) -> String? {
        guard bidiIsolation == .default else { return nil }
        switch direction {
        case .ltr where !isRightToLeft && !explicit: return nil
        case .ltr: return "\u{2066}"
        case .rtl: return "\u{2067}"
        case .auto: return "\u{2068}"
        }
    }

    /// The pattern to format: the message's, or the best variant for its selectors.
    func selectPattern(_ resolver: inout Resolver) -> Pattern {
        switch message.body {
        case .pattern(let pattern): return pattern
        case .match(let selectors, let variants):
            var matches: [[String]?] = []
            matches.reserveCapacity(selectors.count)
            for (i, selector) in selectors.enumerated() {
                let value = resolver.resolveVariable(selector.name)
                guard let select = value.select else {
                    resolver.errors.append(.bad(.badSelector, "$\(selector.name) cannot select"))
                    matches.append(nil)
                    continue
                }
                do {
                    matches.append(try select(value, selectorKeys[i], &resolver.errors))
                } catch {
                    resolver.errors.append(.bad(.badSelector, "$\(selector.name): \(error)"))
                    matches.append(nil)
                }
            }
            // The best variant: the lowest rank in the first column, then the next… (`*` ranks last).
            var best: (ranks: [Int], index: Int)?
            var ranks: [Int] = []
            ranks.reserveCapacity(selectors.count)
            for (index, variant) in variants.enumerated() {
                ranks.removeAll(keepingCapacity: true)
                var fits = true
                for (i, key) in variant.keys.enumerated() {
                    guard case .literal(let l) = key else {
                        ranks.append(Int.max)
                        continue
                    }
                    guard let rank = matches[i]?.firstIndex(of: l.value) else {
                        fits = false
                        break
                    }
                    ranks.append(rank)
                }
                if fits, best == nil || ranks.lexicographicallyPrecedes(best!.ranks) { best = (ranks, index) }
            }
            return best.map { variants[$0.index].pattern } ?? Pattern([])
        }
    }
}
