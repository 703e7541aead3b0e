/// How interpolated values are escaped for the output they go into.
///
/// ```swift
/// try template.render(context, options: RenderOptions(escaping: .header(.reject)))
/// ```
public enum Escaping: Sendable, Equatable {
    /// HTML mail: `& < > " '` become entities.
    case html
    /// Plain-text mail and SMS: values go out as they are.
    case text
    /// Header lines (subjects): no CR or LF ever reaches the output. Line breaks in values are folded to a
    /// space or rejected with an error; the template's own line breaks are folded and the ends trimmed.
    case header(LineBreaks)
    /// URI templates (`https://example.com/leave?name={{name}}`): each value is percent-encoded on its
    /// own (every byte but RFC 3986's unreserved `A–Z a–z 0–9 - . _ ~`, non-ASCII as UTF-8), so a name
    /// with spaces, `&`, `?`, `#` or `/` stays one query value; the template's own text is kept as
    /// written. `{{{raw}}}` and `{{&raw}}` put a value in unchanged (a whole URI from the data).
    ///
    /// ```swift
    /// let t = try MustacheTemplate("mailto:leave@example.com?subject={{name}}")
    /// try t.render(.dictionary(["name": "Zoë & Co"]), options: RenderOptions(escaping: .uriComponent))
    /// // "mailto:leave@example.com?subject=Zo%C3%AB%20%26%20Co"
    /// ```
    case uriComponent

    public enum LineBreaks: Sendable, Equatable { case fold, reject }
}

/// Where message keys come from for `{{#t}}key{{/t}}`: a strings catalog, or anything that can answer
/// "the pattern for this key in this table and locale" (with its own fallback rules).
///
/// ```swift
/// struct Messages: MessageCatalog {
///     func message(forKey key: String, table: String, locale: String) -> String? {
///         key == "hello" ? "Hello {name}!" : nil
///     }
/// }
/// ```
public protocol MessageCatalog: Sendable {
    /// The ICU MessageFormat pattern for `key` in `table` for `locale`, or `nil` when there is none.
    func message(forKey key: String, table: String, locale: String) -> String?
    /// The locales to try for `locale`, best first: the library picks per-locale template files
    /// (`body.html.ar.mustache`) by the same rules as the words. Default: the locale's own chain,
    /// ``TemplateLibrary/localeFallbacks(_:)``.
    func fallbackLocales(for locale: String) -> [String]
    /// The language whose words a render of `table` in `locale` uses (the first of the catalog's fallback
    /// chain that has the table), or nil when the catalog has no such table. Default: nil.
    func language(ofTable table: String, locale: String) -> String?
}

extension MessageCatalog {
    public func fallbackLocales(for locale: String) -> [String] { TemplateLibrary.localeFallbacks(locale) }
    public func language(ofTable table: String, locale: String) -> String? { nil }
}

/// The settings of one render: escaping, strictness, locale, recipient (for errors) and messages.
///
/// ```swift
/// var options = RenderOptions(escaping: .text, strict: true, locale: "de")
/// options.recipient = "ada@example.com"
/// ```
public struct RenderOptions: Sendable {
    public var escaping: Escaping
    /// A missing name is an error (naming template, line, column and recipient) instead of "": in
    /// interpolations, sections and inverted sections alike (give optional fields as `false`, `null` or
    /// `[]`), and for partials that do not exist. Off for the Mustache spec; on for composing.
    public var strict: Bool
    /// BCP 47 locale of the render (messages, lists, numbers, dates, direction).
    public var locale: String
    /// Who the render is for; named in errors.
    public var recipient: String?
    /// The catalog `{{#t}}` looks keys up in, and its table (usually the template's name).
    public var catalog: (any MessageCatalog)?
    public var table: String
    /// Whether the built-in helpers (`t`, `list`, `number`, `date`, `fullName`, `dir`, `lang`) sit at the
    /// bottom of the context stack (names in your data win over them).
    public var helpers: Bool
    /// Whether values placed into the text are isolated from the text's direction (``BidiIsolation``),
    /// the direction of ``locale``'s script: set for plain-text and SMS bodies by ``TemplateLibrary``,
    /// so that only values whose direction differs from the text get isolates. Default: none.
    public var bidiIsolation: BidiIsolation = .none
    /// The most bytes one render may produce (partials, sections and lambdas included); beyond it the
    /// render stops with ``TemplatingError/outputTooLarge(template:line:column:limit:recipient:)``
    /// naming the template. Small partials fanned out by nested sections can otherwise expand to
    /// gigabytes. Default: ``defaultMaxOutputBytes`` (64 MiB).
    public var maxOutputBytes: Int

