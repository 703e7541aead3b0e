/// A query read as fzf's extended search syntax: words separated by spaces, each matched on its own, in
/// any order. A word may be written `'exact` (its letters in a row, even in fuzzy mode), `^prefix` (a field
/// — the name, an email, the organization… — starts with it), `suffix$` (a field ends with it), `^whole$`,
/// and any of these negated with a leading `!` (no field holds it). A word that is only such marks (`!`,
/// `^`, `'`, `$` while it is being typed) matches everything.
///
/// ```swift
/// let pattern = SearchPattern("^fel !example.org gmail$")
/// pattern.terms.map(\.text)      // ["fel", "example.org", "gmail"]
/// pattern.terms.map(\.match)     // [.prefix, .exact, .suffix]
/// pattern.terms.map(\.negated)   // [false, true, false]
/// ```
public struct SearchPattern: Sendable, Hashable {
    /// How a term matches.
    public enum Match: Sendable, Hashable {
        /// The mode's own way: a substring (plain search), a word start (keyword search), or its letters in
        /// order with gaps (fuzzy search).
        case plain
        /// Its letters in a row, anywhere (`'word`; every `!word` too, as in fzf).
        case exact
        /// At the start of a field (`^word`).
        case prefix
        /// At the end of a field (`word$`).
        case suffix
        /// A whole field (`^word$`).
        case whole
    }

    /// One word of the query.
    public struct Term: Sendable, Hashable {
        /// The word without its marks, as typed.
        public var text: String
        public var match: Match
        /// `!word`: the contact must not hold it.
        public var negated: Bool
    }

    /// The words of the query that say something, in the order typed.
    public let terms: [Term]

    public init(_ query: String) {
        terms = query.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap(Self.term)
    }

    /// True when a term uses the extended syntax (a mark other than none), so plain substring search of
    /// the whole query cannot answer it.
    public var isExtended: Bool { terms.contains { $0.match != .plain || $0.negated } }

    static func term(_ word: Substring) -> Term? {
        var text = word
        let negated = text.first == "!"
        if negated { text = text.dropFirst() }
        var match: Match = negated ? .exact : .plain
        if text.first == "'" {
            text = text.dropFirst()
            match = .exact
        } else if text.first == "^" {
            text = text.dropFirst()
            match = .prefix
        }
        if text.count > 0, text.last == "$" {
            text = text.dropLast()
            match = match == .prefix ? .whole : .suffix
        }
        return text.isEmpty ? nil : Term(text: String(text), match: match, negated: negated)
    }
}
