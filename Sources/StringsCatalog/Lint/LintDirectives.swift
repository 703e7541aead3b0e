/// What a key's comment tells lint, like Weblate's per-string flags: `lint-ignore: check, check` drops those
/// checks' findings for the key (in every language when written on the source, else in that file), and
/// `max-length: N` limits its translations to N characters.
///
/// ```swift
/// // /* Button title. lint-ignore: same-as-source, punctuation  max-length: 12 */
/// // "ok" = "OK";
/// let d = LintDirectives(comment: "Button title. lint-ignore: same-as-source, punctuation  max-length: 12")
/// d.ignored      // ["same-as-source", "punctuation"]
/// d.maxLength    // 12
/// ```
public struct LintDirectives: Sendable, Hashable {
    /// Check ids whose findings the key does not get.
    public var ignored: Set<String> = []
    /// The most characters a translation of the key may have.
    public var maxLength: Int?

    public init() {}

    /// Reads the directives out of a comment (any other text is ignored).
    public init(comment: String?) {
        guard let comment, comment.contains("lint-ignore") || comment.contains("max-length") else { return }
        if let r = comment.range(of: "lint-ignore:") {
            var rest = comment[r.upperBound...].drop { $0 == " " }
            while let first = rest.first, first.isLetter || first == "-" {
                let id = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                ignored.insert(String(id))
                rest = rest.dropFirst(id.count)
                guard rest.first == "," else { break }
                rest = rest.dropFirst().drop { $0 == " " }
            }
        }
        if let r = comment.range(of: "max-length:") {
            let digits = comment[r.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            maxLength = Int(digits)
        }
    }

    /// These directives, then `other`'s where these say nothing (a translation's own comment over its source's).
    func merged(with other: LintDirectives) -> LintDirectives {
        var d = self
        d.ignored.formUnion(other.ignored)
        if d.maxLength == nil { d.maxLength = other.maxLength }
        return d
    }
}