    /// The most work one render may do, in steps: every instruction run and every pass through a section
    /// counts one (partials, lambdas' templates and blocks included); beyond it the render stops with
    /// ``TemplatingError/workLimitExceeded(template:line:column:limit:recipient:)`` naming the template
    /// and the line. Loops nested over large lists can run for hours while printing nothing, which
    /// ``maxOutputBytes`` does not catch. Default: ``defaultMaxSteps``.
    ///
    /// ```swift
    /// var options = RenderOptions(escaping: .text)
    /// options.maxSteps = 1_000_000
    /// ```
    public var maxSteps = RenderOptions.defaultMaxSteps

    /// 64 MiB: far above any mail or message, far below what would exhaust memory.
    public static let defaultMaxOutputBytes = 64 << 20
    /// 20 million steps: a 10,000-row table with a dozen fields takes well under 1 %; a render that
    /// reaches it stops in about a second instead of running for hours.
    public static let defaultMaxSteps = 20_000_000

    public init(
        escaping: Escaping = .html, strict: Bool = false, locale: String = "en", recipient: String? = nil,
        catalog: (any MessageCatalog)? = nil, table: String = "Localizable", helpers: Bool = true,
        maxOutputBytes: Int = RenderOptions.defaultMaxOutputBytes
    ) {
        self.escaping = escaping
        self.strict = strict
        self.locale = locale
        self.recipient = recipient
        self.catalog = catalog
        self.table = table
        self.helpers = helpers
        self.maxOutputBytes = maxOutputBytes
    }
}

/// How interpolated values are kept apart from right-to-left text around them in plain text (HTML uses
/// `dir` instead): a value with left-to-right letters or European digits (a Latin name, a URL, a phone
/// number) is wrapped so that its neutral characters (`.`, `:`, `/`, `+`) do not jump across it.
///
/// ```swift
/// var options = RenderOptions(escaping: .text, locale: "ar")
/// options.bidiIsolation = .isolates   // "دعاك \u{2068}Ada Lovelace\u{2069}"
/// ```
public enum BidiIsolation: Sendable, Equatable {
    /// Values go out as they are.
    case none
    /// FIRST STRONG ISOLATE (U+2068) … POP DIRECTIONAL ISOLATE (U+2069), Unicode 6.3's isolates.
    case isolates
    /// LEFT-TO-RIGHT MARK (U+200E) on both sides, for displays that do not know isolates.
    case marks

    /// `text` as placed into right-to-left text: wrapped when it has a left-to-right letter or a
    /// European digit, else unchanged (an Arabic or Hebrew value needs nothing).
    ///
    /// ```swift
    /// BidiIsolation.isolates.wrap("https://example.com")   // "\u{2068}https://example.com\u{2069}"
    /// ```
    public func wrap(_ text: String) -> String { wrap(text, inRightToLeftText: true) }

    /// `text` as placed into text of the given direction: wrapped only when its direction differs from the
    /// text around it — in right-to-left text a value with a left-to-right letter or a European digit, in
    /// left-to-right text a value with a right-to-left letter (an Arabic name in an English sentence);
    /// else unchanged.
    ///
    /// ```swift
    /// BidiIsolation.isolates.wrap("Ada", inRightToLeftText: false)     // "Ada"
    /// BidiIsolation.isolates.wrap("محمد", inRightToLeftText: false)    // "\u{2068}محمد\u{2069}"
    /// ```
    public func wrap(_ text: String, inRightToLeftText rightToLeft: Bool) -> String {
        guard self != .none else { return text }
        guard rightToLeft ? Self.hasLeftToRight(text) : text.unicodeScalars.contains(where: Self.isRightToLeft)
        else { return text }
        return self == .isolates ? "\u{2068}" + text + "\u{2069}" : "\u{200E}" + text + "\u{200E}"
    }

    /// Whether `text` has a letter of a left-to-right script or a European digit (0-9).
    static func hasLeftToRight(_ text: String) -> Bool {
        text.unicodeScalars.contains { c in
            if c.value < 0x80 { return (0x30...0x39).contains(c.value) || c.properties.isAlphabetic }
            return c.properties.isAlphabetic && !isRightToLeft(c)
        }
    }

    /// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and
    /// their presentation forms; the RTL historic scripts of plane 1).
    static func isRightToLeft(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }
}

/// A Mustache template compiled once and rendered many times (Mustache spec 1.4.2, including lambdas,
/// inheritance and dynamic names). Thread-safe: a compiled template is an immutable value.
///
/// ```swift
/// let t = try MustacheTemplate("Hello {{name}}{{#admin}} (admin){{/admin}}!", name: "greeting")
/// try t.render(["name": "Ada", "admin": true])   // "Hello Ada (admin)!"
/// ```
public struct MustacheTemplate: Sendable {
    final class Compiled: Sendable {
        let name: String
        let source: String
        let program: Program
        init(name: String, source: String, program: Program) {
            self.name = name
            self.source = source
            self.program = program
        }
    }

