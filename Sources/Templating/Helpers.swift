import Foundation
import ICUKit
import Locales
import Support
import Synchronization

/// The built-in, locale-aware helpers every render can use (unless `RenderOptions.helpers` is off). They
/// sit at the bottom of the context stack, so names in your data win over them.
///
/// ```mustache
/// <html lang="{{lang}}" dir="{{dir}}">
/// {{#t}}invite.body{{/t}}                 ICU MessageFormat pattern from the catalog, args from the context
/// {{#mf2}}others_mf2{{/mf2}}              Unicode MessageFormat 2 message from the catalog (or written inline)
///                                         (`{x_count}` = length of list x, `{x_list}` = x as a list, `{x_date}` = x as a long date,
///                                         a person object = its name in its own order)
/// {{#list}}others:name{{/list}}           "Alice, Bob und Carol" (items' `name`; plain lists need no ":field")
/// {{#number}}amount currency/EUR{{/number}}   an ICU number skeleton is optional
/// {{#date}}when long{{/date}}             short | medium | long | full, or a skeleton like yMMMd; `when` is
///                                         YYYY-MM-DD, RFC 3339 (`…T09:00:00-05:00`) or Unix seconds
/// {{#fullName}}inviter{{/fullName}}       given/family name in the name's own order (script, else its language)
/// ```
public enum Helpers {
    /// The names of the helpers.
    public static let names = ["t", "mf2", "list", "number", "date", "fullName", "dir", "lang"]

    static let value: MustacheValue = .dictionary([
        "t": .lambda(MustacheLambda(isolatesResult: false, translate)),
        "mf2": .lambda(MustacheLambda(isolatesResult: false, mf2)),
        "list": .lambda(MustacheLambda(isolatesResult: false, list)),
        "number": .lambda(MustacheLambda(number)),
        "date": .lambda(MustacheLambda(date)),
        "fullName": .lambda(MustacheLambda(fullName)),
        "dir": .lambda(MustacheLambda { call in .raw(ICULocale.isRightToLeft(call.locale) ? "rtl" : "ltr") }),
        "lang": .lambda(MustacheLambda(isolatesResult: false) { call in .text(call.locale) }),
    ])

    static func fail(_ call: LambdaCall, _ helper: String, _ message: String) -> TemplatingError {
        .helper(
            name: helper, template: call.templateName, line: call.position.line, column: call.position.column,
            recipient: call.options.recipient, message: message)
    }

