import Foundation

/// One argument for a catalog format: the value types `%@ %d %ld %u %f %s %c` accept.
///
/// ```swift
/// try catalog.format("%d contacts selected", locale: "de", arguments: [.int(3)])
/// try catalog.format("Hello %@", locale: "fr", arguments: ["Ana"])   // literals work too
/// ```
public enum CatalogArgument: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByFloatLiteral
{
    case int(Int)
    case uint(UInt)
    case double(Double)
    case string(String)

    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .double(value) }

    public var description: String {
        switch self {
        case .int(let v): return String(v)
        case .uint(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return v
        }
    }

    /// The numeric value (for plural selection), nil for strings.
    public var number: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .double(let v): return v
        case .string: return nil
        }
    }

    var kindName: String {
        switch self {
        case .int: return "integer"
        case .uint: return "unsigned integer"
        case .double: return "floating-point number"
        case .string: return "string"
        }
    }
}

/// A printf-style specifier in a localized pattern (`%@`, `%1$ld`, `%.2f`, `%#@files@`).
public struct FormatSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// What kind of argument a specifier takes.
    public enum Kind: String, Sendable, Hashable, Codable {
        case object, signed, unsigned, double, cString, character, plural
    }
    /// Explicit 1-based position (`%2$@`), nil when sequential.
    public var position: Int?
    public var flags: String
    public var width: String
    public var precision: String
    /// Length modifier (`l`, `ll`, `h`, `q`, `z`, …).
    public var length: String
    /// The conversion character (`@`, `d`, `f`, …); `@` with ``variable`` for `%#@var@`.
    public var conversion: Character
    /// The plural/width variable name of a `%#@name@` specifier.
    public var variable: String?
    /// The whole specifier as written.
    public var text: String
    /// Its offset (in Characters) in the pattern.
    public var offset: Int

    public var kind: Kind {
        if variable != nil { return .plural }
        switch conversion {
        case "@": return .object
        case "d", "i", "D": return .signed
        case "u", "x", "X", "o", "O", "U": return .unsigned
        case "f", "F", "e", "E", "g", "G", "a", "A": return .double
        case "s", "S": return .cString
        case "c", "C": return .character
        default: return .object
        }
    }

    public var description: String { text }
}

/// printf-style formatting that never reads memory it was not given: every specifier is checked
/// against the argument it takes, and a wrong count or type is a thrown ``StringsCatalogError``.
///
/// ```swift
/// try PrintfFormat.format("%2$@ has %1$d new messages", arguments: [.int(3), "Ana"])  // "Ana has 3 new messages"
/// ```
public enum PrintfFormat {
    /// A piece of a pattern: literal text or a specifier.
    public enum Token: Sendable, Hashable {
        case literal(String)
        case specifier(FormatSpecifier)
    }

    /// Splits a pattern into literals and specifiers (`%%` becomes a literal `%`).
    public static func tokenize(_ pattern: String) throws -> [Token] {
        let chars = Array(pattern)
        var tokens: [Token] = []
        var literal = ""
        var i = 0
        func fail(_ at: Int, _ what: String) -> StringsCatalogError {
            .formatMismatch(pattern: pattern, message: "\(what) at offset \(at)")
        }
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else {
                literal.append(c)
                i += 1
                continue
            }
            let start = i
            i += 1
            guard i < chars.count else { throw fail(start, "lone '%' at the end (write %% for a percent sign)") }
            if chars[i] == "%" {
                literal.append("%")
                i += 1
                continue
            }
            var position: Int?
            // N$
            var j = i
            var digits = ""
            while j < chars.count, chars[j].isASCII, chars[j].isNumber {
                digits.append(chars[j])
                j += 1
            }
            if !digits.isEmpty, j < chars.count, chars[j] == "$" {
                guard let n = Int(digits), n > 0 else { throw fail(start, "argument position must be 1 or more") }
                position = n
                i = j + 1
            }
            if i + 1 < chars.count, chars[i] == "#", chars[i + 1] == "@" {
                var k = i + 2
                var name = ""
                while k < chars.count, chars[k] != "@" {
                    name.append(chars[k])
                    k += 1
                }
                guard k < chars.count, !name.isEmpty else { throw fail(start, "unterminated %#@variable@") }
                if !literal.isEmpty {
                    tokens.append(.literal(literal))
                    literal = ""
                }
                tokens.append(
                    .specifier(
                        FormatSpecifier(
                            position: position, flags: "", width: "", precision: "", length: "", conversion: "@",
                            variable: name, text: String(chars[start...k]), offset: start)))
                i = k + 1
                continue
            }
            var flags = ""
            while i < chars.count, "-+ #0'".contains(chars[i]) {
                flags.append(chars[i])
                i += 1
            }
            var width = ""
            while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "*" {
                width.append(chars[i])
                i += 1
            }
            var precision = ""
            if i < chars.count, chars[i] == "." {
                precision = "."
                i += 1
                while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "*" {
                    precision.append(chars[i])
                    i += 1
                }
            }
            if width.contains("*") || precision.contains("*") {
                throw fail(start, "'*' width or precision is not supported in localized patterns")
            }
            if (Int(width) ?? 0) > 1024 || (Int(precision.dropFirst()) ?? 0) > 1024 {
                throw fail(start, "width or precision above 1024")
            }
            var length = ""
            while i < chars.count, "hlqLzjt".contains(chars[i]) {
                length.append(chars[i])
                i += 1
            }
            guard i < chars.count else { throw fail(start, "incomplete specifier '\(String(chars[start...]))'") }
            let conv = chars[i]
            guard "@dDiuUxXoOfFeEgGaAsScC".contains(conv) else {
                throw fail(start, "unsupported conversion '%\(conv)' in '\(String(chars[start...i]))'")
            }
            i += 1
            if !literal.isEmpty {
                tokens.append(.literal(literal))
                literal = ""
            }
            tokens.append(
                .specifier(
                    FormatSpecifier(
                        position: position, flags: flags, width: width, precision: precision, length: length,
                        conversion: conv, variable: nil, text: String(chars[start..<i]), offset: start)))
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        return tokens
    }

