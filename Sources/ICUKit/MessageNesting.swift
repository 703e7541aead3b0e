/// How deeply an ICU MessageFormat pattern nests sub-messages, found by one linear scan that follows
/// ICU's own grammar (`MessagePattern`): arguments `{name, type, style}`, the sub-messages of `plural`,
/// `selectordinal`, `select` and `choice` styles, brace counting in simple styles (`number`, `date`, …),
/// and ICU's apostrophe quoting (`'{'`, `''`, `'#'` in plural messages, `'|'` in choice messages).
///
/// ICU parses and formats nested sub-messages by recursion, one set of stack frames per level; a
/// pattern nested thousands of levels deep overflows the thread's stack inside ICU and ends the whole
/// process. ``MessageFormat`` therefore refuses patterns nested deeper than
/// ``MessageFormat/maximumNestingDepth`` before ICU sees them.
///
/// ```swift
/// MessageFormat.nestingDepth(of: "{n, plural, one {# guest} other {# guests}}")   // 1
/// try MessageFormat.checkNesting(String(repeating: "{a, select, other {", count: 100))   // throws
/// ```
extension MessageFormat {
    /// The deepest nesting of sub-messages a pattern may have (`{a, select, x {{b, plural, …}}}` is 2).
    /// Real messages use two or three levels; ICU itself overflows the stack at a few thousand.
    public static let maximumNestingDepth = 64

    /// The nesting depth of `pattern`'s sub-messages (0 for plain text and simple arguments). The scan
    /// stops where ICU would report a syntax error, or once the depth exceeds `limit`.
    public static func nestingDepth(of pattern: String, limit: Int = Int.max) -> Int {
        NestingScanner(pattern).scan(limit: limit).depth
    }

    /// Throws ``ICUError/nestingTooDeep(line:column:limit:)`` (1-based line and column, counted in
    /// Unicode scalars, of the sub-message that goes one level too deep) when `pattern` nests deeper
    /// than `limit`.
    public static func checkNesting(_ pattern: String, limit: Int = maximumNestingDepth) throws {
        let result = NestingScanner(pattern).scan(limit: limit)
        if let at = result.violation {
            throw ICUError.nestingTooDeep(line: at.line, column: at.column, limit: limit)
        }
    }
}

private struct NestingScanner {
    enum Kind: Equatable { case none, plural, select, choice, simple }

    enum Frame {
        /// Message text; `parent` is the kind of argument it belongs to (`.none` at the top).
        case message(parent: Kind)
        /// `{name` or `{name, type` — `commas` seen so far, letters of the type (lowercased, capped).
        case argumentHead(commas: Int, type: [UInt8])
        /// Between the sub-messages of a plural/selectordinal/select argument.
        case keyedStyle(Kind)
        /// Between the sub-messages of a choice argument (`0#none|1#one|1<many`).
        case choiceStyle
        /// The style text of a simple argument (`number, ::currency/EUR`): braces are counted, not nested.
        case simpleStyle(braces: Int)
    }

    let scalars: [Unicode.Scalar]

    init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

    /// The deepest level reached and, when it went over `limit`, the scalar offset where it did.
    func scan(limit: Int) -> (depth: Int, violation: (line: Int, column: Int)?) {
        let s = scalars
        let n = s.count
        var stack: [Frame] = [.message(parent: .none)]
        var level = 0
        var deepest = 0
        var i = 0
        func enter(_ frame: Frame) -> Bool {
            stack.append(frame)
            level += 1
            deepest = max(deepest, level)
            return level <= limit
        }
        while i < n, let top = stack.last {
            let c = s[i]
            switch top {
            case .message(let parent):
                if c == "'" {
                    guard i + 1 < n else { return (deepest, nil) }
                    let next = s[i + 1]
                    if next == "'" {
                        i += 2
                        continue
                    }
                    let quotes =
                        next == "{" || next == "}" || (parent == .choice && next == "|")
                        || (parent == .plural && next == "#")
                    if !quotes {
                        i += 1
                        continue
                    }
                    // Quoted literal text up to the next single apostrophe ('' inside is one apostrophe).
                    var j = i + 2
                    while j < n {
                        if s[j] == "'" {
                            if j + 1 < n && s[j + 1] == "'" {
                                j += 2
                                continue
                            }
                            break
                        }
                        j += 1
                    }
                    i = j + 1
                    continue
                }
                if c == "{" {
                    stack.append(.argumentHead(commas: 0, type: []))
                } else if parent != .none && c == "}" {
                    stack.removeLast()
                    level -= 1
                    // In a choice argument the '}' ends the last sub-message and the argument itself.
                    if parent == .choice { stack.removeLast() }
                } else if parent == .choice && c == "|" {
                    stack.removeLast()
                    level -= 1
                }
                i += 1
            case .argumentHead(let commas, var type):
                if c == "}" {
                    stack.removeLast()
                } else if c == "," {
                    if commas == 0 {
                        stack[stack.count - 1] = .argumentHead(commas: 1, type: [])
                    } else {
                        let style: Frame
                        switch String(decoding: type, as: UTF8.self) {
                        case "plural", "selectordinal": style = .keyedStyle(.plural)
                        case "select": style = .keyedStyle(.select)
                        case "choice": style = .choiceStyle
                        default: style = .simpleStyle(braces: 0)
                        }
                        stack[stack.count - 1] = style
                    }
                } else if c == "{" || c == "'" {
                    return (deepest, nil)  // ICU: bad argument syntax; it parses no further.
                } else if commas == 1, c.isASCII, c.properties.isAlphabetic, type.count < 16 {
                    type.append(UInt8(c.value | 0x20))
                    stack[stack.count - 1] = .argumentHead(commas: 1, type: type)
                }
                i += 1
            case .keyedStyle(let kind):
                if c == "{" {
                    if !enter(.message(parent: kind)) { return (deepest, position(i)) }
                } else if c == "}" {
                    stack.removeLast()
                }
                i += 1
            case .choiceStyle:
                if c == "#" || c == "<" || c == "\u{2264}" {
                    if !enter(.message(parent: .choice)) { return (deepest, position(i)) }
                } else if c == "}" {
                    stack.removeLast()
                }
                i += 1
            case .simpleStyle(let braces):
                if c == "'" {
                    // Quoted up to the next apostrophe, whatever follows.
                    var j = i + 1
                    while j < n && s[j] != "'" { j += 1 }
                    if j == n { return (deepest, nil) }  // ICU: unterminated quote
                    i = j + 1
                    continue
                }
                if c == "{" {
                    stack[stack.count - 1] = .simpleStyle(braces: braces + 1)
                } else if c == "}" {
                    if braces > 0 {
                        stack[stack.count - 1] = .simpleStyle(braces: braces - 1)
                    } else {
                        stack.removeLast()
                    }
                }
                i += 1
            }
        }
        return (deepest, nil)
    }

    /// 1-based line and column (in scalars) of `offset`.
    func position(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for k in 0..<offset where scalars[k] == "\n" {
            line += 1
            lineStart = k + 1
        }
        return (line, offset - lineStart + 1)
    }
}
