import Foundation
import ICUKit
import Synchronization

/// The CLDR plural categories in CLDR order, as the string files name them.
let pluralCategoryNames = PluralRules.Category.allCases.map(\.rawValue)

/// One variable of a `.stringsdict` entry (`NSStringPluralRuleType`): a form per plural category.
public struct PluralVariable: Sendable, Hashable {
    public var name: String
    /// `NSStringFormatSpecTypeKey`, normally `NSStringPluralRuleType`.
    public var specType: String
    /// `NSStringFormatValueTypeKey` (`d`, `ld`, `f`, …), the type of the number.
    public var valueType: String?
    /// Category (`zero one two few many other`) → form.
    public var forms: [String: String]

    public init(
        name: String, specType: String = "NSStringPluralRuleType", valueType: String? = "d", forms: [String: String]
    ) {
        self.name = name
        self.specType = specType
        self.valueType = valueType
        self.forms = forms
    }

    /// The form for `number` in `locale`: `zero` for 0 when present (Apple's rule), else ICU's category,
    /// else `other`.
    public func form(for number: Double, locale: String) -> String? {
        if number == 0, let zero = forms["zero"] { return zero }
        let category = PluralRulesCache.category(for: number, locale: locale)
        return forms[category.rawValue] ?? forms["other"]
    }
}

/// One `.stringsdict` entry: a format with plural variables, or width variants.
///
/// ```swift
/// let entry = catalog.pluralEntry("%d contacts selected", table: "Localizable", locale: "ru")!
/// try entry.format(locale: "ru", arguments: [.int(3)])   // "Выбрано 3 контакта"
/// ```
public struct StringsDictEntry: Sendable, Hashable {
    public var key: String
    /// `NSStringLocalizedFormatKey`; nil for a width-only entry.
    public var formatKey: String?
    public var variables: [String: PluralVariable]
    /// `NSStringVariableWidthRuleType` variants: width → string.
    public var widthVariants: [Int: String]
    /// The translator comment (an XML comment right before the entry's key), if any.
    public var comment: String?

    public init(
        key: String, formatKey: String?, variables: [String: PluralVariable] = [:], widthVariants: [Int: String] = [:],
        comment: String? = nil
    ) {
        self.key = key
        self.formatKey = formatKey
        self.variables = variables
        self.widthVariants = widthVariants
        self.comment = comment
    }

    /// The width variant for a display width: the widest one not wider than `width`, else the narrowest.
    public func variant(forWidth width: Int) -> String? {
        let sorted = widthVariants.keys.sorted()
        guard let first = sorted.first else { return nil }
        return widthVariants[sorted.last(where: { $0 <= width }) ?? first]
    }

    /// Expands every `%#@var@` (nested ones too) for `arguments`, giving a plain printf pattern.
    public func expand(locale: String, arguments: [CatalogArgument]) throws -> String {
        guard let written = formatKey ?? widthVariants.keys.max().flatMap({ widthVariants[$0] }) else {
            throw StringsCatalogError.formatMismatch(
                pattern: key, message: "stringsdict entry has no NSStringLocalizedFormatKey")
        }
        // Positions written out, so that a form put in place of a variable renumbers nothing.
        var pattern = try PrintfFormat.positional(written)
        for _ in 0..<32 {
            let specs = try PrintfFormat.arguments(of: pattern)
            guard let (index, spec) = specs.first(where: { $0.specifier.variable != nil }), let name = spec.variable
            else {
                return pattern
            }
            guard let variable = variables[name] else {
                throw StringsCatalogError.formatMismatch(
                    pattern: pattern, message: "variable \"\(name)\" is not defined in the stringsdict entry \"\(key)\""
                )
            }
            guard index < arguments.count else {
                throw StringsCatalogError.formatMismatch(
                    pattern: pattern,
                    message: "\(spec.text) needs argument \(index + 1) but only \(arguments.count) were given")
            }
            guard let number = arguments[index].number else {
                throw StringsCatalogError.formatMismatch(
                    pattern: pattern, message: "\(spec.text) needs a number, got a \(arguments[index].kindName)")
            }
            guard var form = variable.form(for: number, locale: locale) else {
                throw StringsCatalogError.formatMismatch(
                    pattern: pattern, message: "variable \"\(name)\" has no \"other\" form")
            }
            // The form's own sequential specifiers (`%d`) refer to the variable's argument.
            form = try Self.pinSequential(form, to: index + 1)
            let start = pattern.index(pattern.startIndex, offsetBy: spec.offset)
            let end = pattern.index(start, offsetBy: spec.text.count)
            pattern.replaceSubrange(start..<end, with: form)
        }
        throw StringsCatalogError.formatMismatch(
            pattern: pattern, message: "plural variables nest too deeply (a cycle?)")
    }

