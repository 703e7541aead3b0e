/// Reads MessageFormat 2 source into the data model, following spec/message.abnf. Errors carry the line and
/// column (1-based, in Unicode scalars) where the text stops matching the syntax.
struct Parser {
    let text: [Unicode.Scalar]
    var pos = 0

    init(_ source: String) { text = Array(source.unicodeScalars) }

    var atEnd: Bool { pos >= text.count }
    func peek(_ offset: Int = 0) -> UInt32? { pos + offset < text.count ? text[pos + offset].value : nil }

    func error(_ message: String, at index: Int? = nil) -> MessageError {
        let at = min(index ?? pos, text.count)
        var line = 1
        var column = 1
        for scalar in text[..<at] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return .syntax(line: line, column: column, message: message)
    }

    mutating func expect(_ c: Character, _ what: String) throws(MessageError) {
        guard peek() == c.unicodeScalars.first!.value else { throw error("expected \(what)") }
        pos += 1
    }

    /// Skips whitespace and bidi marks; true when at least one whitespace character was among them (`s`).
    @discardableResult
    mutating func skipSpace() -> Bool {
        var sawSpace = false
        while let c = peek() {
            if Characters.isWhitespace(c) {
                sawSpace = true
            } else if !Characters.isBidi(c) {
                break
            }
            pos += 1
        }
        return sawSpace
    }

    // MARK: Message

    mutating func parseMessage() throws(MessageError) -> Message {
        let start = pos
        skipSpace()
        if peek() == 0x2E || (peek() == 0x7B && peek(1) == 0x7B) {
            return try parseComplexMessage()
        }
        pos = start
        let pattern = try parsePattern(quoted: false)
        if !atEnd { throw error("unexpected '}'") }
        return Message(body: .pattern(pattern))
    }

    mutating func parseComplexMessage() throws(MessageError) -> Message {
        var declarations: [Declaration] = []
        while true {
            skipSpace()
            if peek() == 0x7B {
                guard peek(1) == 0x7B else { throw error("expected '{{' to start the message's pattern") }
                pos += 2
                let pattern = try parsePattern(quoted: true)
                try expectEnd()
                return Message(declarations: declarations, body: .pattern(pattern))
            }
            guard peek() == 0x2E else { throw error("expected a declaration, '.match' or '{{'") }
            if matchKeyword("input") {
                skipSpace()
                let exprStart = pos
                let expression = try parseExpression()
                guard case .variable(let v) = expression.operand else {
                    throw error(".input needs a variable expression", at: exprStart)
                }
                declarations.append(.input(name: v.name, expression: expression))
            } else if matchKeyword("local") {
                guard skipSpace() else { throw error("expected whitespace after '.local'") }
                let name = try parseVariable()
                skipSpace()
                try expect("=", "'='")
                skipSpace()
                declarations.append(.local(name: name, expression: try parseExpression()))
            } else if matchKeyword("match") {
                let (selectors, variants) = try parseMatcher()
                try expectEnd()
                return Message(declarations: declarations, body: .match(selectors: selectors, variants: variants))
            } else {
                throw error("unknown keyword (expected .input, .local or .match)")
            }
        }
    }

    mutating func expectEnd() throws(MessageError) {
        skipSpace()
        if !atEnd { throw error("unexpected text after the message's body") }
    }

    mutating func matchKeyword(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard pos + scalars.count < text.count else { return false }
        for (i, s) in scalars.enumerated() where text[pos + 1 + i] != s { return false }
        pos += 1 + scalars.count
        return true
    }

    mutating func parseMatcher() throws(MessageError) -> ([VariableRef], [Variant]) {
        var selectors: [VariableRef] = []
        while true {
            let mark = pos
            let sawSpace = skipSpace()
            guard sawSpace, peek() == 0x24 else {
                pos = mark
                break
            }
            selectors.append(VariableRef(try parseVariable()))
        }
        if selectors.isEmpty { throw error("expected a $variable selector after '.match'") }
        guard skipSpace() else { throw error("expected whitespace before the first variant") }
        var variants: [Variant] = []
        repeat {
            var keys = [try parseKey()]
            while true {
                let sawSpace = skipSpace()
                if peek() == 0x7B { break }
                guard sawSpace else { throw error("expected whitespace between keys") }
                keys.append(try parseKey())
            }
            guard peek() == 0x7B, peek(1) == 0x7B else { throw error("expected '{{' to start the variant's pattern") }
            pos += 2
            variants.append(Variant(keys: keys, pattern: try parsePattern(quoted: true)))
            skipSpace()
        } while !atEnd
        return (selectors, variants)
    }

    mutating func parseKey() throws(MessageError) -> VariantKey {
        if peek() == 0x2A {
            pos += 1
            return .catchAll
        }
        guard let c = peek(), c == 0x7C || Characters.isNameChar(c) else { throw error("expected a variant key") }
        return .literal(try parseLiteral())
    }

    // MARK: Patterns

    mutating func parsePattern(quoted: Bool) throws(MessageError) -> Pattern {
        var elements: [PatternElement] = []
        var text = String.UnicodeScalarView()
        func flush() {
            if !text.isEmpty {
                elements.append(.text(String(text)))
                text = String.UnicodeScalarView()
            }
        }
        while let c = peek() {
            switch c {
            case 0x5C:
                text.append(try parseEscape(allowPipe: true))
            case 0x7B:
                flush()
                elements.append(try parsePlaceholder())
            case 0x7D:
                guard quoted, peek(1) == 0x7D else { throw error("unescaped '}' in text") }
                pos += 2
                flush()
                return Pattern(elements)
            case 0:
                throw error("NUL character in text")
            default:
                text.append(self.text[pos])
                pos += 1
            }
        }
        if quoted { throw error("missing '}}' at the end of the pattern") }
        flush()
        return Pattern(elements)
    }

    mutating func parseEscape(allowPipe: Bool) throws(MessageError) -> Unicode.Scalar {
        pos += 1
        guard let c = peek(), c == 0x5C || c == 0x7B || c == 0x7C || c == 0x7D else {
            throw error("'\\' escapes only '\\', '{', '|' and '}'")
        }
        pos += 1
        return Unicode.Scalar(c)!
    }
}
