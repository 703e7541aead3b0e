import Foundation

/// Makes a pseudolanguage from development-language text, in Xcode's four styles, so that a layout can be
/// checked for accents, clipping, length and direction before any translation exists. What the code fills
/// in stays as written: printf specifiers (`%1$@`, `%lld`), `%#@variable@` substitutions and the `%arg` of
/// String Catalog substitution forms, ICU `{arg}` placeholders (a `plural`/`select` keeps its keywords and
/// its branches are pseudolocalized in turn, `#` included), Mustache tags (`{{name}}`, `{{#t}}`) and
/// addresses (`https://…`, `mailto:…`, a Markdown link's target).
///
/// ```swift
/// let accented = Pseudolocalizer(style: .accented)
/// accented.transform("Delete %d contacts?")          // "Ðéļéţé %d çöñţåçţš?"
/// Pseudolocalizer(style: .bounded).transform("OK")   // "[# OK #]"
/// ```
public struct Pseudolocalizer: Sendable, Hashable {
    /// Xcode's pseudolanguages.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// Letters with accents ("Ĥéļļö"): fonts and line heights.
        case accented
        /// Each string between `[# ` and ` #]`: clipped and concatenated strings.
        case bounded
        /// Every word twice: layouts that must grow.
        case double
        /// Text runs as right-to-left overrides (Android's `ar-XB`): mirrored layouts and bidi.
        case rtl

