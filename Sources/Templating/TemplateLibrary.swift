import Foundation
import ICUKit
import Locales
import PackageResources
import StringsCatalog

/// A message rendered for one recipient: what the composer's drafts take.
///
/// ```swift
/// let m = try library.render("invite", context: context, locale: "de")
/// print(m.subject, m.textBody, m.htmlBody ?? "", m.locale)
/// ```
public struct RenderedMessage: Sendable, Equatable, Codable {
    /// The subject line (header escaping: never contains CR or LF).
    public var subject: String
    /// The plain-text mail body.
    public var textBody: String
    /// The HTML mail body, when the template has one.
    public var htmlBody: String?
    /// The short message (SMS) body, when the template has one.
    public var messageBody: String?
    /// The locale the message was rendered in (BCP 47).
    public var locale: String

    public init(subject: String, textBody: String, htmlBody: String?, messageBody: String?, locale: String) {
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.messageBody = messageBody
        self.locale = locale
    }
}

/// A template of the library: a folder `Templates/<name>/` compiled once.
///
/// Files: `subject.mustache`, `body.txt.mustache` (or `body.md.mustache`), optional `body.html.mustache` and `message.txt.mustache`,
/// per-locale overrides such as `body.html.ar.mustache`, and partials (any other `<partial>.mustache` in the
/// folder, plus the library's shared `_shared/*.mustache`).
public struct LibraryTemplate: Sendable {
    /// The parts a template can have, by file stem.
    public enum Part: String, Sendable, CaseIterable {
        case subject = "subject"
        case textBody = "body.txt"
        case htmlBody = "body.html"
        /// Markdown (CommonMark): rendered with HTML-escaped values and turned into the HTML part (cmark),
        /// rendered as it is for the plain-text part (Markdown reads as plain text), where the template
        /// has no `body.html` or `body.txt` of its own.
        case markdownBody = "body.md"
        case messageBody = "message.txt"
    }

    public let name: String
    /// Example data from the folder's `sample.json` (for previews: `contacts templates render NAME`).
    public let sample: MustacheValue?
    /// The language the template's own words are in (BCP 47): its folder's `language` file, or
    /// ``TemplateLibrary/declareLanguage(_:of:)``; nil when undeclared. It is what
    /// ``TemplateLibrary/resolvedLocale(_:locale:defaultLanguage:)`` gives when the catalog has no words
    /// for the template.
    public internal(set) var language: String?
    /// Each part's base template and its per-locale overrides (keyed by BCP 47 tag).
    let parts: [Part: MustacheTemplate]
    let overrides: [Part: [String: MustacheTemplate]]
    let partials: MustachePartials

    /// The locales that have an override of some part.
    public var overrideLocales: [String] { Array(Set(overrides.values.flatMap(\.keys))).sorted() }
    /// Which parts exist.
    public var availableParts: [Part] { Part.allCases.filter { parts[$0] != nil } }

    /// Whether a body part (plain text or Markdown) has an override for one of `chain`'s locales.
    func hasBodyOverride(along chain: [String]) -> Bool {
        [Part.textBody, .markdownBody].contains { part in chain.contains { overrides[part]?[$0] != nil } }
    }

    /// The template for `part` in `locale`: the first override along `fallbacks` (default: the locale's
    /// own chain, ``TemplateLibrary/localeFallbacks(_:)``), else the base one.
    public func template(for part: Part, locale: String, fallbacks: [String]? = nil) -> MustacheTemplate? {
        if let byLocale = overrides[part] {
            for candidate in fallbacks ?? TemplateLibrary.localeFallbacks(locale) {
                if let t = byLocale[candidate] { return t }
            }
        }
        return parts[part]
    }
}

/// The mail and message templates of `Templates/`, each a folder, compiled once and rendered per recipient
/// and per locale; their words come from a ``MessageCatalog`` (table = the template's name).
///
/// ```swift
/// let library = try TemplateLibrary.bundled(catalog: catalog)
/// let message = try library.render("invite", context: ["inviter": ["givenName": "Ada"], "project": "Atlas",
///                                                       "others": [], "url": "https://example.com/j/1"], locale: "fr")
/// ```
public struct TemplateLibrary: Sendable {
    public let directory: URL
    public private(set) var templates: [String: LibraryTemplate]
    /// The template folders that could not be loaded, by name: each is left out of ``templates`` alone
    /// (the others load), and naming it (``template(named:)``) says why.
    public private(set) var refused: [String: RefusedTemplate] = [:]
    public var catalog: (any MessageCatalog)?
    /// The most bytes one part of one render may produce (``RenderOptions/maxOutputBytes``).
    public var maxOutputBytes = RenderOptions.defaultMaxOutputBytes
    /// The most work one part of one render may do (``RenderOptions/maxSteps``).
    public var maxSteps = RenderOptions.defaultMaxSteps

