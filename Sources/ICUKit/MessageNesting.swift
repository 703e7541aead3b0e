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
        /// `{name` or `{name, type` — `commas` seen so far (the type's letters are kept by the scan).
        case argumentHead(commas: Int)
        /// Between the sub-messages of a plural/selectordinal/select argument.
        case keyedStyle(Kind)
        /// Between the sub-messages of a choice argument (`0#none|1#one|1<many`).
        case choiceStyle
        /// The style text of a simple argument (`number, ::currency/EUR`): braces are counted, not nested.
        case simpleStyle(braces: Int)
    }

    /// The pattern's UTF-8: every character of ICU's syntax is ASCII except `≤` (E2 89 A4), and no byte
    /// of a multi-byte character is ASCII, so the scan works on bytes.
    let bytes: [UInt8]

    init(_ pattern: String) { bytes = Array(pattern.utf8) }

    static let apostrophe = UInt8(ascii: "'")
    static let open = UInt8(ascii: "{")
    static let close = UInt8(ascii: "}")
    static let bar = UInt8(ascii: "|")
    static let hash = UInt8(ascii: "#")
    static let comma = UInt8(ascii: ",")
    static let less = UInt8(ascii: "<")

    /// The deepest level reached and, when it went over `limit`, where it did.
    func scan(limit: Int) -> (depth: Int, violation: (line: Int, column: Int)?) {
        bytes.withUnsafeBufferPointer { s in scan(s, limit: limit) }
    }

    private func scan(_ s: UnsafeBufferPointer<UInt8>, limit: Int) -> (depth: Int, violation: (line: Int, column: Int)?)
    {
        let n = s.count
        var stack: [Frame] = [.message(parent: .none)]
        var level = 0
        var deepest = 0
        // The type word of the argument being read (lowercased ASCII letters, packed; 0 = none yet).
        var typeWord: UInt64 = 0
        var typeLength = 0
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
                if c == Self.apostrophe {
                    guard i + 1 < n else { return (deepest, nil) }
                    let next = s[i + 1]
                    if next == Self.apostrophe {
                        i += 2
                        continue
                    }
                    let quotes =
                        next == Self.open || next == Self.close || (parent == .choice && next == Self.bar)
                        || (parent == .plural && next == Self.hash)
                    if !quotes {
                        i += 1
                        continue
                    }
                    // Quoted literal text up to the next single apostrophe ('' inside is one apostrophe).
                    var j = i + 2
                    while j < n {
                        if s[j] == Self.apostrophe {
                            if j + 1 < n && s[j + 1] == Self.apostrophe {
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
                if c == Self.open {
                    stack.append(.argumentHead(commas: 0))
                    typeWord = 0
                    typeLength = 0
                } else if parent != .none && c == Self.close {
                    stack.removeLast()
                    level -= 1
                    // In a choice argument the '}' ends the last sub-message and the argument itself.
                    if parent == .choice { stack.removeLast() }
                } else if parent == .choice && c == Self.bar {
                    stack.removeLast()
                    level -= 1
                }
                i += 1
            case .argumentHead(let commas):
                if c == Self.close {
                    stack.removeLast()
                } else if c == Self.comma {
                    if commas == 0 {
                        stack[stack.count - 1] = .argumentHead(commas: 1)
                    } else {
                        stack[stack.count - 1] = Self.style(typeWord, typeLength)
                    }
                } else if c == Self.open || c == Self.apostrophe {
                    return (deepest, nil)  // ICU: bad argument syntax; it parses no further.
                } else if commas == 1, (c | 0x20) >= UInt8(ascii: "a"), (c | 0x20) <= UInt8(ascii: "z") {
                    if typeLength < 13 { typeWord = typeWord << 5 | UInt64((c | 0x20) - UInt8(ascii: "a") + 1) }
                    typeLength += 1
                }
                i += 1
            case .keyedStyle(let kind):
                if c == Self.open {
                    if !enter(.message(parent: kind)) { return (deepest, position(i)) }
                } else if c == Self.close {
                    stack.removeLast()
                }
                i += 1
            case .choiceStyle:
                let lessOrEqual = c == 0xE2 && i + 2 < n && s[i + 1] == 0x89 && s[i + 2] == 0xA4  // ≤
                if c == Self.hash || c == Self.less || lessOrEqual {
                    if !enter(.message(parent: .choice)) { return (deepest, position(i)) }
                    if lessOrEqual { i += 2 }
                } else if c == Self.close {
                    stack.removeLast()
                }
                i += 1
            case .simpleStyle(let braces):
                if c == Self.apostrophe {
                    // Quoted up to the next apostrophe, whatever follows.
                    var j = i + 1
                    while j < n && s[j] != Self.apostrophe { j += 1 }
                    if j == n { return (deepest, nil) }  // ICU: unterminated quote
                    i = j + 1
                    continue
                }
                if c == Self.open {
                    stack[stack.count - 1] = .simpleStyle(braces: braces + 1)
                } else if c == Self.close {
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

    /// Letters as 5-bit codes; "selectordinal" (13 letters) loses its first letter's top bit, so a
    /// 13-letter type could be taken for it: then its braces are counted as nesting — a stricter count,
    /// never a looser one.
    static func packed(_ word: String) -> UInt64 {
        word.utf8.reduce(0) { $0 << 5 | UInt64($1 - UInt8(ascii: "a") + 1) }
    }
    static let pluralWord = packed("plural")
    static let selectOrdinalWord = packed("selectordinal")
    static let selectWord = packed("select")
    static let choiceWord = packed("choice")

    /// The style that follows `{name, type,` (ICU compares the type without regard to case).
    static func style(_ word: UInt64, _ length: Int) -> Frame {
        switch (word, length) {
        case (pluralWord, 6), (selectOrdinalWord, 13): return .keyedStyle(.plural)
        case (selectWord, 6): return .keyedStyle(.select)
        case (choiceWord, 6): return .choiceStyle
        default: return .simpleStyle(braces: 0)
        }
    }

    /// 1-based line and column (in Unicode scalars) of byte `offset`.
    func position(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for k in 0..<offset {
            let b = bytes[k]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