        /// The language the style writes when none is named: `en-XA`, or `ar-XB` for ``rtl`` (Android's
        /// pseudolocale names; `XA`…`XZ` are regions ISO 3166 leaves for private use).
        public var defaultLanguage: String { self == .rtl ? "ar-XB" : "en-XA" }
    }

    public var style: Style
    /// The language whose plural categories ICU `plural` arguments get (`en-XA` gets English ones).
    public var pluralLanguage: String

    public init(style: Style, pluralLanguage: String? = nil) {
        self.style = style
        self.pluralLanguage = pluralLanguage ?? style.defaultLanguage
    }

    /// True for a tag whose region is a private-use one (`en-XA`, `ar-XB`): a pseudolanguage.
    public static func isPseudoLanguage(_ tag: String) -> Bool {
        tag.split(separator: "-").dropFirst().contains { part in
            part.count == 2 && part.first == "X" && part.last.map { $0.isASCII && $0.isUppercase } == true
        }
    }

    /// The pseudolocalized `text`.
    public func transform(_ text: String) -> String {
        let chars = Array(text)
        var i = 0
        let pieces = Self.message(chars, &i, inPlural: false, nested: false, pluralLanguage: pluralLanguage)
        let body = render(pieces)
        return style == .bounded ? "[# " + body + " #]" : body
    }

    /// A run of text to change or a piece kept as written.
    enum Piece {
        case text(String)
        case kept(String)
        /// An ICU plural/select: its header (`{n, plural,`), its branches (selector, message).
        case choice(header: String, branches: [(selector: String, message: [Piece])], plural: Bool)
    }

    func render(_ pieces: [Piece]) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let s): out += change(s)
            case .kept(let s): out += s
            case .choice(let header, let branches, let plural):
                out += header
                // `offset:1 one` selects `one`.
                let present = Set(branches.map { $0.selector.split(separator: " ").last.map(String.init) ?? "" })
                var all = branches
                // Every plural category of the language, from `other` where the source has none of its own.
                if plural, let otherIndex = branches.firstIndex(where: { $0.selector.hasSuffix("other") }) {
                    let missing = PluralRulesCache.categories(for: pluralLanguage).map(\.rawValue).filter {
                        !present.contains($0)
                    }
                    let added = missing.map { (selector: $0, message: branches[otherIndex].message) }
                    all.insert(contentsOf: added, at: otherIndex)
                }
                for (selector, message) in all { out += " \(selector) {" + render(message) + "}" }
                out += "}"
            }
        }
        return out
    }

    static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let marked = Array("åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, marked))
    }()

    func change(_ text: String) -> String {
        switch style {
        case .accented: return String(text.map { Self.accents[$0] ?? $0 })
        case .bounded: return text
        case .double:
            var out = ""
            var word = ""
            func flush() {
                if !word.isEmpty { out += word + " " + word }
                word = ""
            }
            for c in text {
                if c.isLetter || c.isNumber {
                    word.append(c)
                } else {
                    flush()
                    out.append(c)
                }
            }
            flush()
            return out
        case .rtl:
            guard text.contains(where: \.isLetter) else { return text }
            // Leading and trailing spaces stay outside the override, as Android's ar-XB writes it.
            let core = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let range = text.range(of: core) else { return text }
            return String(text[..<range.lowerBound]) + "\u{200F}\u{202E}" + core + "\u{202C}\u{200F}"
                + String(text[range.upperBound...])
        }
    }

    // MARK: Reading a message

    /// Reads a message up to its end (or, when `nested`, up to the `}` closing it, which is consumed).
    static func message(_ c: [Character], _ i: inout Int, inPlural: Bool, nested: Bool, pluralLanguage: String)
        -> [Piece]
    {
        var pieces: [Piece] = []
        var text = ""
        func keep(_ s: String) {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.kept(s))
        }
        var depth = 0
        while i < c.count {
            let ch = c[i]
            if let end = linkEnd(c, i) ?? urlEnd(c, i) {
                keep(String(c[i..<end]))
                i = end
            } else if ch == "{", i + 1 < c.count, c[i + 1] == "{", let end = mustacheEnd(c, i) {
                keep(String(c[i..<end]))
                i = end
            } else if ch == "%", let end = printfEnd(c, i) {
                keep(String(c[i..<end]))
                i = end
            } else if ch == "{", let (piece, end) = argument(c, i, pluralLanguage: pluralLanguage) {
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(piece)
                i = end
            } else if ch == "#" && inPlural {
                keep("#")
                i += 1
            } else if ch == "'" && i + 1 < c.count && (c[i + 1] == "{" || c[i + 1] == "}" || c[i + 1] == "'") {
                // ICU quoting ('{', '') stays as written.
                var end = i + 1
                while end < c.count && c[end] != "'" { end += 1 }
                keep(String(c[i...min(end, c.count - 1)]))
                i = min(end + 1, c.count)
            } else if nested && ch == "}" && depth == 0 {
                i += 1
                break
            } else {
                if ch == "{" { depth += 1 }
                if ch == "}" { depth -= 1 }
                text.append(ch)
                i += 1
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    /// The end of a Markdown link's target starting at its `](` (`](https://example.com "title")`): the
    /// target is an address the text points to, kept as written while the link's words change.
    static func linkEnd(_ c: [Character], _ i: Int) -> Int? {
        guard c[i] == "]", i + 1 < c.count, c[i + 1] == "(" else { return nil }
        var j = i + 2
        while j < c.count, c[j] != ")", c[j] != "\n" { j += 1 }
        return j < c.count && c[j] == ")" ? j + 1 : nil
    }

    /// The end of an address starting at `i` (`https://…`, `mailto:…`, `www.…`, at the start of a word), up
    /// to a space, a quote or an angle bracket, without trailing punctuation.
    static func urlEnd(_ c: [Character], _ i: Int) -> Int? {
        guard c[i].isASCII, c[i].isLetter, i == 0 || !(c[i - 1].isLetter || c[i - 1].isNumber) else { return nil }
        var j = i
        while j < c.count, c[j].isASCII, c[j].isLetter || c[j].isNumber || "+.-".contains(c[j]) { j += 1 }
        let scheme = String(c[i..<j]).lowercased()
        let rest = String(c[j..<min(c.count, j + 3)])
        let starts =
            rest == "://" || (rest.hasPrefix(":") && ["mailto", "tel"].contains(scheme))
            || (scheme.hasPrefix("www.") && scheme.count > 4)
        guard starts else { return nil }
        while j < c.count, !c[j].isWhitespace, !"\"<>".contains(c[j]) { j += 1 }
        while j > i, ".,;:!?)'".contains(c[j - 1]) { j -= 1 }
        return j
    }

    /// The end of a Mustache tag starting at `i` (`{{…}}`, `{{{…}}}`).
    static func mustacheEnd(_ c: [Character], _ i: Int) -> Int? {
        let triple = i + 2 < c.count && c[i + 2] == "{"
        var j = i + (triple ? 3 : 2)
        while j + 1 < c.count {
            if c[j] == "}" && c[j + 1] == "}" {
                if triple { return j + 2 < c.count && c[j + 2] == "}" ? j + 3 : nil }
                return j + 2
            }
            if c[j] == "\n" { return nil }
            j += 1
        }
        return nil
    }

    /// The end of a printf specifier (`%%`, `%1$@`, `%-5.2lf`, `%#@name@`, `%2$#@name@`) or of the `%arg`
    /// of a String Catalog substitution form, starting at `i`.
    static func printfEnd(_ c: [Character], _ i: Int) -> Int? {
        var j = i + 1
        guard j < c.count else { return nil }
        if c[j] == "%" { return j + 1 }
        if c.count >= j + 3 && String(c[j..<(j + 3)]) == "arg" { return j + 3 }
        var k = j
        while k < c.count && c[k].isASCII && c[k].isNumber { k += 1 }
        if k > j && k < c.count && c[k] == "$" { j = k + 1 }
        if j + 1 < c.count && c[j] == "#" && c[j + 1] == "@" {
            var e = j + 2
            while e < c.count && c[e] != "@" && !c[e].isWhitespace { e += 1 }
            return e < c.count && c[e] == "@" && e > j + 2 ? e + 1 : nil
        }
        while j < c.count && "-+ #0'".contains(c[j]) { j += 1 }
        while j < c.count && c[j].isASCII && c[j].isNumber { j += 1 }
        if j < c.count && c[j] == "." {
            j += 1
            while j < c.count && c[j].isASCII && c[j].isNumber { j += 1 }
        }
        while j < c.count && "hlqLzjt".contains(c[j]) { j += 1 }
        guard j < c.count, "@dDiuUxXoOfFeEgGaAsScCp".contains(c[j]) else { return nil }
        return j + 1
    }

    /// An ICU argument starting at `i` (`{name}`, `{n, number}`, `{n, plural, one {…} other {…}}`) and its
    /// end; nil when the brace does not open one (then it is text).
    static func argument(_ c: [Character], _ start: Int, pluralLanguage: String) -> (Piece, Int)? {
        var i = start + 1
        func spaces() { while i < c.count && c[i].isWhitespace { i += 1 } }
        func word() -> String {
            var w = ""
            while i < c.count, c[i].isLetter || c[i].isNumber || c[i] == "_" || c[i] == "-" {
                w.append(c[i])
                i += 1
            }
            return w
        }
        spaces()
        guard !word().isEmpty else { return nil }
        spaces()
        guard i < c.count else { return nil }
        if c[i] == "}" { return (.kept(String(c[start...i])), i + 1) }
        guard c[i] == "," else { return nil }
        i += 1
        spaces()
        let type = word()
        guard !type.isEmpty else { return nil }
        if ["plural", "select", "selectordinal"].contains(type) {
            spaces()
            guard i < c.count, c[i] == "," else { return nil }
            i += 1
            let header = String(c[start..<i])
            var branches: [(selector: String, message: [Piece])] = []
            while true {
                spaces()
                guard i < c.count else { return nil }
                if c[i] == "}" { break }
                var selector = ""
                while i < c.count, !c[i].isWhitespace, c[i] != "{", c[i] != "}" {
                    selector.append(c[i])
                    i += 1
                }
                spaces()
                if selector.hasPrefix("offset:") {
                    // `offset:1` belongs to the header; keep it with the first branch's selector.
                    guard i < c.count, c[i] != "{" else { return nil }
                    var next = ""
                    while i < c.count, !c[i].isWhitespace, c[i] != "{", c[i] != "}" {
                        next.append(c[i])
                        i += 1
                    }
                    selector += " " + next
                    spaces()
                }
                guard !selector.isEmpty, i < c.count, c[i] == "{" else { return nil }
                i += 1
                let inner = message(c, &i, inPlural: type != "select", nested: true, pluralLanguage: pluralLanguage)
                branches.append((selector, inner))
            }
            return (.choice(header: header, branches: branches, plural: type == "plural"), i + 1)
        }
        // Any other type (number, date, spellout, …): kept whole, nested braces included.
        var depth = 1
        while i < c.count {
            if c[i] == "{" { depth += 1 }
            if c[i] == "}" {
                depth -= 1
                if depth == 0 { return (.kept(String(c[start...i])), i + 1) }
            }
            i += 1
        }
        return nil
    }
}
