import Foundation
import Locales
import PackageResources
import Synchronization

/// Localized strings loaded from a resources folder: `<lang>.lproj/<Table>.strings` and
/// `.stringsdict` (also `Base.lproj` and legacy names such as `English.lproj`, `zh_CN.lproj`) and
/// String Catalogs (`<Table>.xcstrings`). Lookups match the requested language with CLDR-style
/// fallback and fall back per key to the development language.
///
/// ```swift
/// let catalog = try Catalog(directory: URL(fileURLWithPath: "Localizations"))
/// catalog.resolveLanguages(for: ["es-MX"])                        // ["es-419", "es", "en"]
/// catalog.string("Cancel", locale: "de")                          // "Abbrechen"
/// try catalog.format("%d contacts selected", locale: "ru", arguments: [.int(3)])
/// ```
public struct Catalog: Sendable {
    /// What a lookup returns for a key that no language in the chain has.
    public enum MissingKeyBehavior: Sendable, Hashable {
        /// Walk the whole chain down to the development language (default), then nil.
        case fallBack
        /// Only the best-matching language; nil when it lacks the key.
        case noFallback
        /// Walk the chain, then return the key itself.
        case returnKey
    }

    /// One language's table: plain strings, comments, and stringsdict/catalog plural entries.
    public struct Table: Sendable, Hashable {
        public var strings: [String: String] = [:]
        public var comments: [String: String] = [:]
        public var plurals: [String: StringsDictEntry] = [:]
        public init() {}
    }

