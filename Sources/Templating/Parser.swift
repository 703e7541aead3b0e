/// Turns Mustache source into the node tree of a compiled template: tags, standalone lines, delimiter
/// changes, sections, partials, parents and blocks. Errors carry the template's name, line and column.
struct Parser {
    private enum TagKind: Equatable {
        case variable(escaped: Bool)
        case section, inverted, close, comment, delimiters, block
        case partial(dynamic: Bool)
        case parent(dynamic: Bool)

        var canStandAlone: Bool {
            if case .variable = self { return false }
            return true
        }
    }

    private struct Token {
        enum Kind {
            case text
            case tag(TagKind)
        }
        var kind: Kind
        var start: Int
        var end: Int
        /// Tag content (name, partial name, new delimiters), trimmed.
        var content: String = ""
        var standalone = false
        var indent: [UInt8] = []
        var removed = false
        /// A block opened and closed alone on its line (`  {{$b}}{{/b}}`): the line stays, and the
        /// whitespace before it indents the lines after the first of an override.
        var inlinePair = false
        var openDelimiter: [UInt8] = []
        var closeDelimiter: [UInt8] = []
        var isText: Bool { if case .text = kind { return true } else { return false } }
        var tagKind: TagKind? { if case .tag(let k) = kind { return k } else { return nil } }
    }

    let source: [UInt8]
    /// The same text as a String: sections keep their raw text as slices of it (no copies).
    let sourceText: String
    let templateName: String
    private var lineStarts: [Int] = [0]
    /// Where the last position was asked for: positions are found by moving forward from there, so
    /// the tags of a template cost time in proportion to its length, however many share a line.
    private let cursor = Cursor()
    /// Bytes examined by the position and delimiter searches (to test that parsing stays linear).
    var work: Int { cursor.work }

    final class Cursor {
        var offset = 0
        var line = 1
        var column = 1
        var work = 0
    }

    init(source: String, templateName: String) {
        self.source = Array(source.utf8)
        self.sourceText = source
        self.templateName = templateName
        for (i, b) in self.source.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
    }

    static let defaultOpen: [UInt8] = Array("{{".utf8)
    static let defaultClose: [UInt8] = Array("}}".utf8)

    /// Parses the whole source, starting with the given delimiters.
    func parse(openDelimiter: [UInt8] = Parser.defaultOpen, closeDelimiter: [UInt8] = Parser.defaultClose) throws
        -> [Node]
    {
        var tokens = try tokenize(open: openDelimiter, close: closeDelimiter)
        markStandaloneLines(&tokens)
        var index = 0
        return try build(tokens, &index, closing: nil, depth: 0)
    }

    // MARK: positions and errors