    let compiled: Compiled

    /// The name used in error messages (usually the file name).
    public var name: String { compiled.name }
    public var source: String { compiled.source }
    var program: Program { compiled.program }

    /// Compiles `source`; throws ``TemplatingError/parse(template:line:column:message:)`` when malformed.
    public init(_ source: String, name: String = "template") throws {
        compiled = Compiled(
            name: name, source: source,
            program: Program(try Parser(source: source, templateName: name).parse()))
    }

    init(source: String, name: String, open: String, close: String) throws {
        compiled = Compiled(
            name: name, source: source,
            program: Program(
                try Parser(source: source, templateName: name).parse(
                    openDelimiter: Array(open.utf8), closeDelimiter: Array(close.utf8))))
    }

    /// Renders into a string.
    public func render(
        _ context: MustacheValue, partials: MustachePartials = MustachePartials(),
        options: RenderOptions = RenderOptions()
    ) throws -> String {
        var bytes: [UInt8] = []
        try render(context, partials: partials, options: options, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Renders and appends UTF-8 bytes to `output` (the fast path: reuse one buffer for many renders).
    public func render(
        _ context: MustacheValue, partials: MustachePartials = MustachePartials(),
        options: RenderOptions = RenderOptions(), into output: inout [UInt8]
    ) throws {
        let start = output.count
        let workspace = Workspace.take()
        defer { Workspace.give(workspace) }
        var renderer = Renderer(options: options, partials: partials, templateName: name, workspace: workspace)
        defer { renderer.returnBuffers(to: workspace) }
        if options.helpers { renderer.push(Helpers.value) }
        renderer.push(context)
        try renderer.render(program)
        try renderer.checkOutputSize(at: nil)
        output.append(contentsOf: renderer.out.bytes)
        if case .header = options.escaping { HeaderLine.fold(&output, from: start) }
    }
}

/// Named templates that `{{> name}}` and `{{< name}}` include, each compiled once.
///
/// ```swift
/// let partials = try MustachePartials(sources: ["signature": "--\n{{company}}"])
/// try MustacheTemplate("Hi\n{{> signature}}").render(context, partials: partials)
/// ```
public struct MustachePartials: Sendable {
    /// Sorted by name hash, for lookups by a hash computed when the including template was compiled.
    private var entries: [(hash: UInt64, name: String, template: MustacheTemplate)] = []

    public init(_ templates: [String: MustacheTemplate] = [:]) {
        for (name, template) in templates { self[name] = template }
    }

    /// Compiles every source (the key is the partial's name and its name in errors).
    public init(sources: [String: String]) throws {
        for (name, source) in sources { self[name] = try MustacheTemplate(source, name: name) }
    }

    /// The templates by name.
    public var templates: [String: MustacheTemplate] {
        Dictionary(entries.map { ($0.name, $0.template) }, uniquingKeysWith: { a, _ in a })
    }

    @inline(__always) func template(named name: String, hash: UInt64) -> MustacheTemplate? {
        for e in entries where e.hash == hash && e.name == name { return e.template }
        return nil
    }

    public subscript(name: String) -> MustacheTemplate? {
        get { template(named: name, hash: MustacheDictionary.hash(name)) }
        set {
            let hash = MustacheDictionary.hash(name)
            entries.removeAll { $0.hash == hash && $0.name == name }
            if let newValue {
                entries.append((hash, name, newValue))
                entries.sort { $0.hash < $1.hash }
            }
        }
    }
}

/// A lambda's view of the render that calls it.
///
/// ```swift
/// MustacheLambda { call in .text((call.lookup("name")?.scalarText ?? "").uppercased()) }
/// ```
public struct LambdaCall {
    /// The raw source between the section's tags, or `nil` when called by `{{name}}`.
    public let sectionText: String?
    public let options: RenderOptions
    /// Where the tag is (for error messages).
    public let templateName: String
    public let position: SourcePosition
    let stack: [MustacheValue]
    let partials: MustachePartials

    public var locale: String { options.locale }

    /// Looks a (dotted) name up through the context stack like a tag would.
    public func lookup(_ name: String) -> MustacheValue? {
        Renderer.lookup(TagName(name), in: stack)
    }

    /// Renders Mustache source in the current context without escaping (e.g. the text of a section).
    public func render(_ source: String) throws -> String {
        let template = try MustacheTemplate(source, name: "\(templateName) (lambda at \(position))")
        var renderer = Renderer(options: options, partials: partials, templateName: template.name, workspace: nil)
        renderer.setStack(stack)
        var plain = options
        plain.escaping = .text
        renderer.options = plain
        try renderer.render(template.program)
        try renderer.checkOutputSize(at: nil)
        return String(decoding: renderer.out.bytes, as: UTF8.self)
    }
}
