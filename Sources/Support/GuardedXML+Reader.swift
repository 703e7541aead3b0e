/// A streaming XML reader with limits: bytes go in as they arrive (``feed(_:_:)``), elements and text come
/// out as events, and nothing but the unfinished last token is kept, so an answer of any size is read in
/// bounded memory. Elements nested deeper than ``Limits/depth``, a tag (or comment or processing
/// instruction) longer than ``Limits/tagBytes``, a DOCTYPE (unless allowed), bytes that are not UTF-8 or
/// characters XML does not allow, an undeclared entity or namespace prefix, and every well-formedness
/// error end the reading with a ``GuardedXMLError`` naming the line and column. Namespaces are resolved;
/// text is given as its bytes (entities and character references decoded, line ends as they came).
///
/// ```swift
/// var reader = GuardedXMLReader()
/// var names: [String] = []
/// try reader.feed(Array(#"<d:multistatus xmlns:d="DAV:"><d:response/></d:multistatus>"#.utf8)) { event in
///     if case .start(_, let name) = event { names.append(name) }
/// }
/// try reader.finish()
/// print(names)   // ["multistatus", "response"]
/// ```
package struct GuardedXMLReader {
    /// What one document may hold.
    package struct Limits: Sendable {
        /// The deepest nesting of elements.
        package var depth: Int
        /// The longest tag, comment, processing instruction or DOCTYPE, in bytes.
        package var tagBytes: Int

        package init(depth: Int = 256, tagBytes: Int = 1 << 20) {
            self.depth = depth
            self.tagBytes = tagBytes
        }
    }

    /// What the reader found.
    package enum Event {
        /// An element starts (its namespace URI, "" when none, and its local name).
        case start(namespace: String, name: String)
        /// Some of an element's text (an element's text may come in many pieces).
        case text(ArraySlice<UInt8>)
        /// The element last started ends.
        case end
    }

    package let limits: Limits
    /// How the error for elements nested too deep begins.
    package static let tooDeep = "elements nested deeper than"
    package let allowsDoctype: Bool
    private var pending: [UInt8] = []
    private var inCDATA = false
    /// The open elements' qualified names, and how many namespace bindings each added.
    private var open: [(name: [UInt8], bindings: Int)] = []
    private var bindings: [(prefix: [UInt8], uri: String)] = []
    private var rootSeen = false
    /// The position of `pending[0]` in the document.
    private var line = 1
    private var column = 1

    package init(limits: Limits = Limits(), allowsDoctype: Bool = false) {
        self.limits = limits
        self.allowsDoctype = allowsDoctype
    }

    /// How deep the reader is: the number of elements open.
    package var depth: Int { open.count }

    /// Reads `bytes` (the next part of the document), calling `handler` for each complete event; an error
    /// thrown by `handler` ends the reading and is rethrown as it is.
    package mutating func feed(_ bytes: some Collection<UInt8>, _ handler: (Event) throws -> Void) throws {
        pending.append(contentsOf: bytes)
        let used = try scan(final: false, handler)
        advancePosition(over: used)
        pending.removeFirst(used)
    }

    /// Ends the document: throws when it is unfinished (an open element, a cut tag) or has no element.
    package mutating func finish(_ handler: (Event) throws -> Void = { _ in }) throws {
        let used = try scan(final: true, handler)
        if used < pending.count { throw failure(at: used, "a tag is not finished") }
        guard rootSeen else { throw failure(at: used, "no XML element here: the document is empty") }
        guard open.isEmpty else { throw failure(at: used, "'</' is expected: an element is not closed") }
    }

    // MARK: Scanning

    private static let lt = UInt8(ascii: "<")
    private static let amp = UInt8(ascii: "&")
    private static let gt = UInt8(ascii: ">")

    /// Reads the complete tokens of `pending`; returns how many bytes it used.
    private mutating func scan(final: Bool, _ handler: (Event) throws -> Void) throws -> Int {
        var pos = 0
        let end = pending.count
        while pos < end {
            if inCDATA {
                guard let close = find(Array("]]>".utf8), from: pos) else {
                    // All but a possible start of "]]>" and of a cut UTF-8 sequence.
                    let cut = Self.characterBoundary(pending, before: max(pos, end - 2), from: pos)
                    if cut > pos { try text(pos, cut, handler) }
                    return cut
                }
                if close > pos { try text(pos, close, handler) }
                inCDATA = false
                pos = close + 3
                continue
            }
            let b = pending[pos]
            if b == Self.lt {
                guard let next = try markup(at: pos, final: final, handler) else { return pos }
                pos = next
            } else if b == Self.amp {
                guard let semicolon = pending[pos..<min(end, pos + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                    if end - pos < 12 && !final { return pos }
                    throw failure(at: pos, "an '&' that starts no entity: write &amp; for a literal '&'")
                }
                guard !open.isEmpty else { throw failure(at: pos, "text outside the document element") }
                let decoded = try entity(pending[(pos + 1)..<semicolon], at: pos)
                try handler(.text(decoded[...]))
                pos = semicolon + 1
            } else {
                var stop = pos
                while stop < end && pending[stop] != Self.lt && pending[stop] != Self.amp { stop += 1 }
                if stop == end && !final {
                    stop = Self.characterBoundary(pending, before: end, from: pos)
                    if stop == pos { return pos }
                }
                if open.isEmpty {
                    if let k = pending[pos..<stop].firstIndex(where: { !Self.isSpace($0) }) {
                        throw failure(
                            at: k,
                            rootSeen
                                ? "extra content after the end of the document (one root element is allowed)"
                                : "no XML element here: the document does not start with '<'")
                    }
                } else {
                    try text(pos, stop, handler)
                }
                pos = stop
            }
        }
        return pos
    }

    /// A tag, comment, CDATA start, processing instruction or DOCTYPE at `pos`: the position after it, or nil
    /// when it is not complete yet.
    private mutating func markup(at pos: Int, final: Bool, _ handler: (Event) throws -> Void) throws -> Int? {
        let end = pending.count
        func complete(_ close: String, from start: Int) throws -> Int? {
            if let at = find(Array(close.utf8), from: start) { return at }
            if end - pos > limits.tagBytes {
                throw failure(at: pos, "a tag, comment or instruction longer than \(limits.tagBytes) bytes")
            }
            return nil
        }
        guard end - pos >= 2 else { return nil }
        if pending[pos + 1] == UInt8(ascii: "!") {
            guard end - pos >= 9 || final else { return nil }
            let head = pending[pos..<min(end, pos + 9)]
            if head.starts(with: "<!--".utf8) {
                guard let close = try complete("-->", from: pos + 4) else { return nil }
                try check(pos + 4, close)
                return close + 3
            }
            if head.elementsEqual("<![CDATA[".utf8) {
                guard !open.isEmpty else { throw failure(at: pos, "text outside the document element") }
                inCDATA = true
                return pos + 9
            }
            guard head.map({ $0 | 0x20 }).elementsEqual("<!doctype".utf8) else {
                throw failure(at: pos, "'<!' starts no comment, CDATA section or DOCTYPE")
            }
            guard allowsDoctype else { throw failure(at: pos, "a DOCTYPE (entity definitions) is not accepted here") }
            // Up to the '>' outside the internal subset's brackets.
            var nesting = 0
            var k = pos + 9
            while k < end {
                if pending[k] == UInt8(ascii: "[") { nesting += 1 }
                if pending[k] == UInt8(ascii: "]") { nesting -= 1 }
                if pending[k] == Self.gt && nesting <= 0 { return k + 1 }
                k += 1
            }
            _ = try complete(">", from: end)
            return nil
        }
        if pending[pos + 1] == UInt8(ascii: "?") {
            guard let close = try complete("?>", from: pos + 2) else { return nil }
            try check(pos + 2, close)
            return close + 2
        }
        // A start or end tag: up to the '>' outside quotes.
        var quote: UInt8 = 0
        var k = pos + 1
        while k < end {
            let c = pending[k]
            if quote != 0 {
                if c == quote {
                    quote = 0
                } else if c == Self.lt {
                    throw failure(at: k, "a '<' inside an attribute value: write &lt;")
                }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == Self.gt {
                break
            } else if c == Self.lt {
                throw failure(at: k, "'>' is expected to end the tag")
            }
            k += 1
        }
        guard k < end else {
            if end - pos > limits.tagBytes { throw failure(at: pos, "a tag longer than \(limits.tagBytes) bytes") }
            return nil
        }
        try check(pos + 1, k)
        if pending[pos + 1] == UInt8(ascii: "/") {
            try endTag(pos, k, handler)
        } else {
            try startTag(pos, k, handler)
        }
        return k + 1
    }

    private mutating func endTag(_ pos: Int, _ close: Int, _ handler: (Event) throws -> Void) throws {
        var last = close
        while last > pos + 2 && Self.isSpace(pending[last - 1]) { last -= 1 }
        let name = Array(pending[(pos + 2)..<last])
        guard let top = open.last, top.name == name else {
            throw failure(at: pos, "the closing tag does not match the element that is open")
        }
        open.removeLast()
        bindings.removeLast(top.bindings)
        try handler(.end)
    }

    private mutating func startTag(_ pos: Int, _ close: Int, _ handler: (Event) throws -> Void) throws {
        if open.isEmpty && rootSeen {
            throw failure(at: pos, "extra content after the end of the document (one root element is allowed)")
        }
        var last = close
        let selfClosing = pending[close - 1] == UInt8(ascii: "/")
        if selfClosing { last -= 1 }
        var k = pos + 1
        while k < last && !Self.isSpace(pending[k]) { k += 1 }
        let name = Array(pending[(pos + 1)..<k])
        guard Self.isName(name) else { throw failure(at: pos + 1, "a name is expected here (an element name)") }
        guard open.count < limits.depth else {
            throw failure(at: pos, "\(Self.tooDeep) \(limits.depth)")
        }
        // Attributes: only the namespace declarations matter.
        var added = 0
        while k < last {
            while k < last && Self.isSpace(pending[k]) { k += 1 }
            guard k < last else { break }
            let nameStart = k
            while k < last && pending[k] != UInt8(ascii: "=") && !Self.isSpace(pending[k]) { k += 1 }
            let attribute = Array(pending[nameStart..<k])
            while k < last && Self.isSpace(pending[k]) { k += 1 }
            guard k < last, pending[k] == UInt8(ascii: "="), Self.isName(attribute) else {
                throw failure(at: nameStart, "an attribute needs a name, '=' and a quoted value (name=\"value\")")
            }
            k += 1
            while k < last && Self.isSpace(pending[k]) { k += 1 }
            guard k < last, pending[k] == UInt8(ascii: "\"") || pending[k] == UInt8(ascii: "'") else {
                throw failure(at: k, "an attribute value must be quoted (name=\"value\")")
            }
            let quote = pending[k]
            let valueStart = k + 1
            guard let valueEnd = pending[valueStart..<last].firstIndex(of: quote) else {
                throw failure(at: k, "a quoted value is not closed")
            }
            k = valueEnd + 1
            let xmlns = Array("xmlns".utf8)
            if attribute == xmlns || attribute.starts(with: xmlns + [UInt8(ascii: ":")]) {
                let prefix = attribute == xmlns ? [] : Array(attribute.dropFirst(6))
                let uri = try attributeValue(valueStart, valueEnd)
                bindings.append((prefix, uri))
                added += 1
            }
        }
        let (prefix, local) = Self.split(name)
        let namespace: String
        if let prefix {
            guard let uri = lookup(prefix) else {
                throw failure(
                    at: pos + 1, "the namespace prefix '\(String(decoding: prefix, as: UTF8.self))' is not declared")
            }
            namespace = uri
        } else {
            namespace = lookup([]) ?? ""
        }
        rootSeen = true
        open.append((name, added))
        try handler(.start(namespace: namespace, name: String(decoding: local, as: UTF8.self)))
        if selfClosing {
            open.removeLast()
            bindings.removeLast(added)
            try handler(.end)
        }
    }

    private func lookup(_ prefix: [UInt8]) -> String? {
        if prefix == Array("xml".utf8) { return "http://www.w3.org/XML/1998/namespace" }
        return bindings.last { $0.prefix == prefix }?.uri
    }

    private static func split(_ name: [UInt8]) -> (prefix: [UInt8]?, local: ArraySlice<UInt8>) {
        guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else { return (nil, name[...]) }
        return (Array(name[..<colon]), name[(colon + 1)...])
    }

    /// An attribute value with its entities decoded.
    private func attributeValue(_ start: Int, _ end: Int) throws -> String {
        var out: [UInt8] = []
        var k = start
        while k < end {
            if pending[k] == Self.amp {
                guard let semicolon = pending[k..<end].firstIndex(of: UInt8(ascii: ";")) else {
                    throw failure(at: k, "an '&' that starts no entity: write &amp; for a literal '&'")
                }
                out += try entity(pending[(k + 1)..<semicolon], at: k)
                k = semicolon + 1
            } else {
                out.append(pending[k])
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `&name;` (`name` without `&` and `;`).
    private func entity(_ name: ArraySlice<UInt8>, at pos: Int) throws -> [UInt8] {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return [Self.amp]
        case "lt": return [Self.lt]
        case "gt": return [Self.gt]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        case let text where text.hasPrefix("#"):
            let digits = text.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value),
                value == 0x9 || value == 0xA || value == 0xD || value >= 0x20, value != 0xFFFE, value != 0xFFFF
            else { throw failure(at: pos, "a character reference (&#…;) is not a valid character") }
            return Array(String(Character(scalar)).utf8)
        default:
            throw failure(at: pos, "an undeclared entity (&name;): XML knows &amp; &lt; &gt; &quot; &apos; only")
        }
    }

    /// Gives `pending[start..<end]` as text, once checked.
    private func text(_ start: Int, _ end: Int, _ handler: (Event) throws -> Void) throws {
        try check(start, end)
        try handler(.text(pending[start..<end]))
    }

    /// Throws at the first byte of `pending[start..<end]` that is not UTF-8 or is a character XML does not
    /// allow.
    private func check(_ start: Int, _ end: Int) throws {
        let bad: Int? = pending.withUnsafeBufferPointer { p in
            var i = start
            while i < end {
                let b = p[i]
                if b < 0x80 {
                    if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return i }
                    i += 1
                    continue
                }
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                let n: Int
                switch b {
                case 0xC2...0xDF: n = 2
                case 0xE0: (n, low) = (3, 0xA0)
                case 0xED: (n, high) = (3, 0x9F)
                case 0xE1...0xEF: n = 3
                case 0xF0: (n, low) = (4, 0x90)
                case 0xF4: (n, high) = (4, 0x8F)
                case 0xF1...0xF3: n = 4
                default: return i
                }
                guard i + n <= end, p[i + 1] >= low, p[i + 1] <= high else { return i }
                if n > 2 && p[i + 2] & 0xC0 != 0x80 { return i }
                if n > 3 && p[i + 3] & 0xC0 != 0x80 { return i }
                i += n
            }
            return nil
        }
        if let bad {
            throw failure(
                at: bad, pending[bad] < 0x80 ? "a character that XML does not allow" : "not valid UTF-8")
        }
    }

    // MARK: Helpers

    private func find(_ word: [UInt8], from start: Int) -> Int? {
        guard pending.count >= word.count, start <= pending.count - word.count else { return nil }
        var k = start
        while k <= pending.count - word.count {
            if pending[k] == word[0] && pending[k..<(k + word.count)].elementsEqual(word) { return k }
            k += 1
        }
        return nil
    }

    /// The greatest offset ≤ `limit` (and > `start`, else `limit`) where `bytes[start..<offset]` does not
    /// end inside a UTF-8 sequence (bytes that are not UTF-8 are left whole, for the check to refuse).
    private static func characterBoundary(_ bytes: [UInt8], before limit: Int, from start: Int) -> Int {
        var back = limit
        while back > start && limit - back < 4 && bytes[back - 1] & 0xC0 == 0x80 { back -= 1 }
        guard back > start, bytes[back - 1] >= 0xC0 else { return limit }
        let lead = bytes[back - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return back - 1 + length <= limit ? limit : back - 1
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func isName(_ name: [UInt8]) -> Bool {
        guard let first = name.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "."),
            !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        return !name.contains { $0 < 0x21 || "<>&\"'=/!?".utf8.contains($0) }
    }

    private mutating func advancePosition(over count: Int) {
        for k in 0..<count {
            if pending[k] == 0x0A {
                line += 1
                column = 1
            } else if pending[k] & 0xC0 != 0x80 {
                column += 1
            }
        }
    }

    private func failure(at offset: Int, _ message: String) -> GuardedXMLError {
        var (l, c) = (line, column)
        for k in 0..<min(offset, pending.count) {
            if pending[k] == 0x0A {
                l += 1
                c = 1
            } else if pending[k] & 0xC0 != 0x80 {
                c += 1
            }
        }
        return GuardedXMLError(line: l, column: c, message: message)
    }
}
