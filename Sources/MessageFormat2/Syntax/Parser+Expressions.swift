extension Parser {
    /// A placeholder: `{…}` holding an expression or markup.
    mutating func parsePlaceholder() throws(MessageError) -> PatternElement {
        let start = pos
        pos += 1
        skipSpace()
        if peek() == 0x23 || peek() == 0x2F {
            return .markup(try parseMarkup())
        }
        pos = start
        return .expression(try parseExpression())
    }

    /// `{ o operand [s function] *(s attribute) o }` or `{ o function *(s attribute) o }`.
    mutating func parseExpression() throws(MessageError) -> Expression {
        try expect("{", "'{'")
        skipSpace()
        var expression = Expression()
        guard let c = peek() else { throw error("missing '}' at the end of the placeholder") }
        if c == 0x24 {
            expression.operand = .variable(VariableRef(try parseVariable()))
        } else if c == 0x7C || Characters.isNameChar(c) {
            expression.operand = .literal(try parseLiteral())
        } else if c != 0x3A {
            throw error("expected a literal, a $variable or a :function")
        }
        if expression.operand == nil {
            expression.function = try parseFunction()
        } else {
            let mark = pos
            let sawSpace = skipSpace()
            if peek() == 0x3A {
                guard sawSpace else { throw error("expected whitespace before the function") }
                expression.function = try parseFunction()
            } else {
                pos = mark
            }
        }
        expression.attributes = try parseAttributes()
        skipSpace()
        try expect("}", "'}' at the end of the placeholder")
        return expression
    }

    /// `:identifier *(s option)`.
    mutating func parseFunction() throws(MessageError) -> FunctionRef {
        pos += 1
        let name = try parseIdentifier()
        return FunctionRef(name: name, options: try parseOptions())
    }

    mutating func parseOptions() throws(MessageError) -> [Option] {
        var options: [Option] = []
        while true {
            let mark = pos
            let sawSpace = skipSpace()
            guard sawSpace, let c = peek(), Characters.isNameStart(c) else {
                pos = mark
                return options
            }
            let name = try parseIdentifier()
            skipSpace()
            try expect("=", "'=' after the option's name")
            skipSpace()
            options.append(Option(name: name, value: try parseOptionValue()))
        }
    }

    mutating func parseOptionValue() throws(MessageError) -> Operand {
        guard let c = peek() else { throw error("expected the option's value") }
        if c == 0x24 { return .variable(VariableRef(try parseVariable())) }
        guard c == 0x7C || Characters.isNameChar(c) else { throw error("expected a literal or a $variable") }
        return .literal(try parseLiteral())
    }

    /// `*(s attribute)`, leaving the position before any trailing space.
    mutating func parseAttributes() throws(MessageError) -> [Attribute] {
        var attributes: [Attribute] = []
        while true {
            let mark = pos
            let sawSpace = skipSpace()
            guard peek() == 0x40 else {
                pos = mark
                return attributes
            }
            guard sawSpace else { throw error("expected whitespace before the attribute") }
            pos += 1
            var attribute = Attribute(name: try parseIdentifier())
            let afterName = pos
            skipSpace()
            if peek() == 0x3D {
                pos += 1
                skipSpace()
                guard let c = peek(), c == 0x7C || Characters.isNameChar(c) else {
                    throw error("an attribute's value is a literal")
                }
                attribute.value = try parseLiteral()
            } else {
                pos = afterName
            }
            attributes.append(attribute)
        }
    }

    /// `#name …`, `#name … /` or `/name …` (the `{` and leading space already read).
    mutating func parseMarkup() throws(MessageError) -> Markup {
        let closing = peek() == 0x2F
        pos += 1
        let name = try parseIdentifier()
        let options = try parseOptions()
        let attributes = try parseAttributes()
        skipSpace()
        var kind: Markup.Kind = closing ? .close : .open
        if !closing, peek() == 0x2F {
            pos += 1
            kind = .standalone
        }
        try expect("}", "'}' at the end of the markup")
        return Markup(kind: kind, name: name, options: options, attributes: attributes)
    }

    /// `$name`, returning the name.
    mutating func parseVariable() throws(MessageError) -> String {
        try expect("$", "'$'")
        return try parseName()
    }

    /// `[namespace ":"] name`.
    mutating func parseIdentifier() throws(MessageError) -> Identifier {
        let first = try parseName()
        if peek() == 0x3A {
            pos += 1
            return Identifier(namespace: first, name: try parseName())
        }
        return Identifier(name: first)
    }

    /// `[bidi] name-start *name-char [bidi]`, returning the name without its bidi marks.
    mutating func parseName() throws(MessageError) -> String {
        if let c = peek(), Characters.isBidi(c) { pos += 1 }
        guard let c = peek(), Characters.isNameStart(c) else { throw error("expected a name") }
        let start = pos
        pos += 1
        while let c = peek(), Characters.isNameChar(c) { pos += 1 }
        let name = String(String.UnicodeScalarView(text[start..<pos]))
        if let c = peek(), Characters.isBidi(c) { pos += 1 }
        return name
    }

    /// A quoted (`|…|`) or unquoted literal.
    mutating func parseLiteral() throws(MessageError) -> Literal {
        if peek() == 0x7C {
            pos += 1
            var value = String.UnicodeScalarView()
            while true {
                guard let c = peek() else { throw error("missing '|' at the end of the literal") }
                switch c {
                case 0x7C:
                    pos += 1
                    return Literal(String(value), quoted: true)
                case 0x5C: value.append(try parseEscape(allowPipe: true))
                case 0: throw error("NUL character in a literal")
                default:
                    value.append(text[pos])
                    pos += 1
                }
            }
        }
        let start = pos
        while let c = peek(), Characters.isNameChar(c) { pos += 1 }
        guard pos > start else { throw error("expected a literal") }
        return Literal(String(String.UnicodeScalarView(text[start..<pos])))
    }
}

extension Message {
    /// Parses MessageFormat 2 source. Throws ``MessageError/syntax(line:column:message:)`` where the text
    /// stops matching the syntax; use ``validate()`` for the data-model rules.
    ///
    /// ```swift
    /// let message = try Message(parsing: ".input {$n :number} {{You have {$n} messages}}")
    /// ```
    public init(parsing source: String) throws(MessageError) {
        var parser = Parser(source)
        self = try parser.parseMessage()
    }
}