    /// The section text of a helper: "name" and an optional argument after the first space.
    static func arguments(_ call: LambdaCall, _ helper: String) throws -> (name: String, argument: String?) {
        guard let text = call.sectionText?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw fail(call, helper, "expected {{#\(helper)}}name{{/\(helper)}}")
        }
        if let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) {
            let rest = text[space...].trimmingCharacters(in: .whitespaces)
            return (String(text[..<space]), rest.isEmpty ? nil : rest)
        }
        return (text, nil)
    }

    static func value(_ call: LambdaCall, _ helper: String, _ name: String) throws -> MustacheValue? {
        if let v = call.lookup(name) { return v }
        if call.options.strict {
            throw TemplatingError.missingValue(
                name: name, template: call.templateName, line: call.position.line,
                column: call.position.column, recipient: call.options.recipient)
        }
        return nil
    }

    // MARK: t

    static func translate(_ call: LambdaCall) throws -> LambdaResult {
        guard let key = call.sectionText?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw fail(call, "t", "expected a message key: {{#t}}key{{/t}}")
        }
        guard let catalog = call.options.catalog else {
            throw fail(call, "t", "no message catalog for '\(key)' (set RenderOptions.catalog)")
        }
        let table = call.options.table
        guard let pattern = catalog.message(forKey: key, table: table, locale: call.locale) else {
            throw TemplatingError.missingMessage(
                key: key, table: table, locale: call.locale, template: call.templateName,
                line: call.position.line, column: call.position.column)
        }
        let text = try MessageFormatter.shared.format(pattern, locale: call.locale, key: key, table: table) { name in
            try messageArgument(named: name, key: key, call: call)
        }
        return .text(text)
    }

    /// A message argument as placed into the text: strings wrapped when their direction differs from it
    /// (``BidiIsolation/wrap(_:inRightToLeftText:)``).
    static func isolated(_ argument: MessageFormat.Argument?, _ options: RenderOptions) -> MessageFormat.Argument? {
        guard options.bidiIsolation != .none, case .string(let s) = argument else { return argument }
        return .string(options.isolate(s))
    }

    /// The value of argument `name` of message `key`: from the context, or derived (`_count`, `_list`, `_date`);
    /// isolated for right-to-left text (a list item by item).
    static func messageArgument(named name: String, key: String, call: LambdaCall) throws -> MessageFormat.Argument? {
        if let v = call.lookup(name) { return isolated(try messageArgument(v, name: name, call: call), call.options) }
        // `people_count` is the length of the list `people`; `people_list` the list formatted for the locale.
        for suffix in ["_count", "_list", "_date"] where name.hasSuffix(suffix) && name.count > suffix.count {
            let base = String(name.dropLast(suffix.count))
            guard let v = call.lookup(base) else { continue }
            if suffix == "_date" {
                return .string(
                    call.options.isolate(try formatDate(v, name: base, style: "long", helper: "t", call: call)))
            }
            let items: [MustacheValue] = if case .array(let a) = v { a } else if case .null = v { [] } else { [v] }
            if suffix == "_count" { return .int(Int64(items.count)) }
            return .string(try formatList(items, field: nil, listName: base, call: call))
        }
        if call.options.strict {
            throw fail(call, "t", "message '\(key)' needs a value for '\(name)'")
        }
        return nil
    }

    static func messageArgument(_ value: MustacheValue, name: String, call: LambdaCall) throws -> MessageFormat.Argument
    {
        switch value {
        case .null: return .string("")
        case .bool(let b): return .string(b ? "true" : "false")
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .date(let ms): return .date(ms)
        case .array(let items): return .int(Int64(items.count))
        case .dictionary, .object, .lambda:
            if let text = value.scalarText { return .string(text) }
            if let person = personText(value) { return .string(person) }
            throw fail(call, "t", "'\(name)' is a list or object, not a message argument")
        }
    }

    // MARK: list

    static func list(_ call: LambdaCall) throws -> LambdaResult {
        let (spec, _) = try arguments(call, "list")
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard let value = try value(call, "list", parts[0]) else { return .text("") }
        let items: [MustacheValue]
        switch value {
        case .array(let a): items = a
        case .null: items = []
        default: items = [value]
        }
        return .text(try formatList(items, field: parts.count > 1 ? parts[1] : nil, listName: parts[0], call: call))
    }

    /// Formats items as a list for the locale: scalars as they are, objects by `field`, else by their
    /// `name`, else as a person's name (given/family).
    static func formatList(_ items: [MustacheValue], field: String?, listName: String, call: LambdaCall) throws
        -> String
    {
        var texts: [String] = []
        for item in items {
            var text: String?
            switch item {
            case .dictionary, .object:
                if let field {
                    text = item.member(field)?.scalarText
                } else {
                    text = item.scalarText ?? item.member("name")?.scalarText ?? personText(item)
                }
            default:
                text = item.scalarText
            }
            guard let text else {
                throw fail(call, "list", "an item of '\(listName)' has no text\(field.map { " in '\($0)'" } ?? "")")
            }
            texts.append(call.options.isolate(text))
        }
        do {
            return try ICUFormat.list(texts, locale: call.locale)
        } catch {
            throw fail(call, "list", "\(error)")
        }
    }

    // MARK: number

    static func number(_ call: LambdaCall) throws -> LambdaResult {
        let (name, skeleton) = try arguments(call, "number")
        guard let value = try value(call, "number", name) else { return .text("") }
        do {
            switch value {
            case .int(let i):
                return .text(try ICUFormat.number(decimal: String(i), locale: call.locale, skeleton: skeleton ?? ""))
            case .double(let d): return .text(try ICUFormat.number(d, locale: call.locale, skeleton: skeleton ?? ""))
            case .string(let s) where Double(s) != nil:
                return .text(try ICUFormat.number(decimal: s, locale: call.locale, skeleton: skeleton ?? ""))
            default:
                throw fail(call, "number", "'\(name)' is not a number")
            }
        } catch let error as TemplatingError {
            throw error
        } catch {
            throw fail(call, "number", "\(error)")
        }
    }

    // MARK: date

    static func date(_ call: LambdaCall) throws -> LambdaResult {
        let (name, style) = try arguments(call, "date")
        guard let value = try value(call, "date", name) else { return .text("") }
        return .text(try formatDate(value, name: name, style: style ?? "long", helper: "date", call: call))
    }

    /// The forms `{{#date}}` (and a message's `{x_date}`) read, named in its errors.
    static let dateForms =
        "YYYY-MM-DD, an RFC 3339 date-time YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or ±HH:MM, or a number of Unix seconds"

    /// The latest Unix second a date may have (9999-12-31T23:59:59Z).
    static let maxUnixSeconds = 253_402_300_799.0

    /// Formats a date value with a style name (short, medium, long, full) or an ICU skeleton. The rule:
    /// a `.date` value is milliseconds since 1970 (from Swift code); a number (JSON, data) is **Unix
    /// seconds**, as `date +%s` prints it; a string is `YYYY-MM-DD` or an RFC 3339 date-time. Dates and
    /// numbers are shown in UTC; a date-time with an offset (`-05:00`) is shown in that offset, so its date
    /// is the one written. Impossible days (`2026-02-29`) and numbers beyond the year 9999 (milliseconds
    /// given as seconds) are errors naming the template, line and the expected form.
    static func formatDate(_ value: MustacheValue, name: String, style: String, helper: String, call: LambdaCall) throws
        -> String
    {
        let millis: Double
        var timeZone = "UTC"
        func seconds(_ s: Double) throws -> Double {
            guard s.isFinite, abs(s) <= maxUnixSeconds else {
                throw fail(
                    call, helper,
                    "'\(name)' is \(MustacheValue.double(s).scalarText ?? "\(s)"), beyond the year 9999 as Unix "
                        + "seconds (a number is seconds since 1970, not milliseconds; expected \(dateForms))")
            }
            return s * 1000
        }
        switch value {
        case .date(let ms): millis = ms
        case .int(let i): millis = try seconds(Double(i))
        case .double(let d): millis = try seconds(d)
        case .string(let s):
            switch parseDate(s) {
            case .success(let parsed):
                millis = parsed.millis
                timeZone = parsed.timeZone
            case .failure(let problem):
                throw fail(call, helper, "'\(name)' is not a date: \(problem.message) (expected \(dateForms)): \(s)")
            }
        default:
            throw fail(call, helper, "'\(name)' is not a date (expected \(dateForms))")
        }
        let styles: [String: ICUFormat.DateStyle] = ["short": .short, "medium": .medium, "long": .long, "full": .full]
        do {
            if let s = styles[style] {
                return try ICUFormat.date(
                    millisecondsSince1970: millis, locale: call.locale, timeZone: timeZone, dateStyle: s)
            }
            return try ICUFormat.date(
                millisecondsSince1970: millis, locale: call.locale, timeZone: timeZone, skeleton: style)
        } catch {
            throw fail(call, helper, "\(error)")
        }
    }

    /// Why a date string was not read.
    struct DateProblem: Error, Equatable {
        var message: String
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS]Z` (UTC) into milliseconds since 1970.
    static func parseISODate(_ s: String) -> Double? {
        try? parseDate(s).get().millis
    }

    /// Parses a date or RFC 3339 date-time (``ISODate/parse(_:)``, the package's one reader of them).
    static func parseDate(_ s: String) -> Result<(millis: Double, timeZone: String), DateProblem> {
        ISODate.parse(s).mapError { DateProblem(message: $0.message) }
    }

    // MARK: names

    static func fullName(_ call: LambdaCall) throws -> LambdaResult {
        let (name, _) = try arguments(call, "fullName")
        guard let value = try value(call, "fullName", name) else { return .text("") }
        if case .string(let s) = value { return .text(s) }
        if let text = personText(value) { return .text(text) }
        if let t = value.member("name")?.scalarText { return .text(t) }
        throw fail(call, "fullName", "'\(name)' has no givenName/familyName (or firstName/lastName)")
    }

    /// The name of a person-like value (givenName/familyName or firstName/lastName, with namePrefix,
    /// middleName and nameSuffix when present) in the name's own order: its script, else its `language`
    /// (or `lang`) — never the order of the language the message is rendered in.
    static func personText(_ value: MustacheValue) -> String? {
        func field(_ keys: [String]) -> String {
            for k in keys { if let t = value.member(k)?.scalarText, !t.isEmpty { return t } }
            return ""
        }
        let given = field(["givenName", "firstName"])
        let family = field(["familyName", "lastName"])
        if given.isEmpty && family.isEmpty { return nil }
        let name = PersonName(
            prefix: field(["namePrefix"]), given: given, middle: field(["middleName"]), family: family,
            suffix: field(["nameSuffix"]))
        let language = field(["language", "lang"])
        return personName(name, language: language.isEmpty ? nil : language)
    }

    /// A person's name as the package shows it everywhere (list, search, templates, mail headers), whoever
    /// reads it: `NameOrder.format(_:language:)` (Locales), `language` being the person's own (vCard `LANG`).
    ///
    /// ```swift
    /// Helpers.personName(PersonName(given: "太郎", family: "山田"))                     // "山田太郎"
    /// Helpers.personName(PersonName(given: "John", family: "Smith"))                    // "John Smith", in a Hungarian mail too
    /// Helpers.personName(PersonName(given: "Péter", family: "Nagy"), language: "hu")    // "Nagy Péter"
    /// ```
    public static func personName(_ name: PersonName, language: String? = nil) -> String {
        NameOrder.format(name, language: language)
    }
}

