import Foundation
import MessageFormat2

extension Catalog {
    /// The catalog of the folder at `place`; a folder without any localization file is
    /// ``StringsCatalogError/noLocalizationFiles(_:)``. (Damaged files are served as far as they can be:
    /// ``lookupProblems(_:table:requested:)`` says which.)
    public init(at place: LocalizationPlace) throws {
        try self.init(directory: place.url)
        if files.isEmpty { throw StringsCatalogError.noLocalizationFiles(place.display) }
    }

    /// The value of `key` as `strings get` prints it, for `locale` (a language list `a:b:c`) with fallback:
    /// formatted as a message with `named` arguments (``formatMessage(_:table:locale:arguments:bidiIsolation:)``),
    /// else as a printf format with `arguments` (``format(_:table:locale:arguments:)``), else as it is. Throws
    /// ``StringsCatalogError/missingKey(key:table:locale:)`` for a key no language has, and what formatting
    /// throws.
    ///
    /// ```swift
    /// let catalog = try Catalog.bundled()
    /// print(try catalog.answer("%d contacts selected", locale: "ru", arguments: [.int(3)]).text)
    /// ```
    public func answer(
        _ key: String, table: String = "Localizable", locale: String, arguments: [CatalogArgument] = [],
        named: [String: MessageArgument] = [:], bidiIsolation: BidiStrategy = .default
    ) throws -> FormattedMessage {
        guard let value = string(key, table: table, locale: locale) else {
            throw StringsCatalogError.missingKey(key: key, table: table, locale: locale)
        }
        if !named.isEmpty {
            return try formatMessage(
                key, table: table, locale: locale, arguments: named, bidiIsolation: bidiIsolation)
        }
        let text = arguments.isEmpty ? value : try format(key, table: table, locale: locale, arguments: arguments)
        return FormattedMessage(text: text, errors: [], syntax: MessageSyntax(key: key, value: value))
    }
}

extension LookupProblem {
    /// The warning that goes with the ``diagnostic``: `warning: FILE could not be read; answered from …`.
    public var warning: String { "warning: \(file) \(unreadable ? "could not be read" : "has errors"); \(answer)" }
}

extension CatalogArgument {
    /// A command-line argument: an integer is a number, anything else text.
    public init(commandLine text: String) { self = Int(text).map(CatalogArgument.int) ?? .string(text) }
}
