import Foundation

/// The non-printf placeholders, markup and URLs of one text, as lint compares them between a source and its
/// translation: Mustache tags (`{{name}}`, `{{#section}}`), ICU MessageFormat arguments (`{count, plural, …}`,
/// with the plural selectors they list), HTML/XML tags and URLs.
///
/// ```swift
/// let scan = PlaceholderScan("{{name}} has {count, plural, one {# file} other {# files}} <b>here</b>")
/// scan.mustache        // ["name"]
/// scan.icu?["count"]   // "plural"
/// scan.markup          // ["<b>", "</b>"]
/// ```
struct PlaceholderScan: Equatable {
    /// Mustache tags as written between the braces, trimmed (comments left out), in order.
    var mustache: [String] = []
    /// ICU argument name → its type ("" for a plain `{name}`); nil when the text is not valid ICU syntax.
    var icu: [String: String]? = [:]
    /// The selectors of each ICU plural argument (`one`, `other`, `=0`).
    var pluralSelectors: [String: [String]] = [:]
    /// Markup tags, normalized to `<name>`, `</name>` or `<name/>`, in order.
    var markup: [String] = []
    /// URLs (http, https, ftp, mailto), in order.
    var urls: [String] = []

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let remainder = bytes.contains(UInt8(ascii: "{")) ? stripMustache(bytes) : bytes
        if remainder.contains(UInt8(ascii: "{")) {
            var parser = ICUScanner(bytes: remainder)
            if parser.message(depth: 0), parser.i == remainder.count {
                icu = parser.arguments
                pluralSelectors = parser.selectors
            } else {
                icu = nil
            }
        }
        if bytes.contains(UInt8(ascii: "<")) { markup = Self.tags(bytes) }
        if bytes.contains(UInt8(ascii: ":")), text.contains("://") || text.contains("mailto:") {
            urls = Self.urls(text)
        }
    }

    /// Removes `{{…}}` and `{{{…}}}` tags from `bytes`, recording them.
    private mutating func stripMustache(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        while i < bytes.count {
            if bytes[i] == open, i + 1 < bytes.count, bytes[i + 1] == open {
                let triple = i + 2 < bytes.count && bytes[i + 2] == open
                let start = i + (triple ? 3 : 2)
                var j = start
                // A tag's name holds no brace: `{{x} y}` is an ICU sub-message starting with an argument.
                while j < bytes.count, bytes[j] != close, bytes[j] != open { j += 1 }
                if j + 1 < bytes.count, bytes[j] == close, bytes[j + 1] == close, j > start {
                    let inner = String(decoding: bytes[start..<j], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    if !inner.hasPrefix("!") { mustache.append(triple ? "{" + inner + "}" : inner) }
                    i = j + 2
                    if triple, i < bytes.count, bytes[i] == close { i += 1 }
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    static func tags(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            var j = i + 1
            let closing = j < bytes.count && bytes[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            let nameStart = j
            while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
            guard j > nameStart, isLetter(bytes[nameStart]) else {
                i += 1
                continue
            }
            let name = String(decoding: bytes[nameStart..<j], as: UTF8.self).lowercased()
            var k = j
            while k < bytes.count, bytes[k] != UInt8(ascii: ">"), bytes[k] != UInt8(ascii: "<") { k += 1 }
            guard k < bytes.count, bytes[k] == UInt8(ascii: ">") else {
                i += 1
                continue
            }
            let selfClosing = k > j && bytes[k - 1] == UInt8(ascii: "/")
            out.append(closing ? "</\(name)>" : selfClosing ? "<\(name)/>" : "<\(name)>")
            i = k + 1
        }
        return out
    }

    static func urls(_ text: String) -> [String] {
        var out: [String] = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        let schemes = ["https://", "http://", "ftp://", "mailto:"].map { Array($0.unicodeScalars) }
        while i < scalars.count {
            guard let scheme = schemes.first(where: { s in scalars[i...].starts(with: s) }),
                i == 0 || !scalars[i - 1].properties.isAlphabetic
            else {
                i += 1
                continue
            }
            var j = i + scheme.count
            while j < scalars.count, !scalars[j].properties.isWhitespace,
                !"<>\"'()[]{}".unicodeScalars.contains(scalars[j]),
                scalars[j].isASCII
            {
                j += 1
            }
            // Sentence punctuation after a URL is not part of it.
            while j > i + scheme.count, ".,;:!?".unicodeScalars.contains(scalars[j - 1]) { j -= 1 }
            out.append(String(String.UnicodeScalarView(scalars[i..<j])))
            i = j
        }
        return out
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    static func isNameByte(_ b: UInt8) -> Bool {
        isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ":")
    }
}

/// A recursive reader of ICU MessageFormat syntax that keeps only argument names, types and plural selectors.
private struct ICUScanner {
    let bytes: [UInt8]
    var i = 0
    var arguments: [String: String] = [:]
    var selectors: [String: [String]] = [:]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Message text up to an unmatched `}` (left unread) or the end; false on a syntax error.
    mutating func message(depth: Int) -> Bool {
        guard depth < 32 else { return false }
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "'"):
                // '' is a quote; '{…' quotes up to the next lone quote; a quote before anything else is literal.
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "'") {
                    i += 2
                } else if i + 1 < bytes.count, "{}#|".utf8.contains(bytes[i + 1]) {
                    i += 1
                    while i < bytes.count, bytes[i] != UInt8(ascii: "'") { i += 1 }
                    i += 1
                } else {
                    i += 1
                }
            case UInt8(ascii: "{"):
                i += 1
                guard argument(depth: depth) else { return false }
            case UInt8(ascii: "}"):
                return depth > 0
            default: i += 1
            }
        }
        return depth == 0
    }

    mutating func word() -> String {
        skipSpace()
        let start = i
        while i < bytes.count, !",{}".utf8.contains(bytes[i]), bytes[i] != 0x20, bytes[i] != 0x0A, bytes[i] != 0x09 {
            i += 1
        }
        let w = String(decoding: bytes[start..<i], as: UTF8.self)
        skipSpace()
        return w
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 { i += 1 }
    }

    /// After `{`: `name}`, `name, type}`, `name, type, style}` or `name, plural|select…, selector {msg}…}`.
    mutating func argument(depth: Int) -> Bool {
        let name = word()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), i < bytes.count else {
            return false
        }
        if bytes[i] == UInt8(ascii: "}") {
            i += 1
            arguments[name] = arguments[name] ?? ""
            return true
        }
        guard bytes[i] == UInt8(ascii: ",") else { return false }
        i += 1
        let type = word().lowercased()
        arguments[name] = type
        guard i < bytes.count else { return false }
        if bytes[i] == UInt8(ascii: "}") {
            i += 1
            return true
        }
        guard bytes[i] == UInt8(ascii: ",") else { return false }
        i += 1
        if ["plural", "select", "selectordinal"].contains(type) {
            var found: [String] = []
            while true {
                var selector = word()
                if selector.hasPrefix("offset:") {
                    selector = word()
                }
                guard i < bytes.count else { return false }
                if selector.isEmpty && bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    break
                }
                guard bytes[i] == UInt8(ascii: "{") else { return false }
                i += 1
                found.append(selector)
                guard message(depth: depth + 1), i < bytes.count else { return false }
                i += 1  // the sub-message's }
            }
            if type == "plural" { selectors[name, default: []] += found }
            return true
        }
        // A style: skip to the matching brace.
        var level = 1
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "{") { level += 1 }
            if bytes[i] == UInt8(ascii: "}") {
                level -= 1
                if level == 0 {
                    i += 1
                    return true
                }
            }
            i += 1
        }
        return false
    }
}