    /// One localization file found on disk.
    public struct File: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, Codable { case strings, stringsdict, xcstrings }
        public var url: URL
        public var kind: Kind
        /// The language (BCP 47) for `.lproj` files; nil for `.xcstrings` (many languages).
        public var language: String?
        public var table: String
        /// The folder holding the `.lproj` folder or the catalog, relative to the searched one ("" when
        /// directly inside it).
        public var folder: String = ""
        /// The table qualified by its folder (`App/Localizable`), unique within a search.
        public var qualifiedTable: String { folder.isEmpty ? table : folder + "/" + table }
    }

    /// The folder the catalog was read from (nil for one built in memory).
    public let directory: URL?
    /// The language every lookup falls back to last (BCP 47), `en` by default.
    public let developmentLanguage: String
    /// What a lookup does for a key the chain lacks: fall back (default), stop, or return the key.
    public var missingKeyBehavior: MissingKeyBehavior = .fallBack
    /// language → table name → table.
    public private(set) var tables: [String: [String: Table]]
    /// The files read, in a stable order.
    public private(set) var files: [File]
    /// Problems met while loading (syntax findings of each file); good entries are still served.
    public private(set) var diagnostics: [Diagnostic]
    /// Files that could not be read at all (a subset of ``diagnostics``, one per file); the others are served.
    public private(set) var loadErrors: [Diagnostic] = []
    /// Requested languages → resolved chain; reset whenever the tables change.
    private var resolutionCache = ResolutionCache()

    /// Loads every localization under `directory`. Throws only when the folder cannot be listed.
    public init(directory: URL, developmentLanguage: String = "en") throws {
        self.directory = directory
        self.developmentLanguage = LocalePolicy.bcp47(fromLocalizationName: developmentLanguage)
        tables = [:]
        diagnostics = []
        files = try Self.scan(directory)
        for file in files {
            do {
                try load(file)
            } catch let error as StringsCatalogError {
                let d = Self.diagnostic(for: error, file: file.url.path)
                diagnostics.append(d)
                loadErrors.append(d)
            }
        }
        // Base.lproj is the development language's base: its own entries win.
        if let base = tables.removeValue(forKey: "Base") {
            var dev = tables[self.developmentLanguage] ?? [:]
            for (name, table) in base {
                var merged = table
                if let own = dev[name] {
                    merged.strings.merge(own.strings) { $1 }
                    merged.comments.merge(own.comments) { $1 }
                    merged.plurals.merge(own.plurals) { $1 }
                }
                dev[name] = merged
            }
            tables[self.developmentLanguage] = dev
        }
    }

    /// An empty catalog, filled with ``add(_:language:table:)``.
    public init(developmentLanguage: String = "en") {
        directory = nil
        self.developmentLanguage = developmentLanguage
        tables = [:]
        files = []
        diagnostics = []
    }

    static func diagnostic(for error: StringsCatalogError, file: String) -> Diagnostic {
        if case .malformed(let f, let line, let column, let message) = error {
            return Diagnostic(file: f, line: line, column: column, severity: .error, code: "syntax", message: message)
        }
        return Diagnostic(file: file, line: 1, column: 1, severity: .error, code: "io", message: error.description)
    }

    /// Folders a search for localizations never enters: hidden ones (`.build`, `.git`, `.swiftpm`), build
    /// products and dependency checkouts.
    static func skipped(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        if ["DerivedData", "node_modules", "Pods", "Carthage"].contains(name) { return true }
        return [".xcodeproj", ".xcworkspace", ".xcassets", ".app", ".framework", ".xcframework", ".xcarchive", ".dSYM"]
            .contains { name.hasSuffix($0) }
    }

    /// Lists the `.lproj` folders' `.strings`/`.stringsdict` files and the `.xcstrings` files under
    /// `directory`, as Xcode finds them: anywhere in the tree (a `Localization/` folder whose `.lproj`
    /// folders sit in per-target subfolders, a `Resources/` folder with a catalog), without entering
    /// ``skipped(_:)`` folders or following symbolic links to folders. Sorted by path.
    static func scan(_ directory: URL) throws -> [File] {
        let fm = FileManager.default
        var files: [File] = []
        func isDirectory(_ url: URL) -> Bool {
            guard let type = try? fm.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType else {
                return false
            }
            return type == .typeDirectory
        }
        func walk(_ dir: URL, relative: String, depth: Int) throws {
            let names: [String]
            do { names = try fm.contentsOfDirectory(atPath: dir.path).sorted() } catch {
                if depth == 0 {
                    throw StringsCatalogError.io(
                        path: directory.path, message: "cannot list folder: \(error.localizedDescription)")
                }
                return
            }
            for name in names {
                let url = dir.appendingPathComponent(name)
                if name.hasSuffix(".lproj") && isDirectory(url) {
                    // The language as the folder spells its code (`tl`, `zh-Hans` for `zh-hans.lproj`):
                    // lookups match codes, and tools write back to the folder that is there.
                    let language = LocalePolicy.folderLanguage(name)
                    let inner = (try? fm.contentsOfDirectory(atPath: url.path).sorted()) ?? []
                    for f in inner {
                        let fileURL = url.appendingPathComponent(f)
                        if f.hasSuffix(".strings") {
                            files.append(
                                File(
                                    url: fileURL, kind: .strings, language: language, table: String(f.dropLast(8)),
                                    folder: relative))
                        } else if f.hasSuffix(".stringsdict") {
                            files.append(
                                File(
                                    url: fileURL, kind: .stringsdict, language: language,
                                    table: String(f.dropLast(12)), folder: relative))
                        }
                    }
                } else if name.hasSuffix(".xcstrings") && !isDirectory(url) {
                    files.append(
                        File(
                            url: url, kind: .xcstrings, language: nil, table: String(name.dropLast(10)),
                            folder: relative))
                } else if depth < 24 && !skipped(name) && isDirectory(url) {
                    try walk(url, relative: relative.isEmpty ? name : relative + "/" + name, depth: depth + 1)
                }
            }
        }
        try walk(directory, relative: "", depth: 0)
        return files
    }

    mutating func load(_ file: File) throws {
        switch file.kind {
        case .strings:
            let doc = try StringsDocument(contentsOf: file.url)
            diagnostics += doc.diagnostics.filter { $0.severity == .error }
            // CoreFoundation rejects a file in an encoding it cannot read (UTF-16 without BOM, invalid bytes):
            // the app falls back to other languages, and so do lookups here.
            if let rejected = doc.diagnostics.first(where: { $0.code == "encoding" && $0.severity == .error }) {
                loadErrors.append(rejected)
                return
            }
            var table = tables[file.language!]?[file.table] ?? Table()
            for e in doc.entries {
                table.strings[e.key] = e.value
                if let c = e.comment { table.comments[e.key] = c }
            }
            tables[file.language!, default: [:]][file.table] = table
        case .stringsdict:
            let doc = try StringsDictDocument(contentsOf: file.url)
            diagnostics += doc.diagnostics.filter { $0.severity == .error }
            var table = tables[file.language!]?[file.table] ?? Table()
            table.plurals.merge(doc.entries) { $1 }
            for (k, e) in doc.entries { if let c = e.comment, table.comments[k] == nil { table.comments[k] = c } }
            tables[file.language!, default: [:]][file.table] = table
        case .xcstrings:
            let doc = try XCStringsDocument(contentsOf: file.url)
            add(doc, table: file.table)
        }
    }

    /// Adds a String Catalog's values as table `table`.
    public mutating func add(_ doc: XCStringsDocument, table name: String) {
        resolutionCache = ResolutionCache()
        // Each language's table is taken out once, filled, and put back (not copied per entry).
        var filled: [String: Table] = [:]
        for entry in doc.entries {
            for language in Set(entry.localizations.keys).union([doc.sourceLanguage]) {
                let plural = doc.pluralEntry(of: entry, language: language)
                let value = plural == nil ? doc.value(of: entry, language: language) : nil
                guard plural != nil || value != nil else { continue }
                if filled[language] == nil { filled[language] = tables[language]?[name] ?? Table() }
                if let plural {
                    filled[language]!.plurals[entry.key] = plural
                } else if let value {
                    filled[language]!.strings[entry.key] = value
                }
                if let c = entry.comment { filled[language]!.comments[entry.key] = c }
            }
        }
        for (language, table) in filled { tables[language, default: [:]][name] = table }
    }

    /// Adds (or replaces) one table for a language.
    public mutating func add(_ table: Table, language: String, table name: String) {
        resolutionCache = ResolutionCache()
        tables[LocalePolicy.bcp47(fromLocalizationName: language), default: [:]][name] = table
    }

    /// The package's own `Localizations/` resources (the documented UI literals). Looks for the resource
    /// bundle beside the running executable or test bundle, as SwiftPM lays it out, and never traps when
    /// it is absent (it throws instead; ``Strings`` then serves English).
    public static func bundled() throws -> Catalog {
        guard let url = bundledLocalizationsURL() else {
            throw StringsCatalogError.io(
                path: "ContactsSelection_StringsCatalog.resources",
                message: "the StringsCatalog resource bundle was not found beside the executable")
        }
        return try Catalog(directory: url)
    }

    /// Where SwiftPM put the `Localizations` resources, else the source folder of a development checkout.
    static func bundledLocalizationsURL() -> URL? {
        ResourceFolder.find(
            bundle: "ContactsSelection_StringsCatalog", folder: "Localizations",
            source: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Localizations"))
    }

    // MARK: Lookup

    /// Every language with at least one table (BCP 47), sorted.
    public var languages: [String] { tables.keys.sorted() }

    /// The table names present in any language.
    public var tableNames: [String] { Set(tables.values.flatMap(\.keys)).sorted() }

    /// The languages to try for `requested`, best first, ending with the development language.
    public func resolveLanguages(for requested: [String]) -> [String] {
        let cacheKey = requested.joined(separator: "\u{1}")
        if let cached = resolutionCache.get(cacheKey) { return cached }
        let expanded = requested.flatMap { $0.split(separator: ":").map(String.init) }
        var chain = LocalePolicy.match(requested: expanded, available: languages)
        chain.removeAll { $0 == developmentLanguage }
        chain.append(developmentLanguage)
        resolutionCache.set(cacheKey, chain)
        return chain
    }

    func chain(for locale: String) -> [String] {
        let full = resolveLanguages(for: [locale])
        return missingKeyBehavior == .noFallback ? Array(full.prefix(1)) : full
    }

    /// The raw pattern of `key` (a plain string, or a stringsdict entry's format key) in the best language
    /// that has it. `locale` is a BCP 47 tag or a `:`-separated preference list (`"fr-CA:de"`). Nil when no language in the chain has it (or the key with `.returnKey`).
    public func string(_ key: String, table: String = "Localizable", locale: String) -> String? {
        for language in chain(for: locale) {
            guard let t = tables[language]?[table] else { continue }
            if let p = t.plurals[key],
                let f = p.formatKey ?? p.widthVariants.keys.max().flatMap({ p.widthVariants[$0] })
            {
                return f
            }
            if let s = t.strings[key] { return s }
        }
        return missingKeyBehavior == .returnKey ? key : nil
    }

    /// The language whose value a lookup of `key` uses.
    public func language(of key: String, table: String = "Localizable", locale: String) -> String? {
        chain(for: locale).first { tables[$0]?[table]?.plurals[key] != nil || tables[$0]?[table]?.strings[key] != nil }
    }

    /// The stringsdict entry of `key` in the best language that has one as its value (a `.strings` value
    /// in a better language wins over a plural entry in a worse one).
    public func pluralEntry(_ key: String, table: String = "Localizable", locale: String) -> StringsDictEntry? {
        for language in chain(for: locale) {
            guard let t = tables[language]?[table] else { continue }
            if let p = t.plurals[key] { return p }
            if t.strings[key] != nil { return nil }
        }
        return nil
    }

    /// The translator comment of `key` (from any language, development language first).
    public func comment(_ key: String, table: String = "Localizable") -> String? {
        if let c = tables[developmentLanguage]?[table]?.comments[key] { return c }
        for l in languages { if let c = tables[l]?[table]?.comments[key] { return c } }
        return nil
    }

    /// Looks up `key` and formats it: plural variables chosen by the rules of the language the value
    /// came from, then printf specifiers. A wrong argument count or type throws.
    public func format(_ key: String, table: String = "Localizable", locale: String, arguments: [CatalogArgument])
        throws -> String
    {
        guard let language = language(of: key, table: table, locale: locale) else {
            if missingKeyBehavior == .returnKey { return try PrintfFormat.format(key, arguments: arguments) }
            throw StringsCatalogError.missingKey(key: key, table: table, locale: locale)
        }
        let t = tables[language]?[table]
        if let entry = t?.plurals[key] {
            return try entry.format(locale: language == "Base" ? developmentLanguage : language, arguments: arguments)
        }
        return try PrintfFormat.format(t?.strings[key] ?? key, arguments: arguments)
    }
}

/// A small thread-safe memo of resolved language chains (shared by copies of one catalog value, which
/// have the same languages; a mutation installs a fresh one).
final class ResolutionCache: Sendable {
    private let chains = Mutex<[String: [String]]>([:])

    func get(_ key: String) -> [String]? {
        chains.withLock { $0[key] }
    }

    func set(_ key: String, _ chain: [String]) {
        chains.withLock { chains in
            if chains.count > 1024 { chains.removeAll() }
            chains[key] = chain
        }
    }
}