    /// Rewrites the sequential value specifiers of a form (`%d`) as positional (`%2$d`); sequential nested
    /// variables take the arguments that follow, in order (`%#@b@` in a form of argument 2 → `%3$#@b@`).
    ///
    /// ```swift
    /// try StringsDictEntry.pinSequential("%d of %#@total@", to: 2)   // "%2$d of %3$#@total@"
    /// ```
    public static func pinSequential(_ form: String, to position: Int) throws -> String {
        var result = ""
        var following = position
        for token in try PrintfFormat.tokenize(form) {
            switch token {
            case .literal(let t): result += t.replacingOccurrences(of: "%", with: "%%")
            case .specifier(let s):
                if s.position != nil {
                    result += s.text
                } else if s.variable != nil {
                    following += 1
                    result += "%\(following)$" + s.text.dropFirst()
                } else {
                    result += "%\(position)$" + s.text.dropFirst()
                }
            }
        }
        return result
    }

    /// Expands the plural variables and formats the result.
    public func format(locale: String, arguments: [CatalogArgument]) throws -> String {
        try PrintfFormat.format(expand(locale: locale, arguments: arguments), arguments: arguments)
    }
}

/// A `.stringsdict` file (an XML or binary property list) read into entries, with diagnostics for
/// entries that are malformed (the others are kept).
///
/// ```swift
/// let dict = try StringsDictDocument(contentsOf: url)
/// dict.entries["%d contacts selected"]?.variables["count"]?.forms["one"]
/// ```
public struct StringsDictDocument: Sendable, Hashable {
    public var file: String
    public internal(set) var entries: [String: StringsDictEntry]
    public internal(set) var diagnostics: [Diagnostic]
    var bytes: [UInt8]
    var edited = false

