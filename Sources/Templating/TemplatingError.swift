/// Everything that can go wrong while compiling or rendering templates; each case says where.
///
/// ```swift
/// do { _ = try MustacheTemplate("{{#a}}", name: "mail.mustache") }
/// catch let e as TemplatingError { print(e) }   // mail.mustache:1:1: unclosed section 'a': …
/// ```
public enum TemplatingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The template source is malformed (unclosed tag or section, mismatched close, bad delimiters).
    case parse(template: String, line: Int, column: Int, message: String)
    /// Strict mode: a name the template uses has no value in the context.
    case missingValue(name: String, template: String, line: Int, column: Int, recipient: String?)
    /// Strict mode: a list, dictionary or object was interpolated as if it were text.
    case notInterpolatable(name: String, template: String, line: Int, column: Int, recipient: String?)
    /// Strict mode: a partial or parent the template includes does not exist.
    case partialNotFound(name: String, template: String, line: Int, column: Int)
    /// Header escaping with `.reject`: a value would put a line break into a header.
    case lineBreakInHeader(name: String, template: String, line: Int, column: Int, recipient: String?)
    /// Partials include each other more deeply than the renderer allows (endless recursion).
    case recursionTooDeep(template: String, line: Int, column: Int)
    /// A lambda or helper failed (`{{#t}}`, `{{#number}}` …): which one, where, and why.
    case helper(name: String, template: String, line: Int, column: Int, recipient: String?, message: String)
    /// A render produced more than `limit` bytes (``RenderOptions/maxOutputBytes``); the template and
    /// the place where it was noticed (line and column 0 when at the end of the render).
    case outputTooLarge(template: String, line: Int, column: Int, limit: Int, recipient: String?)
    /// A render did more than `limit` steps of work (``RenderOptions/maxSteps``): the template and the
    /// line of the instruction or section that was running.
    case workLimitExceeded(template: String, line: Int, column: Int, limit: Int, recipient: String?)
    /// A localized message key is missing from the catalog for the locale (and its fallbacks).
    case missingMessage(key: String, table: String, locale: String, template: String, line: Int, column: Int)
    /// A message pattern is not valid ICU MessageFormat.
    case badMessage(key: String, table: String, locale: String, message: String)
    /// A template of the library does not exist, or lacks a required part.
    case templateNotFound(name: String, detail: String)
    /// Context data (JSON) could not be read: file, line, column and what was expected.
    case badData(file: String, line: Int, column: Int, message: String)
    /// A file could not be read.
    case io(path: String, message: String)
    /// A file is not UTF-8 text.
    case notUTF8(path: String)
    /// A partials folder the user named does not exist.
    case noPartialsFolder(String)

    /// True for what the template's author or its data got wrong (a parse error, a missing value, a limit
    /// reached, a missing message or partial, data that is not JSON), false for what failed while rendering
    /// (a file that could not be read, a helper's own failure): the cases split by audience.
    public var isUsageError: Bool {
        switch self {
        case .io, .helper: return false
        default: return true
        }
    }

    public var description: String {
        func whom(_ r: String?) -> String { r.map { " for recipient \($0)" } ?? "" }
        switch self {
        case .parse(let t, let l, let c, let m): return "\(t):\(l):\(c): \(m)"
        case .missingValue(let n, let t, let l, let c, let r):
            return "\(t):\(l):\(c): no value for '\(n)'\(whom(r)) (strict mode)"
        case .notInterpolatable(let n, let t, let l, let c, let r):
            return "\(t):\(l):\(c): '\(n)' is a list or object, not text\(whom(r))"
        case .partialNotFound(let n, let t, let l, let c): return "\(t):\(l):\(c): no partial named '\(n)'"
        case .lineBreakInHeader(let n, let t, let l, let c, let r):
            return "\(t):\(l):\(c): value of '\(n)' contains a line break, not allowed in a header\(whom(r))"
        case .recursionTooDeep(let t, let l, let c): return "\(t):\(l):\(c): partials nest too deeply (recursion?)"
        case .helper(let n, let t, let l, let c, let r, let m): return "\(t):\(l):\(c): \(n): \(m)\(whom(r))"
        case .outputTooLarge(let t, let l, let c, let limit, let r):
            let place = l > 0 ? "\(t):\(l):\(c)" : t
            return "\(place): output exceeds the limit of \(TemplatingError.byteCount(limit))\(whom(r)) "
                + "(nested sections or partials expand too much; the limit is RenderOptions.maxOutputBytes)"
        case .workLimitExceeded(let t, let l, let c, let limit, let r):
            return "\(t):\(l):\(c): rendering stopped after \(limit) steps\(whom(r)) "
                + "(sections nested over large lists do too much work; the limit is RenderOptions.maxSteps)"
        case .missingMessage(let k, let tb, let loc, let t, let l, let c):
            return "\(t):\(l):\(c): no message '\(k)' in table '\(tb)' for locale \(loc)"
        case .badMessage(let k, let tb, let loc, let m): return "message '\(k)' in table '\(tb)' (\(loc)): \(m)"
        case .templateNotFound(let n, let d): return "template '\(n)': \(d)"
        case .badData(let f, let l, let c, let m): return "\(f):\(l):\(c): \(m)"
        case .io(let p, let m): return "\(p): \(m)"
        case .notUTF8(let p): return "cannot read \(p) as UTF-8"
        case .noPartialsFolder(let p): return "no such partials folder: \(p)"
        }
    }

    /// "64 MiB", "512 KiB", "1000 bytes".
    static func byteCount(_ n: Int) -> String {
        if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }
}