/// Compiled ICU MessageFormat patterns, cached per locale and pattern, shared by all renders.
final class MessageFormatter: Sendable {
    /// Whether the pattern has the plain placeholder `{name}` and every one is directly followed by ".".
    static func alwaysBeforePeriod(_ name: String, in pattern: String) -> Bool {
        let placeholder = "{" + name + "}"
        var found = false
        var rest = pattern[...]
        while let r = rest.range(of: placeholder) {
            guard rest[r.upperBound...].first == "." else { return false }
            found = true
            rest = rest[r.upperBound...]
        }
        return found
    }

    static let shared = MessageFormatter()
    /// Compiled formats by locale and pattern. ICU's formatter keeps state while it formats, so a format is
    /// used only inside this lock.
    private let cache = Mutex<[String: MessageFormat]>([:])

    func format(
        _ pattern: String, locale: String, key: String, table: String,
        argument: (String) throws -> MessageFormat.Argument?
    ) throws -> String {
        let cacheKey = locale + "\u{0}" + pattern
        return try cache.withLock { cache in
            let format: MessageFormat
            if let cached = cache[cacheKey] {
                format = cached
            } else {
                do {
                    format = try MessageFormat(pattern, locale: locale)
                } catch {
                    throw TemplatingError.badMessage(key: key, table: table, locale: locale, message: "\(error)")
                }
                if cache.count > 1024 { cache.removeAll() }
                cache[cacheKey] = format
            }
            var arguments: [String: MessageFormat.Argument] = [:]
            for name in format.argumentNames {
                guard var a = try argument(name) else { continue }
                // "до {expires_date}." with a Russian long date "1 июля 2025 г." would end "г..": a value that
                // ends with a period, placed only where the sentence's own period follows, gives up its own.
                if case .string(let s) = a, Self.alwaysBeforePeriod(name, in: pattern) {
                    if s.hasSuffix(".") {
                        a = .string(String(s.dropLast()))
                    } else if let mark = s.unicodeScalars.last, mark == "\u{2069}" || mark == "\u{200E}",
                        s.unicodeScalars.dropLast().last == "."
                    {
                        // An isolated value ("…г.⁩") gives up the period inside its isolate.
                        a = .string(String(String.UnicodeScalarView(s.unicodeScalars.dropLast(2))) + String(mark))
                    }
                }
                arguments[name] = a
            }
            do {
                return try format.format(arguments)
            } catch {
                throw TemplatingError.badMessage(key: key, table: table, locale: locale, message: "\(error)")
            }
        }
    }
}