    /// The names of the templates, sorted.
    public var names: [String] { templates.keys.sorted() }

    /// Loads every template folder of `directory` (folders starting with `_` or `.` are shared partials or
    /// ignored). A folder that cannot be loaded is refused on its own (``refused``), its error naming the
    /// file, line and column; a shared partial that cannot be loaded fails the whole library.
    public init(directory: URL, catalog: (any MessageCatalog)? = nil) throws {
        self.directory = directory
        self.catalog = catalog
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: directory.path) else {
            throw TemplatingError.io(path: directory.path, message: "not a readable templates folder")
        }
        var shared: [String: MustacheTemplate] = [:]
        let sharedDir = directory.appendingPathComponent("_shared")
        if let files = try? fm.contentsOfDirectory(atPath: sharedDir.path) {
            for file in files.sorted() where file.hasSuffix(".mustache") {
                let partialName = String(file.dropLast(".mustache".count))
                shared[partialName] = try Self.load(sharedDir.appendingPathComponent(file), name: "_shared/\(file)")
            }
        }
        var templates: [String: LibraryTemplate] = [:]
        for entry in entries.sorted() where !entry.hasPrefix("_") && !entry.hasPrefix(".") {
            var isDir: ObjCBool = false
            let url = directory.appendingPathComponent(entry)
            guard fm.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else { continue }
            do { templates[entry] = try Self.loadTemplate(url, name: entry, shared: shared) } catch {
                refused[entry] = RefusedTemplate(name: entry, path: url.path, reason: "\(error)")
            }
        }
        self.templates = templates
    }

    /// The built-in templates shipped with the module (`invite`, `share-contact`). Throws (never traps)
    /// when the resource bundle is not beside the executable.
    public static func bundled(catalog: (any MessageCatalog)? = nil) throws -> TemplateLibrary {
        guard let url = bundledTemplatesURL() else {
            throw TemplatingError.io(
                path: "ContactsSelection_Templating.resources",
                message: "the bundled templates were not found beside the executable")
        }
        return try TemplateLibrary(directory: url, catalog: catalog)
    }

    /// Where SwiftPM put the `Templates` resources, else the source folder of a development checkout.
    static func bundledTemplatesURL() -> URL? {
        ResourceFolder.find(
            bundle: "ContactsSelection_Templating", folder: "Templates",
            source: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Templates"))
    }

    static func load(_ url: URL, name: String) throws -> MustacheTemplate {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TemplatingError.io(path: url.path, message: "cannot read")
        }
        guard let source = String(data: data, encoding: .utf8) else {
            throw TemplatingError.io(path: url.path, message: "not UTF-8")
        }
        return try MustacheTemplate(source, name: name)
    }

    static func loadTemplate(_ url: URL, name: String, shared: [String: MustacheTemplate]) throws -> LibraryTemplate {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        var parts: [LibraryTemplate.Part: MustacheTemplate] = [:]
        var overrides: [LibraryTemplate.Part: [String: MustacheTemplate]] = [:]
        var partials = MustachePartials(shared)
        for file in files.sorted() where file.hasSuffix(".mustache") {
            let stem = String(file.dropLast(".mustache".count))
            let template = try load(url.appendingPathComponent(file), name: "\(name)/\(file)")
            if let part = LibraryTemplate.Part(rawValue: stem) {
                parts[part] = template
                continue
            }
            // "body.html.ar" → part body.html, locale ar
            if let part = LibraryTemplate.Part.allCases.first(where: { stem.hasPrefix($0.rawValue + ".") }) {
                let locale = normalizeLocale(String(stem.dropFirst(part.rawValue.count + 1)))
                overrides[part, default: [:]][locale] = template
                continue
            }
            partials[stem] = template
        }
        var sample: MustacheValue?
        if files.contains("sample.json") {
            let sampleURL = url.appendingPathComponent("sample.json")
            guard let data = FileManager.default.contents(atPath: sampleURL.path) else {
                throw TemplatingError.io(path: sampleURL.path, message: "cannot read")
            }
            sample = try MustacheValue(json: Array(data), file: "\(name)/sample.json")
        }
        var language: String?
        if files.contains("language") {
            let languageURL = url.appendingPathComponent("language")
            guard let data = FileManager.default.contents(atPath: languageURL.path), data.count <= 64 else {
                throw TemplatingError.io(path: languageURL.path, message: "cannot read (a language tag, e.g. de)")
            }
            language = try languageTag(String(decoding: data, as: UTF8.self), source: "\(name)/language")
        }
        if parts[.subject] == nil {
            throw TemplatingError.templateNotFound(name: name, detail: "missing subject.mustache in \(url.path)")
        }
        if parts[.textBody] == nil && parts[.markdownBody] == nil {
            throw TemplatingError.templateNotFound(
                name: name, detail: "missing body.txt.mustache (or body.md.mustache) in \(url.path)")
        }
        return LibraryTemplate(
            name: name, sample: sample, language: language, parts: parts, overrides: overrides, partials: partials)
    }

    /// Looks a template up by name.
    public func template(named name: String) throws -> LibraryTemplate {
        if let refusal = refused[name] {
            throw TemplatingError.templateNotFound(name: name, detail: "refused: \(refusal.path): \(refusal.reason)")
        }
        guard let t = templates[name] else {
            throw TemplatingError.templateNotFound(
                name: name, detail: "no such template (have: \(names.joined(separator: ", ")))")
        }
        return t
    }

    /// Renders every part of template `name` for one recipient in `locale`: subject with header escaping,
    /// text and SMS bodies as plain text (values whose direction differs from the language's isolated,
    /// ``BidiIsolation/isolates``), the HTML body with HTML escaping. Strict by default: a missing
    /// value is an error naming the part, line, column and `recipient`.
    public func render(
        _ name: String, context: MustacheValue, locale: String, recipient: String? = nil,
        strict: Bool = true
    ) throws -> RenderedMessage {
        let template = try template(named: name)
        let locale = resolvedLocale(name, locale: locale)
        let fallbacks = catalog?.fallbackLocales(for: locale) ?? Self.localeFallbacks(locale)
        // Plain-text and SMS bodies keep values whose direction differs from the words around them apart
        // with isolates (a Latin name or a URL in Arabic text, an Arabic name in English text), as the HTML
        // does with `dir`.
        func part(_ p: LibraryTemplate.Part, _ escaping: Escaping) throws -> String? {
            guard let t = template.template(for: p, locale: locale, fallbacks: fallbacks) else { return nil }
            var options = RenderOptions(
                escaping: escaping, strict: strict, locale: locale, recipient: recipient,
                catalog: catalog, table: name, maxOutputBytes: maxOutputBytes)
            options.maxSteps = maxSteps
            if p == .textBody || p == .messageBody { options.bidiIsolation = .isolates }
            return try t.render(context, partials: template.partials, options: options)
        }
        return RenderedMessage(
            subject: try part(.subject, .header(.fold)) ?? "",
            textBody: try part(.textBody, .text) ?? part(.markdownBody, .text) ?? "",
            htmlBody: try part(.htmlBody, .html) ?? part(.markdownBody, .html).map(Markdown.html),
            messageBody: try part(.messageBody, .text),
            locale: locale)
    }

    /// The locale a render of template `name` for `locale` is made in: the language whose words the
    /// catalog has for the template (its table), so plural rules, lists, dates, numbers, `{{lang}}`,
    /// `{{dir}}` and the message's ``RenderedMessage/locale`` (`Content-Language`) all say the language
    /// the reader gets. The asked-for locale is kept when those words are of its own language (`en-GB`
    /// with `en` words keeps British dates); without a catalog, or when it has no words for the
    /// template, the asked-for locale is used.
    ///
    /// ```swift
    /// library.resolvedLocale("invite", locale: "vi")      // "en": no Vietnamese words
    /// library.resolvedLocale("invite", locale: "de-AT")   // "de-AT"
    /// ```
    ///
    /// A template whose words are its own (the catalog has no table for it) is in its declared language:
    /// ``LibraryTemplate/language`` (its folder's `language` file, or ``declareLanguage(_:of:)``), else
    /// `defaultLanguage` (the campaign's locale), unless it has a body override for the asked-for locale
    /// (`body.txt.fr.mustache`). A recipient's `LANG` the words are not in is never what a message claims.
    ///
    /// ```swift
    /// library.resolvedLocale("note", locale: "fr", defaultLanguage: "de")   // "de": the words are German
    /// ```
    public func resolvedLocale(_ name: String, locale: String, defaultLanguage: String? = nil) -> String {
        let requested = Self.normalizeLocale(locale)
        let chain = Self.localeFallbacks(requested)
        if let used = catalog?.language(ofTable: name, locale: requested) {
            return chain.contains(used) ? requested : used
        }
        guard let template = templates[name], !template.hasBodyOverride(along: chain),
            let declared = template.language ?? defaultLanguage.map(Self.normalizeLocale)
        else { return requested }
        return chain.contains(declared) ? requested : declared
    }

    /// Declares the language template `name`'s words are in (`--template-language`), over its folder's
    /// `language` file.
    ///
    /// ```swift
    /// var templates = try TemplateLibrary.bundled()
    /// try templates.declareLanguage("de", of: "invite")
    /// ```
    /// - Throws: ``TemplatingError/templateNotFound(name:detail:)`` for an unknown template, or when
    ///   `language` is not a language tag.
    public mutating func declareLanguage(_ language: String, of name: String) throws {
        _ = try template(named: name)
        templates[name]?.language = try Self.languageTag(language, source: "template language")
    }

    /// `text` as a BCP 47 language tag (trimmed, `_` → `-`, canonical), or an error naming `source`.
    static func languageTag(_ text: String, source: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let subtags = trimmed.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
            first.allSatisfy(\.isASCII),
            subtags.allSatisfy({
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            })
        else {
            throw TemplatingError.templateNotFound(
                name: source, detail: "'\(trimmed)' is not a language tag (e.g. de, en-GB, pt-BR)")
        }
        return normalizeLocale(trimmed)
    }

    /// The locale of a render: the recipient's own (vCard `LANG` or a data column), else the campaign's,
    /// else the environment's.
    ///
    /// ```swift
    /// TemplateLibrary.renderLocale(recipient: nil, campaign: "de", environment: "en")   // "de"
    /// ```
    public static func renderLocale(recipient: String?, campaign: String?, environment: String) -> String {
        for candidate in [recipient, campaign] {
            if let c = candidate?.trimmingCharacters(in: .whitespaces), !c.isEmpty { return normalizeLocale(c) }
        }
        return normalizeLocale(environment)
    }

    /// BCP 47 form of a locale name (`zh_CN` → `zh-CN`).
    public static func normalizeLocale(_ locale: String) -> String {
        let dashed = locale.replacingOccurrences(of: "_", with: "-")
        let canonical = ICULocale.canonicalTag(dashed)
        return canonical.isEmpty || canonical == "und" ? dashed : canonical
    }

    /// The tags to try for `locale`, most specific first: the package's one fallback rule
    /// (`LocalePolicy.fallbackChain(for:)`), so a template override and a catalog entry are found along
    /// the same chain (`es-MX` → es-419 → es; `zh-TW` → zh-Hant-TW, zh-Hant, never zh, which is Simplified).
    public static func localeFallbacks(_ locale: String) -> [String] {
        LocalePolicy.fallbackChain(for: normalizeLocale(locale))
    }
}