    /// The specifiers of a pattern with the 0-based argument index each one takes.
    ///
    /// Numbered as CoreFoundation numbers them: a positional specifier (`%2$@`) takes its own argument and
    /// the plain ones count on their own, from the first argument, whatever positions stand between them
    /// (`"%1$d Stück, %d"` uses the first argument twice; `"%2$@ und %@"` shows the second, then the first).
    /// This is the one numbering rule of the module: lookups, lint and the template bridge go through it.
    public static func arguments(of pattern: String) throws -> [(index: Int, specifier: FormatSpecifier)] {
        numbered(try tokenize(pattern)).compactMap { token, index in
            guard case .specifier(let spec) = token, let index else { return nil }
            return (index, spec)
        }
    }

    /// Every token with the 0-based argument index a specifier takes (nil for literals).
    static func numbered(_ tokens: [Token]) -> [(token: Token, index: Int?)] {
        var plain = 0
        return tokens.map { token in
            guard case .specifier(let spec) = token else { return (token, nil) }
            if let p = spec.position { return (token, p - 1) }
            plain += 1
            return (token, plain - 1)
        }
    }

    /// The pattern with every specifier written with its position (`%@ %1$d` → `%1$@ %1$d`), so that
    /// pieces can be put in place of some specifiers without renumbering the others.
    public static func positional(_ pattern: String) throws -> String {
        var out = ""
        for (token, index) in numbered(try tokenize(pattern)) {
            switch token {
            case .literal(let text): out += text.replacingOccurrences(of: "%", with: "%%")
            case .specifier(let spec):
                out += spec.position == nil ? "%\((index ?? 0) + 1)$" + spec.text.dropFirst() : spec.text
            }
        }
        return out
    }

    /// Formats `pattern` with `arguments`. Plural variables (`%#@x@`) must have been expanded first
    /// (``StringsDictEntry/expand(locale:arguments:)``); extra arguments are ignored, as printf does.
    public static func format(_ pattern: String, arguments: [CatalogArgument]) throws -> String {
        var out = ""
        for (token, position) in numbered(try tokenize(pattern)) {
            switch token {
            case .literal(let text): out += text
            case .specifier(let spec):
                let index = position ?? 0
                guard spec.variable == nil else {
                    throw StringsCatalogError.formatMismatch(
                        pattern: pattern, message: "plural variable \(spec.text) has no stringsdict rule")
                }
                guard index < arguments.count else {
                    throw StringsCatalogError.formatMismatch(
                        pattern: pattern,
                        message: "\(spec.text) needs argument \(index + 1) but only \(arguments.count) were given")
                }
                out += try render(spec, arguments[index], pattern: pattern)
            }
        }
        return out
    }

    static func render(_ spec: FormatSpecifier, _ arg: CatalogArgument, pattern: String) throws -> String {
        func mismatch() -> StringsCatalogError {
            .formatMismatch(pattern: pattern, message: "\(spec.text) cannot format a \(arg.kindName) (\(arg))")
        }
        let cSpec = "%" + spec.flags.filter { $0 != "'" } + spec.width + spec.precision
        switch spec.kind {
        case .object, .cString:
            let text: String
            switch (spec.kind, arg) {
            case (.cString, .string(let s)): text = s
            case (.cString, _): throw mismatch()
            case (_, .double(let d)): text = String(format: "%g", d)
            default: text = arg.description
            }
            return pad(text, spec: spec)
        case .signed:
            switch arg {
            case .int(let v): return String(format: cSpec + "lld", Int64(v))
            case .uint(let v):
                guard v <= UInt(Int64.max) else { throw mismatch() }
                return String(format: cSpec + "lld", Int64(v))
            default: throw mismatch()
            }
        case .unsigned:
            let conv = spec.conversion == "U" ? "u" : spec.conversion == "O" ? "o" : String(spec.conversion)
            switch arg {
            case .int(let v):
                return String(format: cSpec + "ll" + conv, UInt64(bitPattern: Int64(v)))
            case .uint(let v): return String(format: cSpec + "ll" + conv, UInt64(v))
            default: throw mismatch()
            }
        case .double:
            guard case .double(let v) = arg else { throw mismatch() }
            return String(format: cSpec + String(spec.conversion), v)
        case .character:
            let code: UInt32
            switch arg {
            case .int(let v) where v >= 0 && v <= 0x10FFFF: code = UInt32(v)
            case .uint(let v) where v <= 0x10FFFF: code = UInt32(v)
            case .string(let s) where s.unicodeScalars.count == 1: code = s.unicodeScalars.first!.value
            default: throw mismatch()
            }
            guard let scalar = Unicode.Scalar(code) else { throw mismatch() }
            return pad(String(Character(scalar)), spec: spec)
        case .plural:
            throw mismatch()
        }
    }

    static func pad(_ text: String, spec: FormatSpecifier) -> String {
        var t = text
        if spec.precision.count > 1, let p = Int(spec.precision.dropFirst()), t.count > p { t = String(t.prefix(p)) }
        if let w = Int(spec.width), t.count < w {
            let padding = String(repeating: " ", count: w - t.count)
            t = spec.flags.contains("-") ? t + padding : padding + t
        }
        return t
    }
}
