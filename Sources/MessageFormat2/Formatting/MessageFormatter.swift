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
                for part in formatPlaceholder(e, parts: false, &resolver) { text += part.text }
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
            case .expression(let e): parts += formatPlaceholder(e, parts: true, &resolver)
            }
        }
        return PartsResult(parts: parts, errors: resolver.errors)
    }

    /// One placeholder: its formatted value (isolated as the strategy says) or its fallback.
    func formatPlaceholder(_ expression: Expression, parts: Bool, _ resolver: inout Resolver) -> [MessagePart] {
        let (value, source) = resolver.resolveExpression(expression)
        let part: MessagePart
        var direction = ResolvedValue.Direction.auto
        if case .fallback(let fallbackSource) = value.base {
            part = .fallback(source: expression.function == nil ? fallbackSource : source)
        } else {
            do {
                let formatted = try (value.format ?? DefaultFormat.format)(value, parts)
                let explicit = value.direction == .auto ? nil : value.direction
                part = .expression(
                    ExpressionPart(value: formatted, locale: value.locale, direction: explicit, id: value.id))
                direction = value.direction ?? formatted.direction
            } catch {
                resolver.errors.append(error)
                part = .fallback(source: source)
            }
        }
        guard bidiIsolation == .default else { return [part] }
        let isolate = value.direction != nil
        switch direction {
        case .ltr where !isRightToLeft && !isolate: return [part]
        case .ltr: return [.bidiIsolation("\u{2066}"), part, .bidiIsolation("\u{2069}")]
        case .rtl: return [.bidiIsolation("\u{2067}"), part, .bidiIsolation("\u{2069}")]
        case .auto: return [.bidiIsolation("\u{2068}"), part, .bidiIsolation("\u{2069}")]
        }
    }

    /// The pattern to format: the message's, or the best variant for its selectors.
    func selectPattern(_ resolver: inout Resolver) -> Pattern {
        switch message.body {
        case .pattern(let pattern): return pattern
        case .match(let selectors, let variants):
            var matches: [[String]?] = []
            for (i, selector) in selectors.enumerated() {
                let value = resolver.resolveVariable(selector.name)
                guard let select = value.select else {
                    resolver.errors.append(.bad(.badSelector, "$\(selector.name) cannot select"))
                    matches.append(nil)
                    continue
                }
                var keys: [String] = []
                var seen = Set<String>()
                for variant in variants {
                    if case .literal(let l) = variant.keys[i], seen.insert(l.value).inserted { keys.append(l.value) }
                }
                do {
                    matches.append(try select(value, keys, &resolver.errors))
                } catch {
                    resolver.errors.append(.bad(.badSelector, "$\(selector.name): \(error)"))
                    matches.append(nil)
                }
            }
            var best: (ranks: [Int], index: Int)?
            for (index, variant) in variants.enumerated() {
                var ranks: [Int] = []
                ranks.reserveCapacity(selectors.count)
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
