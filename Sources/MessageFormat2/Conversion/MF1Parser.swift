/// An ICU MessageFormat 1 message as the converter reads it: text, `#` and arguments.
indirect enum MF1Node {
    case text(String)
    /// `#` directly inside a `plural` or `selectordinal` sub-message.
    case pound
    case argument(MF1Argument)
}

/// `{name}`, `{name, type[, style]}`, or a `plural` / `selectordinal` / `select` argument.
struct MF1Argument {
    enum Kind {
        case none
        case simple(type: String, style: String?)
        case plural(ordinal: Bool, offset: String?, cases: [MF1Case])
        case select(cases: [MF1Case])
    }
    var name: String
    var kind: Kind
    /// Where the argument's `{` is (1-based, in Unicode scalars).
    var line: Int
    var column: Int
}

/// One sub-message of a `plural` or `select` argument: `=1`, `one`, `female`, `other`.
struct MF1Case {
    var key: String
    var message: [MF1Node]
    var line: Int
    var column: Int
}

/// Reads ICU MessageFormat 1 as ICU's `MessagePattern` does (apostrophe mode DOUBLE_OPTIONAL): `''` is an
/// apostrophe; an apostrophe before `{`, `}` (or `#` in a plural sub-message) starts quoted text up to the
/// next single apostrophe (or the end); any other apostrophe is itself; `}` at the top level is text.
/// Limits: ``maximumLength`` scalars and ``maximumDepth`` nested arguments; errors carry line and column.
struct MF1Parser {
    static let maximumLength = 1 << 20
    static let maximumDepth = 32

    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ source: String) { scalars = Array(source.unicodeScalars) }

    static func parse(_ source: String) throws(MessageError) -> [MF1Node] {
        var parser = MF1Parser(source)
        guard parser.scalars.count <= maximumLength else {
            throw parser.error("the message is longer than \(maximumLength) characters", at: maximumLength)
        }
        return try parser.message(inPlural: false, depth: 0)
    }

    // MARK: Messages

    mutating func message(inPlural: Bool, depth: Int) throws(MessageError) -> [MF1Node] {
        var nodes: [MF1Node] = []
        var text = ""
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)) }
            text = ""
        }
        while index < scalars.count {
            let c = scalars[index]
            switch c {
            case "'":
                index += 1
                guard index < scalars.count else {
                    text.unicodeScalars.append("'")
                    break
                }
                let next = scalars[index]
                if next == "'" {
                    text.unicodeScalars.append("'")
                    index += 1
                } else if next == "{" || next == "}" || (inPlural && next == "#") {
                    while index < scalars.count {
                        if scalars[index] == "'" {
                            if index + 1 < scalars.count && scalars[index + 1] == "'" {
                                text.unicodeScalars.append("'")
                                index += 2
                                continue
                            }
                            index += 1
                            break
                        }
                        text.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                } else {
                    text.unicodeScalars.append("'")
                }
            case "#" where inPlural:
                flush()
                nodes.append(.pound)
                index += 1
            case "{":
                flush()
                nodes.append(.argument(try argument(depth: depth + 1)))
            case "}" where depth > 0:
                flush()
                return nodes
            default:
                text.unicodeScalars.append(c)
                index += 1
            }
        }
        if depth > 0 { throw error("a sub-message is not closed with '}'", at: index) }
        flush()
        return nodes
    }

    // MARK: Arguments

    mutating func argument(depth: Int) throws(MessageError) -> MF1Argument {
        let start = index
        let (line, column) = position(start)
        guard depth <= Self.maximumDepth else {
            throw error("arguments nest deeper than \(Self.maximumDepth) levels", at: start)
        }
        index += 1  // {
        skipWhitespace()
        let nameStart = index
        let name = identifier()
        guard !name.isEmpty else { throw error("an argument needs a name", at: nameStart) }
        skipWhitespace()
        var argument = MF1Argument(name: name, kind: .none, line: line, column: column)
        if try expect("}", orComma: true) { return argument }
        skipWhitespace()
        let typeStart = index
        let type = identifier().lowercased()
        guard !type.isEmpty else { throw error("an argument type is missing after ','", at: typeStart) }
        skipWhitespace()
        let complex = ["plural", "selectordinal", "select", "choice"].contains(type)
        if try expect("}", orComma: true) {
            if complex { throw error("a \(type) argument needs its sub-messages", at: index - 1) }
            argument.kind = .simple(type: type, style: nil)
            return argument
        }
        switch type {
        case "plural", "selectordinal":
            let (offset, cases) = try cases(plural: true, depth: depth)
            argument.kind = .plural(ordinal: type == "selectordinal", offset: offset, cases: cases)
        case "select":
            argument.kind = .select(cases: try cases(plural: false, depth: depth).cases)
        case "choice":
            throw unconvertible("a choice argument has no MessageFormat 2 equivalent", at: typeStart)
        default:
            argument.kind = .simple(type: type, style: try simpleStyle())
        }
        return argument
    }

    /// Consumes `}` (returns true) or `,` (returns false); anything else is an error.
    mutating func expect(_ close: Unicode.Scalar, orComma: Bool) throws(MessageError) -> Bool {
        guard index < scalars.count else { throw error("an argument is not closed with '}'", at: index) }
        if scalars[index] == close {
            index += 1
            return true
        }
        guard orComma, scalars[index] == "," else {
            throw error("expected ',' or '}' in an argument, found '\(scalars[index])'", at: index)
        }
        index += 1
        return false
    }

    /// `offset:n` and `key {message}` pairs up to the argument's `}`; `other` is required.
    mutating func cases(plural: Bool, depth: Int) throws(MessageError) -> (offset: String?, cases: [MF1Case]) {
        var offset: String?
        var cases: [MF1Case] = []
        while true {
            skipWhitespace()
            guard index < scalars.count else { throw error("an argument is not closed with '}'", at: index) }
            if scalars[index] == "}" {
                guard cases.contains(where: { $0.key == "other" }) else {
                    throw error("the argument has no 'other' sub-message", at: index)
                }
                index += 1
                return (offset, cases)
            }
            let keyStart = index
            var key: String
            if scalars[index] == "=" {
                guard plural else { throw error("a select key cannot be '=value'", at: keyStart) }
                index += 1
                key = "=" + identifier(number: true)
                guard key.count > 1, Characters.isNumberLiteral(String(key.dropFirst())) else {
                    throw error("'\(key)' is not an exact number key", at: keyStart)
                }
            } else {
                key = identifier()
                guard !key.isEmpty else { throw error("expected a key or '}', found '\(scalars[index])'", at: index) }
                if plural, cases.isEmpty, offset == nil, key == "offset", index < scalars.count, scalars[index] == ":" {
                    index += 1
                    skipWhitespace()
                    let valueStart = index
                    let value = identifier(number: true)
                    guard Characters.isNumberLiteral(value) else {
                        throw error("'offset:' needs a number", at: valueStart)
                    }
                    offset = value
                    continue
                }
            }
            skipWhitespace()
            guard index < scalars.count, scalars[index] == "{" else {
                throw error("expected '{' after the key '\(key)'", at: index)
            }
            let (line, column) = position(keyStart)
            index += 1
            let body = try message(inPlural: plural, depth: depth)
            index += 1  // }
            if !cases.contains(where: { $0.key == key }) {  // ICU uses the first of repeated keys
                cases.append(MF1Case(key: key, message: body, line: line, column: column))
            }
        }
    }

    /// The style text of a simple argument up to its `}`: braces counted, apostrophes quoting; trimmed.
    mutating func simpleStyle() throws(MessageError) -> String {
        let start = index
        var depth = 0
        while index < scalars.count {
            switch scalars[index] {
            case "'":
                let quote = index
                index += 1
                while index < scalars.count && scalars[index] != "'" { index += 1 }
                guard index < scalars.count else { throw error("a quote in the style is not closed", at: quote) }
            case "{": depth += 1
            case "}":
                if depth == 0 {
                    let style = String(String.UnicodeScalarView(scalars[start..<index]))
                    index += 1
                    return style.trimmingWhitespace()
                }
                depth -= 1
            default: break
            }
            index += 1
        }
        throw error("an argument is not closed with '}'", at: index)
    }

    // MARK: Characters

    /// A name or keyword: characters up to white space or pattern syntax (as ICU's `skipIdentifier`); a
    /// number (`=-1.5`, `offset:1`) may also hold `-`, `+` and `.`.
    mutating func identifier(number: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        while index < scalars.count, !Self.isWhitespace(scalars[index]) {
            let c = scalars[index]
            guard !Self.isSyntax(c) || (number && (c == "-" || c == "+" || c == ".")) else { break }
            out.append(c)
            index += 1
        }
        return String(out)
    }

    mutating func skipWhitespace() {
        while index < scalars.count, Self.isWhitespace(scalars[index]) { index += 1 }
    }

    /// Unicode's Pattern_White_Space.
    static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0x85, 0x200E, 0x200F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Unicode's Pattern_Syntax.
    static func isSyntax(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x5E, 0x60, 0x7B...0x7E: true
        case 0xA1...0xA7, 0xA9, 0xAB, 0xAC, 0xAE, 0xB0, 0xB1, 0xB6, 0xBB, 0xBF, 0xD7, 0xF7: true
        case 0x2010...0x2027, 0x2030...0x203E, 0x2041...0x2053, 0x2055...0x205E, 0x2190...0x245F: true
        case 0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E7F, 0x3001...0x3003, 0x3008...0x3020, 0x3030: true
        case 0xFD3E, 0xFD3F, 0xFE45, 0xFE46: true
        default: false
        }
    }

    func position(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for c in scalars[..<min(offset, scalars.count)] {
            if c == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    func error(_ message: String, at offset: Int) -> MessageError {
        let (line, column) = position(offset)
        return .conversion(line: line, column: column, message: "ICU MessageFormat syntax: " + message)
    }

    func unconvertible(_ message: String, at offset: Int) -> MessageError {
        let (line, column) = position(offset)
        return .conversion(line: line, column: column, message: message)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let s = unicodeScalars
        guard let first = s.firstIndex(where: { !MF1Parser.isWhitespace($0) }),
            let last = s.lastIndex(where: { !MF1Parser.isWhitespace($0) })
        else { return "" }
        return String(s[first...last])
    }
}