extension TemplateLibrary {
    /// Adds (or replaces) template `name` made of text rather than a folder: each part's Mustache source, as
    /// the files `subject.mustache`, `body.txt.mustache`, `body.md.mustache`, … of a folder would hold it.
    /// It renders as a folder's template does (a Markdown body into the HTML and plain-text parts); it has
    /// no partials. Errors name the part, line and column.
    ///
    /// ```swift
    /// var library = try TemplateLibrary.bundled()
    /// try library.add("note", parts: [.subject: "Hello {{recipient.givenName}}", .markdownBody: "*See you*"])
    /// ```
    public mutating func add(_ name: String, parts sources: [LibraryTemplate.Part: String]) throws {
        guard sources[.subject] != nil else {
            throw TemplatingError.templateNotFound(name: name, detail: "no subject")
        }
        guard sources[.textBody] != nil || sources[.markdownBody] != nil else {
            throw TemplatingError.templateNotFound(name: name, detail: "no body (plain text or Markdown)")
        }
        var parts: [LibraryTemplate.Part: MustacheTemplate] = [:]
        for (part, source) in sources {
            parts[part] = try MustacheTemplate(source, name: "\(name)/\(part.rawValue)")
        }
        templates[name] = LibraryTemplate(
            name: name, sample: nil, parts: parts, overrides: [:], partials: MustachePartials())
    }
}

/// A template folder the library could not load: its name, its folder and why (the file, line and column
/// when a part does not parse).
///
/// ```swift
/// for r in library.refused.values { print(r) }   // template 'news' (/srv/t/news): news/subject.mustache:1:3: …
/// ```
public struct RefusedTemplate: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let path: String
    public let reason: String

    public var description: String { "template '\(name)' (\(path)): \(reason)" }
}