    /// The line and column (in Unicode scalars) of a byte offset. Moving forward from the previous
    /// answer costs the bytes in between; going back starts again from the line's beginning.
    func position(_ offset: Int) -> SourcePosition {
        let offset = min(offset, source.count)
        if offset < cursor.offset {
            var lo = 0
            var hi = lineStarts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
            }
            cursor.offset = lineStarts[lo]
            cursor.line = lo + 1
            cursor.column = 1
        }
        cursor.work += offset - cursor.offset
        var column = cursor.column
        var line = cursor.line
        source.withUnsafeBufferPointer { bytes in
            for i in cursor.offset..<offset {
                let b = bytes[i]
                if b == 0x0A {
                    line += 1
                    column = 1
                } else if b & 0xC0 != 0x80 {
                    column += 1  // a scalar starts here (UTF-8 continuation bytes do not count)
                }
            }
        }
        cursor.offset = offset
        cursor.line = line
        cursor.column = column
        return SourcePosition(line: line, column: column)
    }

    private func error(_ offset: Int, _ message: String) -> TemplatingError {
        let p = position(offset)
        return .parse(template: templateName, line: p.line, column: p.column, message: message)
    }

    // MARK: tokens

    /// A delimiter to search for. Short ones (the usual `{{`, `}}`) are found by a plain scan, which
    /// looks at each byte at most `count` times; longer ones by Knuth–Morris–Pratt, which looks at each
    /// byte a bounded number of times whatever the delimiter — so a search is linear either way.
    struct Needle {
        let bytes: [UInt8]
        /// KMP failure function (only for long needles).
        let failure: [Int]

        static let plainScanLimit = 4

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            guard bytes.count > Needle.plainScanLimit else {
                failure = []
                return
            }
            var f = [Int](repeating: 0, count: bytes.count)
            var k = 0
            for i in 1..<bytes.count {
                while k > 0 && bytes[i] != bytes[k] { k = f[k - 1] }
                if bytes[i] == bytes[k] { k += 1 }
                f[i] = k
            }
            failure = f
        }
    }

    private func find(_ needle: Needle, from: Int) -> Int? {
        let pattern = needle.bytes
        let m = pattern.count
        guard m > 0, source.count >= m, from <= source.count - m else { return nil }
        let found: Int? = source.withUnsafeBufferPointer { s in
            if needle.failure.isEmpty {
                var i = from
                let last = s.count - m
                let first = pattern[0]
                while i <= last {
                    if s[i] == first {
                        var j = 1
                        while j < m && s[i + j] == pattern[j] { j += 1 }
                        if j == m { return i }
                    }
                    i += 1
                }
                return nil
            }
            var k = 0
            for i in from..<s.count {
                while k > 0 && s[i] != pattern[k] { k = needle.failure[k - 1] }
                if s[i] == pattern[k] { k += 1 }
                if k == m { return i - m + 1 }
            }
            return nil
        }
        cursor.work += (found.map { $0 + m } ?? source.count) - from
        return found
    }

    private func text(_ a: Int, _ b: Int) -> String { String(decoding: source[a..<b], as: UTF8.self) }

    /// A slice of the source sharing its storage (sections nested n deep would otherwise copy their
    /// text n times). Both offsets are at a delimiter's edge, and a delimiter (whole UTF-8 characters)
    /// can only match at character boundaries, so the slice is valid text.
    private func rawText(_ a: Int, _ b: Int) -> Substring {
        let utf8 = sourceText.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: a)
        return Substring(utf8[start..<utf8.index(start, offsetBy: b - a)])
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    private func trimmed(_ a: Int, _ b: Int) -> String {
        var a = a
        var b = b
        while a < b && (Parser.isBlank(source[a]) || source[a] == 0x0A || source[a] == 0x0D) { a += 1 }
        while b > a && (Parser.isBlank(source[b - 1]) || source[b - 1] == 0x0A || source[b - 1] == 0x0D) { b -= 1 }
        return text(a, b)
    }

    private func tokenize(open startOpen: [UInt8], close startClose: [UInt8]) throws -> [Token] {
        var tokens: [Token] = []
        var open = startOpen
        var close = startClose
        var openNeedle = Needle(open)
        var closeNeedle = Needle(close)
        var rawCloseNeedle = Needle([UInt8(ascii: "}")] + close)
        var delimiterCloseNeedle = Needle([UInt8(ascii: "=")] + close)
        var i = 0
        func addText(_ a: Int, _ b: Int) {
            var s = a
            var k = a
            while k < b {
                if source[k] == 0x0A {
                    tokens.append(Token(kind: .text, start: s, end: k + 1))
                    s = k + 1
                }
                k += 1
            }
            if s < b { tokens.append(Token(kind: .text, start: s, end: b)) }
        }
        while i < source.count {
            guard let tagStart = find(openNeedle, from: i) else {
                addText(i, source.count)
                break
            }
            addText(i, tagStart)
            let k = tagStart + open.count
            let sigil: UInt8? = k < source.count ? source[k] : nil
            var kind: TagKind
            var contentStart = k + 1
            var terminator = closeNeedle
            switch sigil {
            case UInt8(ascii: "{"):
                kind = .variable(escaped: false)
                terminator = rawCloseNeedle
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .inverted
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: "$"): kind = .block
            case UInt8(ascii: "="):
                kind = .delimiters
                terminator = delimiterCloseNeedle
            case UInt8(ascii: ">"): kind = .partial(dynamic: false)
            case UInt8(ascii: "<"): kind = .parent(dynamic: false)
            default:
                kind = .variable(escaped: true)
                contentStart = k
            }
            guard let contentEnd = find(terminator, from: contentStart) else {
                throw error(tagStart, "unclosed tag: expected '\(String(decoding: terminator.bytes, as: UTF8.self))'")
            }
            let tagEnd = contentEnd + terminator.bytes.count
            var content = trimmed(contentStart, contentEnd)
            var token = Token(kind: .text, start: tagStart, end: tagEnd)
            token.openDelimiter = open
            token.closeDelimiter = close
            switch kind {
            case .delimiters:
                let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
                    throw error(
                        tagStart,
                        "bad delimiter change '\(content)': expected two delimiters separated by space, without '='")
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
                openNeedle = Needle(open)
                closeNeedle = Needle(close)
                rawCloseNeedle = Needle([UInt8(ascii: "}")] + close)
                delimiterCloseNeedle = Needle([UInt8(ascii: "=")] + close)
            case .partial, .parent:
                if content.hasPrefix("*") {
                    content = String(content.dropFirst()).trimmingBlanks()
                    kind = kind == .partial(dynamic: false) ? .partial(dynamic: true) : .parent(dynamic: true)
                }
                if content.isEmpty { throw error(tagStart, "empty partial name") }
            case .comment:
                break
            case .variable, .section, .inverted, .close, .block:
                if content.isEmpty { throw error(tagStart, "empty tag: expected a name") }
                if content.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                    throw error(tagStart, "unexpected whitespace in name '\(content)'")
                }
                if kind != .block, content != ".",
                    content.hasPrefix(".") || content.hasSuffix(".") || content.contains("..")
                {
                    throw error(tagStart, "bad dotted name '\(content)'")
                }
            }
            token.kind = .tag(kind)
            token.content = content
            tokens.append(token)
            i = tagEnd
        }
        return tokens
    }

    /// Marks tags that stand alone on their line (only whitespace and non-output tags) and removes the
    /// line's whitespace and line ending; partials and blocks remember the indentation.
    private func markStandaloneLines(_ tokens: inout [Token]) {
        var lineStart = 0
        var t = 0
        while t < tokens.count {
            // A line ends with a text token ending in "\n", or at the last token.
            var lineEnd = t
            while lineEnd < tokens.count {
                let tok = tokens[lineEnd]
                if tok.isText && source[tok.end - 1] == 0x0A { break }
                lineEnd += 1
            }
            let last = min(lineEnd, tokens.count - 1)
            var tags = 0
            var ok = true
            var indent: [UInt8] = []
            var seenTag = false
            for j in lineStart...last {
                let tok = tokens[j]
                if let kind = tok.tagKind {
                    if !kind.canStandAlone {
                        ok = false
                        break
                    }
                    tags += 1
                    seenTag = true
                } else {
                    var end = tok.end
                    if source[end - 1] == 0x0A {
                        end -= 1
                        if end > tok.start && source[end - 1] == 0x0D { end -= 1 }
                    }
                    for b in source[tok.start..<end] where !Parser.isBlank(b) {
                        ok = false
                        break
                    }
                    if !ok { break }
                    if !seenTag { indent.append(contentsOf: source[tok.start..<end]) }
                }
            }
            let tagIndices = (lineStart...last).filter { !tokens[$0].isText }
            if ok && tags == 2, tokens[tagIndices[0]].tagKind == .block, tokens[tagIndices[1]].tagKind == .close,
                tokens[tagIndices[0]].content == tokens[tagIndices[1]].content, tagIndices[1] == tagIndices[0] + 1
            {
                tokens[tagIndices[0]].inlinePair = true
                tokens[tagIndices[0]].indent = indent
            } else if ok && tags > 0 {
                for j in lineStart...last {
                    if tokens[j].isText {
                        tokens[j].removed = true
                    } else {
                        tokens[j].standalone = true
                        tokens[j].indent = indent
                    }
                }
            }
            t = last + 1
            lineStart = t
        }
    }

    // MARK: tree

    private struct Open {
        let token: Token
    }

    /// Sections nested deeper than this are an error (the renderer recurses once per level).
    static let maxNesting = 256

    private func build(_ tokens: [Token], _ index: inout Int, closing open: Token?, depth: Int) throws -> [Node] {
        if depth > Parser.maxNesting, let open {
            throw error(open.start, "sections nest more than \(Parser.maxNesting) levels deep")
        }
        var nodes: [Node] = []
        var pendingText: [UInt8] = []
        func flush() {
            if !pendingText.isEmpty {
                nodes.append(.text(pendingText))
                pendingText = []
            }
        }
        while index < tokens.count {
            let tok = tokens[index]
            index += 1
            guard let kind = tok.tagKind else {
                if !tok.removed { pendingText.append(contentsOf: source[tok.start..<tok.end]) }
                continue
            }
            let pos = position(tok.start)
            switch kind {
            case .comment, .delimiters:
                continue
            case .variable(let escaped):
                flush()
                nodes.append(.variable(TagName(tok.content), escaped: escaped, pos))
            case .section, .inverted, .block, .parent:
                flush()
                let children = try build(tokens, &index, closing: tok, depth: depth + 1)
                let closeTok = tokens[index - 1]
                switch kind {
                case .section, .inverted:
                    let section = SectionNode(
                        name: TagName(tok.content), nodes: children, rawText: rawText(tok.end, closeTok.start),
                        openDelimiter: String(decoding: tok.openDelimiter, as: UTF8.self),
                        closeDelimiter: String(decoding: tok.closeDelimiter, as: UTF8.self), position: pos)
                    nodes.append(kind == .section ? .section(section) : .inverted(section))
                case .block:
                    nodes.append(
                        .block(
                            BlockNode(
                                name: tok.content, nodes: children, indent: blockIndent(tok, closeTok),
                                indentsFirstLine: !tok.inlinePair, position: pos)))
                case .parent(let dynamic):
                    var blocks: [String: BlockNode] = [:]
                    for child in children {
                        if case .block(let b) = child, blocks[b.name] == nil { blocks[b.name] = b }
                    }
                    let partial = PartialNode(
                        name: tok.content, dynamic: dynamic,
                        indent: tok.standalone ? tok.indent : [], position: pos)
                    nodes.append(.parent(ParentNode(partial: partial, blocks: blocks)))
                default:
                    break
                }
            case .partial(let dynamic):
                flush()
                nodes.append(
                    .partial(
                        PartialNode(
                            name: tok.content, dynamic: dynamic,
                            indent: tok.standalone ? tok.indent : [], position: pos)))
            case .close:
                guard let open else {
                    throw error(tok.start, "closing tag '\(tok.content)' without an open section")
                }
                guard open.content == tok.content else {
                    let p = position(open.start)
                    throw error(
                        tok.start,
                        "closing tag '\(tok.content)' does not match '\(open.content)' opened at line \(p.line), column \(p.column)"
                    )
                }
                flush()
                return nodes
            }
        }
        if let open {
            throw error(
                open.start,
                "unclosed section '\(open.content)': expected '{{/\(open.content)}}' before the end of the template")
        }
        flush()
        return nodes
    }

    /// The indentation of a standalone block's content: the leading whitespace of its first line, or the
    /// tag's own indentation when the block opens and closes on one line.
    private func blockIndent(_ open: Token, _ close: Token) -> [UInt8]? {
        if open.inlinePair { return open.indent }
        guard open.standalone else { return nil }
        var i = open.end
        while i < close.start && source[i] != 0x0A { i += 1 }
        if i >= close.start { return open.indent }
        i += 1
        var indent: [UInt8] = []
        while i < source.count && Parser.isBlank(source[i]) {
            indent.append(source[i])
            i += 1
        }
        return indent
    }
}

extension String {
    func trimmingBlanks() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
