/// A gettext plural expression (`plural=` of a `Plural-Forms` header): C syntax over the count `n` with
/// unsigned integers, `* / % + -`, comparisons, `! && ||`, `?:` and parentheses, as GNU gettext reads it.
///
/// ```swift
/// let e = try PluralExpression(parsing: "n != 1")
/// e.evaluate(1)   // 0
/// e.evaluate(5)   // 1
/// ```
public struct PluralExpression: Sendable, Hashable {
    /// A syntax error: the 1-based column in the expression and what was expected there (thrown to callers
    /// as ``StringsCatalogError/pluralExpression(column:message:)``).
    struct SyntaxError: Error, Sendable, Hashable {
        var column: Int
        var message: String
    }

    indirect enum Node: Sendable, Hashable {
        case n
        case number(UInt64)
        case not(Node)
        case binary(String, Node, Node)
        case conditional(Node, Node, Node)
    }

    /// The expression as written.
    public let text: String
    let root: Node

    static let zero = PluralExpression(text: "0", root: .number(0))

    private init(text: String, root: Node) {
        self.text = text
        self.root = root
    }

    /// Parses `text`; throws ``StringsCatalogError/pluralExpression(column:message:)`` naming the column and
    /// what was expected.
    public init(parsing text: String) throws(StringsCatalogError) {
        var parser = Parser(Array(text.utf8))
        do throws(SyntaxError) {
            let node = try parser.conditional()
            parser.skipSpace()
            if parser.i < parser.bytes.count {
                throw parser.error("expected an operator or the end of the expression")
            }
            self.init(text: text, root: node)
        } catch {
            throw .pluralExpression(column: error.column, message: error.message)
        }
    }

    /// The value for `n`, in unsigned 64-bit arithmetic (wrapping; division by zero gives 0).
    public func evaluate(_ n: UInt64) -> UInt64 { Self.evaluate(root, n) }

    static func evaluate(_ node: Node, _ n: UInt64) -> UInt64 {
        switch node {
        case .n: return n
        case .number(let v): return v
        case .not(let a): return evaluate(a, n) == 0 ? 1 : 0
        case .conditional(let c, let a, let b): return evaluate(c, n) != 0 ? evaluate(a, n) : evaluate(b, n)
        case .binary(let op, let a, let b):
            let x = evaluate(a, n)
            if op == "&&" { return x != 0 && evaluate(b, n) != 0 ? 1 : 0 }
            if op == "||" { return x != 0 || evaluate(b, n) != 0 ? 1 : 0 }
            let y = evaluate(b, n)
            switch op {
            case "*": return x &* y
            case "/": return y == 0 ? 0 : x / y
            case "%": return y == 0 ? 0 : x % y
            case "+": return x &+ y
            case "-": return x &- y
            case "<": return x < y ? 1 : 0
            case ">": return x > y ? 1 : 0
            case "<=": return x <= y ? 1 : 0
            case ">=": return x >= y ? 1 : 0
            case "==": return x == y ? 1 : 0
            default: return x != y ? 1 : 0
            }
        }
    }

    /// Recursive descent over C's precedence levels.
    struct Parser {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(column: bytes[..<min(i, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1, message: message)
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D {
                i += 1
            }
        }

        /// Consumes one of `ops` (longest first) and returns it.
        mutating func take(_ ops: [String]) -> String? {
            skipSpace()
            for op in ops {
                let u = Array(op.utf8)
                guard i + u.count <= bytes.count, Array(bytes[i..<i + u.count]) == u else { continue }
                // `<` must not take the first half of `<=`, `!` not the first of `!=`.
                if u.count == 1, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "="), "<>!=".utf8.contains(u[0]) {
                    continue
                }
                i += u.count
                return op
            }
            return nil
        }

        mutating func conditional() throws(SyntaxError) -> Node {
            let c = try binary(0)
            guard take(["?"]) != nil else { return c }
            let a = try conditional()
            guard take([":"]) != nil else { throw error("expected ':' of the conditional '?:'") }
            let b = try conditional()
            return .conditional(c, a, b)
        }

        static let levels: [[String]] = [
            ["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"],
        ]

        mutating func binary(_ level: Int) throws(SyntaxError) -> Node {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            while let op = take(Self.levels[level]) {
                left = .binary(op, left, try binary(level + 1))
            }
            return left
        }

        mutating func unary() throws(SyntaxError) -> Node {
            if take(["!"]) != nil { return .not(try unary()) }
            skipSpace()
            guard i < bytes.count else { throw error("expected 'n', a number, '!' or '(' but the expression ends") }
            let b = bytes[i]
            if b == UInt8(ascii: "n") {
                i += 1
                return .n
            }
            if b == UInt8(ascii: "(") {
                i += 1
                let e = try conditional()
                guard take([")"]) != nil else { throw error("expected ')'") }
                return e
            }
            if (0x30...0x39).contains(b) {
                var v: UInt64 = 0
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                    let (m, o1) = v.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(UInt64(bytes[i] - 0x30))
                    if o1 || o2 { throw error("number too large") }
                    v = s
                    i += 1
                }
                return .number(v)
            }
            throw error("expected 'n', a number, '!' or '(' but found '\(String(decoding: [b], as: UTF8.self))'")
        }
    }
}