    /// Reads a file; only I/O failures throw, malformed entries become ``diagnostics``.
    public init(contentsOf url: URL, file: String? = nil) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot read file: \(error.localizedDescription)")
        }
        self.init(parsing: data, file: file ?? url.path)
    }

    /// Parses XML or binary property-list bytes; `file` names the file in diagnostics.
    public init(parsing data: Data, file: String = "Localizable.stringsdict") {
        self.file = file
        entries = [:]
        diagnostics = []
        bytes = [UInt8](data)
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func lineOf(key: String) -> Int {
            let needle = "<key>\(Self.xmlEscape(key))</key>"
            return (lines.firstIndex(where: { $0.contains(needle) }) ?? 0) + 1
        }
        func report(_ key: String, _ message: String, _ severity: Diagnostic.Severity = .error) {
            let line = lineOf(key: key)
            let needle = "<key>\(Self.xmlEscape(key))</key>"
            let column =
                line <= lines.count
                ? lines[line - 1].range(of: needle).map { lines[line - 1].unicodeScalars[..<$0.lowerBound].count + 1 }
                    ?? 1
                : 1
            diagnostics.append(
                Diagnostic(
                    file: file, line: line, column: column, severity: severity, code: "stringsdict",
                    message: message))
        }
        if let problem = XMLInput.propertyListProblem(bytes, file: file, what: "stringsdict") {
            diagnostics.append(problem)
            return
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
            let (line, column) = PropertyListPosition.locate(bytes, message: detail)
            diagnostics.append(
                Diagnostic(
                    file: file, line: line, column: column, severity: .error, code: "syntax",
                    message: "not a readable property list: \(detail)"))
            return
        }
        guard let root = plist as? [String: Any] else {
            diagnostics.append(
                Diagnostic(
                    file: file, line: 1, column: 1, severity: .error, code: "syntax",
                    message: "the root is not a dictionary"))
            return
        }
        let comments = Self.comments(in: text)
        for key in root.keys.sorted() {
            guard let body = root[key] as? [String: Any] else {
                report(key, "entry \"\(key)\" is not a dictionary")
                continue
            }
            var entry = StringsDictEntry(
                key: key, formatKey: body["NSStringLocalizedFormatKey"] as? String, comment: comments[key])
            if let width = body["NSStringVariableWidthRuleType"] as? [String: Any] {
                for (w, v) in width {
                    if let n = Int(w), let s = v as? String {
                        entry.widthVariants[n] = s
                    } else {
                        report(key, "entry \"\(key)\": width variant \"\(w)\" is not a number → string")
                    }
                }
            }
            if entry.formatKey == nil && entry.widthVariants.isEmpty {
                report(key, "entry \"\(key)\" has no NSStringLocalizedFormatKey")
                continue
            }
            var ok = true
            for (name, value) in body
            where name != "NSStringLocalizedFormatKey" && name != "NSStringVariableWidthRuleType" {
                guard let v = value as? [String: Any] else {
                    report(key, "entry \"\(key)\": variable \"\(name)\" is not a dictionary")
                    ok = false
                    continue
                }
                let spec = v["NSStringFormatSpecTypeKey"] as? String ?? ""
                guard spec == "NSStringPluralRuleType" else {
                    report(
                        key,
                        "entry \"\(key)\": variable \"\(name)\" has NSStringFormatSpecTypeKey \"\(spec)\" (expected NSStringPluralRuleType)"
                    )
                    ok = false
                    continue
                }
                var forms: [String: String] = [:]
                for category in pluralCategoryNames {
                    if let f = v[category] as? String { forms[category] = f }
                }
                for extra in v.keys
                where ![
                    "zero", "one", "two", "few", "many", "other", "NSStringFormatSpecTypeKey",
                    "NSStringFormatValueTypeKey",
                ].contains(extra) {
                    report(key, "entry \"\(key)\": variable \"\(name)\" has unknown key \"\(extra)\"", .warning)
                }
                if forms["other"] == nil {
                    report(key, "entry \"\(key)\": variable \"\(name)\" has no \"other\" form")
                }
                entry.variables[name] = PluralVariable(
                    name: name, specType: spec, valueType: v["NSStringFormatValueTypeKey"] as? String, forms: forms)
            }
            if let formatKey = entry.formatKey, let specs = try? PrintfFormat.arguments(of: formatKey) {
                for (_, s) in specs where s.variable != nil && entry.variables[s.variable!] == nil {
                    report(key, "entry \"\(key)\": format uses %#@\(s.variable!)@ but defines no such variable")
                    ok = false
                }
            }
            if ok || entry.formatKey != nil { entries[key] = entry }
        }
    }

    static func xmlEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Top-level `<!-- comment -->` right before `<key>…</key>` at the entry level.
    static func comments(in text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while let open = rest.range(of: "<!--") {
            guard let close = rest[open.upperBound...].range(of: "-->") else { break }
            let body = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            let after = rest[close.upperBound...]
            let trimmed = after.drop(while: { $0.isWhitespace })
            if trimmed.hasPrefix("<key>"), let end = trimmed.range(of: "</key>") {
                let key = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 5)..<end.lowerBound]
                let unescaped = key.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(
                    of: "&gt;", with: ">"
                )
                .replacingOccurrences(of: "&amp;", with: "&")
                result[unescaped] = body
            }
            rest = after
        }
        return result
    }
}

/// Plural rules are costly to open: one per locale, shared.
enum PluralRulesCache {
    private static let opened = Mutex<[String: PluralRules]>([:])

    static func rules(for locale: String) -> PluralRules? {
        opened.withLock { opened in
            if let r = opened[locale] { return r }
            guard var r = try? PluralRules(locale: locale.replacingOccurrences(of: "-", with: "_")) else {
                return nil
            }
            // A code ICU knows by CLDR's alias only (`kmr` is `ku`) gets the alias's rules, not root's.
            let alias = ICULocale.canonicalTag(locale)
            if r.categories == [.other], alias != locale,
                let aliased = try? PluralRules(locale: alias.replacingOccurrences(of: "-", with: "_")),
                aliased.categories != [.other]
            {
                r = aliased
            }
            opened[locale] = r
            return r
        }
    }

    static func category(for number: Double, locale: String) -> PluralRules.Category {
        rules(for: locale)?.category(for: number) ?? .other
    }

    /// The categories a locale's cardinal rules use.
    static func categories(for locale: String) -> [PluralRules.Category] {
        rules(for: locale)?.categories ?? [.other]
    }
}
