import Foundation
import ICUKit
import MessageFormat2

/// The syntax a catalog value is written in: the one rule that `strings get`, lint and pseudolanguages
/// use to tell a MessageFormat 2 value.
///
/// ```swift
/// MessageSyntax(key: "others_mf2", value: "{$n} others")                      // .messageFormat2
/// MessageSyntax(key: "files", value: ".input {$n :number} .match $n * {{…}}")  // .messageFormat2
/// MessageSyntax(key: "files", value: "{n, plural, one {# file} other {# files}}")  // .messageFormat1
/// ```
public enum MessageSyntax: Sendable, Hashable {
    /// Unicode MessageFormat 2: the key ends in `_mf2` or `.mf2`, or the value is a complex message: it
    /// starts (after white space) with a declaration (`.input`, `.local`) or a `.match`. (A simple message,
    /// or one that is only a quoted pattern `{{…}}`, is marked by its key.)
    case messageFormat2
    /// Any other value: an ICU MessageFormat pattern, as templates' `{{#t}}` reads it.
    case messageFormat1

    public init(key: String, value: String) {
        if key.hasSuffix("_mf2") || key.hasSuffix(".mf2") {
            self = .messageFormat2
            return
        }
        let start = value.drop { $0.isWhitespace }
        // A keyword ends where a name could not go on (`.match $n`, `.input {$n}`, not `.matched`).
        let keyword = [".input", ".local", ".match"].contains { word in
            start.hasPrefix(word)
                && start.dropFirst(word.count).first.map { !($0.isLetter || $0.isNumber || "-_.".contains($0)) }
                    ?? false
        }
        self = keyword ? .messageFormat2 : .messageFormat1
    }
}

/// A catalog value formatted with named arguments: its text, with the fallbacks of placeholders that
/// failed (`{$name}`), and those failures.
public struct FormattedMessage: Sendable, Hashable {
    public var text: String
    /// What went wrong while formatting (an MF2 `unresolved-variable`, …); empty when nothing did.
    public var errors: [String]
    /// The syntax the value was read in.
    public var syntax: MessageSyntax
}

extension Catalog {
    /// Looks up `key` (with language fallback) and formats its value with named arguments, in the locale
    /// of the language the value came from: a MessageFormat 2 value (``MessageSyntax``) by the
    /// `MessageFormat2` module (draft functions such as `:date` included), any other value as an ICU
    /// MessageFormat pattern. Throws ``StringsCatalogError/missingKey(key:table:locale:)`` for a key no
    /// language has, ``StringsCatalogError/formatMismatch(pattern:message:)`` for a value that is not a
    /// message of its syntax (the error's line and column are the value's) and for a plural entry of a
    /// `.stringsdict` (those take a count: ``format(_:table:locale:arguments:)``).
    ///
    /// ```swift
    /// let catalog = try Catalog.bundled()
    /// let m = try catalog.formatMessage(
    ///     "others_mf2", table: "invite", locale: "en",
    ///     arguments: ["others_count": 1, "others_list": "Ada"], bidiIsolation: .none)
    /// m.text   // "Ada is invited too."
    /// ```
    public func formatMessage(
        _ key: String, table: String = "Localizable", locale: String, arguments: [String: MessageArgument],
        bidiIsolation: BidiStrategy = .default
    ) throws -> FormattedMessage {
        guard let found = language(of: key, table: table, locale: locale) else {
            throw StringsCatalogError.missingKey(key: key, table: table, locale: locale)
        }
        let language = found == "Base" ? developmentLanguage : found
        guard let value = tables[found]?[table]?.strings[key] else {
            throw StringsCatalogError.formatMismatch(
                pattern: key, message: "a plural entry takes a count, not named arguments")
        }
        switch MessageSyntax(key: key, value: value) {
        case .messageFormat2:
            let formatter: MessageFormatter
            do {
                formatter = try MessageFormatter(
                    value, locale: language, bidiIsolation: bidiIsolation,
                    functions: FunctionRegistry.standard.adding(.draft))
            } catch {
                throw StringsCatalogError.formatMismatch(pattern: value, message: Self.describe(error))
            }
            let result = formatter.format(arguments)
            return FormattedMessage(
                text: result.text, errors: result.errors.map { "\($0)" }, syntax: .messageFormat2)
        case .messageFormat1:
            do {
                let format = try MessageFormat(value, locale: language)
                return FormattedMessage(
                    text: try format.format(arguments.mapValues(Self.icuArgument)), errors: [],
                    syntax: .messageFormat1)
            } catch {
                throw StringsCatalogError.formatMismatch(pattern: value, message: "ICU MessageFormat: \(error)")
            }
        }
    }

    /// An MF2 error as "MessageFormat 2 syntax error at line L, column C: …" (or its data-model name).
    static func describe(_ error: MessageError) -> String {
        switch error {
        case .syntax(let line, let column, let message):
            "MessageFormat 2 syntax error at line \(line), column \(column): \(message)"
        default: "MessageFormat 2: \(error)"
        }
    }

    /// A named argument as ICU's MessageFormat takes it: whole numbers as integers, other numbers as
    /// doubles, dates as milliseconds, everything else as text.
    static func icuArgument(_ value: MessageArgument) -> MessageFormat.Argument {
        switch value {
        case .string(let s): return .string(s)
        case .integer(let i): return .int(Int64(i))
        case .double(let d): return .double(d)
        case .decimal(let s): return Int64(s).map { .int($0) } ?? Double(s).map { .double($0) } ?? .string(s)
        case .date(let d): return .date(d.timeIntervalSince1970 * 1000)
        case .bool(let b): return .string(b ? "true" : "false")
        case .isoDateTime(let s): return .string(s)
        case .value(let v): return .string("\(v)")
        case .resolved(let r): return .string("\(r)")
        }
    }
}
