import Foundation
import Support

/// A String Catalog (`.xcstrings`), read and written in Xcode's own JSON layout. Member order and
/// string escapes are kept, so an unchanged catalog writes back byte for byte and an edit changes
/// only what it touches.
///
/// ```swift
/// var cat = try XCStringsDocument(contentsOf: URL(fileURLWithPath: "Localizable.xcstrings"))
/// cat.sourceLanguage                                    // "en"
/// cat.entry("OK")?.localizations["de"]?.value           // "OK"
/// cat.setValue("Abbrechen", forKey: "Cancel", language: "de")
/// try cat.write(to: url)
/// ```
public struct XCStringsDocument: Sendable, Hashable {
    /// A localized value: a string unit and/or variations (plural, device) and substitutions.
    public struct Localization: Sendable, Hashable {
        public var state: String?
        public var value: String?
        /// `variations.plural`: category → localization.
        public var plural: [String: Localization]
        /// `variations.device`: device (`iphone`, `mac`, `other`, …) → localization.
        public var device: [String: Localization]
        public var substitutions: [String: Substitution]

        public init(
            state: String? = nil, value: String? = nil, plural: [String: Localization] = [:],
            device: [String: Localization] = [:], substitutions: [String: Substitution] = [:]
        ) {
            self.state = state
            self.value = value
            self.plural = plural
            self.device = device
            self.substitutions = substitutions
        }
    }

    /// A `%#@name@` substitution: which argument (`argNum`), its specifier and its plural forms.
    public struct Substitution: Sendable, Hashable {
        public var argNum: Int?
        public var formatSpecifier: String?
        public var plural: [String: Localization]
    }

    /// One key of the catalog.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var comment: String?
        public var extractionState: String?
        public var shouldTranslate: Bool
        public var localizations: [String: Localization]

        /// True for the entry Xcode extracts from an empty literal (key `""`, no localization): nothing to
        /// translate. An empty key with localizations is translated like any other.
        public var isEmptyLiteral: Bool { key.isEmpty && localizations.isEmpty }
    }

    public var file: String
    /// The catalog's JSON tree, members in file order.
    public var root: JSONValue { tree }
    /// The tree as read and edited. A setter that replaces it calls ``treeReplaced()``; ``editEntry(_:_:)``
    /// changes one entry in place, so that other entries are neither copied nor re-indexed.
    private var tree: JSONValue
    private var original: [UInt8]?
    private var trailingNewline: Bool
    /// Key → position of its (first) member in `strings`, so that a lookup is not a scan of every key.
    private var keyPositions: [String: Int] = [:]
    /// Quoted key as written → 1-based line, found in one pass over the file as read (nil once edited).
    var keyLines: [String: Int]?
    /// Member names written twice in one object of the file as read (a key of `strings`, a language of
    /// `localizations`, …): only the first is read; ``TranslatorTools`` lint reports each as an error.
    package private(set) var duplicateKeys: [JSONReader.DuplicateKey] = []

    public init(contentsOf url: URL, file: String? = nil) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot read file: \(error.localizedDescription)")
        }
        try self.init(parsing: data, file: file ?? url.path)
    }

    /// Parses a catalog; malformed JSON throws ``StringsCatalogError/malformed(file:line:column:message:)``.
    public init(parsing data: Data, file: String = "Localizable.xcstrings") throws {
        let bytes = [UInt8](data)
        var reader = JSONReader(bytes, file: file)
        do { tree = try reader.document() } catch {
            throw StringsCatalogError.malformed(
                file: error.file, line: error.line, column: error.column, message: error.message)
        }
        guard tree.members != nil else {
            throw StringsCatalogError.malformed(
                file: file, line: 1, column: 1, message: "a String Catalog is a JSON object")
        }
        self.file = file
        original = bytes
        trailingNewline = bytes.last == 0x0A
        duplicateKeys = reader.duplicateKeys
        indexKeys()
        keyLines = Self.keyLines(in: bytes)
    }

    /// A new, empty catalog.
    public init(sourceLanguage: String, file: String = "Localizable.xcstrings") {
        self.file = file
        tree = .object([
            JSONMember(key: "sourceLanguage", value: .string(sourceLanguage)),
            JSONMember(key: "strings", value: .object([])),
            JSONMember(key: "version", value: .string("1.0")),
        ])
        original = nil
        trailingNewline = false
        indexKeys()
    }

    private mutating func indexKeys() {
        var positions: [String: Int] = [:]
        let members = tree["strings"]?.members ?? []
        positions.reserveCapacity(members.count)
        for (i, m) in members.enumerated() where positions[m.key] == nil { positions[m.key] = i }
        keyPositions = positions
    }

    /// The line of every key of the `strings` object in Xcode's layout (`\n    "key" : `), first
    /// occurrence, keyed by the quoted key as written; one pass over the bytes.
    static func keyLines(in bytes: [UInt8]) -> [String: Int] {
        var lines: [String: Int] = [:]
        bytes.withUnsafeBufferPointer { b in
            let n = b.count
            var line = 1
            var i = 0
            while i < n {
                // At the start of line `line`.
                if i + 5 < n, b[i] == 0x20, b[i + 1] == 0x20, b[i + 2] == 0x20, b[i + 3] == 0x20, b[i + 4] == 0x22,
                    line > 1
                {
                    var j = i + 5
                    while j < n, b[j] != 0x22, b[j] != 0x0A {
                        j += b[j] == 0x5C ? 2 : 1
                    }
                    if j + 3 < n, b[j] == 0x22, b[j + 1] == 0x20, b[j + 2] == 0x3A, b[j + 3] == 0x20 {
                        let raw = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 4)...j]), as: UTF8.self)
                        if lines[raw] == nil { lines[raw] = line }
                    }
                }
                while i < n, b[i] != 0x0A { i += 1 }
                i += 1
                line += 1
            }
        }
        return lines
    }

    public var sourceLanguage: String { root["sourceLanguage"]?.stringValue ?? "en" }
    public var version: String? { root["version"]?.stringValue }

    /// The keys in file order (a key written twice: once, where it is first).
    public var keys: [String] {
        var seen = Set<String>()
        return (root["strings"]?.members ?? []).compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    /// The languages that have at least one localization, sorted, source language included.
    public var languages: [String] {
        var set: Set<String> = [sourceLanguage]
        for m in root["strings"]?.members ?? [] {
            for l in m.value["localizations"]?.members ?? [] { set.insert(l.key) }
        }
        return set.sorted()
    }

    public func entry(_ key: String) -> Entry? {
        guard let i = keyPositions[key], let members = root["strings"]?.members else { return nil }
        return Self.entry(key, members[i].value)
    }

    static func entry(_ key: String, _ v: JSONValue) -> Entry {
        var locs: [String: Localization] = [:]
        for l in v["localizations"]?.members ?? [] { locs[l.key] = Self.localization(l.value) }
        return Entry(
            key: key, comment: v["comment"]?.stringValue, extractionState: v["extractionState"]?.stringValue,
            shouldTranslate: v["shouldTranslate"]?.boolValue ?? true, localizations: locs)
    }

    /// Every key's entry in file order; a key written twice gives its first entry once, as ``entry(_:)``
    /// reads it (the repeat is a lint error, not a second key).
    public var entries: [Entry] {
        guard let members = root["strings"]?.members else { return [] }
        return members.enumerated().compactMap { n, m in
            keyPositions[m.key] == n ? Self.entry(m.key, m.value) : nil
        }
    }

    static func localization(_ v: JSONValue) -> Localization {
        var loc = Localization()
        if let unit = v["stringUnit"] {
            loc.state = unit["state"]?.stringValue
            loc.value = unit["value"]?.stringValue
        }
        for p in v["variations"]?["plural"]?.members ?? [] { loc.plural[p.key] = localization(p.value) }
        for d in v["variations"]?["device"]?.members ?? [] { loc.device[d.key] = localization(d.value) }
        for s in v["substitutions"]?.members ?? [] {
            var sub = Substitution(
                argNum: s.value["argNum"]?.intValue, formatSpecifier: s.value["formatSpecifier"]?.stringValue,
                plural: [:])
            for p in s.value["variations"]?["plural"]?.members ?? [] { sub.plural[p.key] = localization(p.value) }
            loc.substitutions[s.key] = sub
        }
        return loc
    }

    /// The value of `key` in `language` as a lookup sees it: the string unit, else the source
    /// language's key itself when the source language has no unit (Xcode's convention), else nil.
    /// Plural and device variations are served by ``pluralEntry(_:language:)``.
    public func value(_ key: String, language: String) -> String? {
        guard let e = entry(key) else { return nil }
        return value(of: e, language: language)
    }

    /// ``value(_:language:)`` for an entry at hand.
    func value(of e: Entry, language: String) -> String? {
        if let loc = e.localizations[language] {
            if let v = loc.value { return v }
            if let other = loc.device["other"]?.value { return other }
            if let firstDevice = loc.device.keys.sorted().first, let v = loc.device[firstDevice]?.value { return v }
        }
        if language == sourceLanguage && e.localizations[language] == nil { return e.key }
        return nil
    }

    /// A plural or substitution localization as a ``StringsDictEntry`` (nil when `key` has none in
    /// `language`). `%arg` in substitution forms becomes the argument's positional specifier.
    public func pluralEntry(_ key: String, language: String) -> StringsDictEntry? {
        guard let e = entry(key) else { return nil }
        return pluralEntry(of: e, language: language)
    }

    /// ``pluralEntry(_:language:)`` for an entry at hand.
    func pluralEntry(of e: Entry, language: String) -> StringsDictEntry? {
        let key = e.key
        guard var loc = e.localizations[language] else { return nil }
        if loc.plural.isEmpty && loc.substitutions.isEmpty, let dev = loc.device["other"] ?? loc.device.values.first {
            loc = dev
        }
        if !loc.plural.isEmpty {
            let forms = loc.plural.compactMapValues(\.value)
            return StringsDictEntry(
                key: key, formatKey: "%#@__plural@",
                variables: ["__plural": PluralVariable(name: "__plural", valueType: nil, forms: forms)],
                comment: e.comment)
        }
        guard !loc.substitutions.isEmpty, let value = loc.value else { return nil }
        var format = value
        var variables: [String: PluralVariable] = [:]
        for (name, sub) in loc.substitutions {
            let spec = sub.formatSpecifier ?? "lld"
            var forms: [String: String] = [:]
            for (cat, l) in sub.plural {
                guard let v = l.value else { continue }
                forms[cat] = v.replacingOccurrences(of: "%arg", with: sub.argNum.map { "%\($0)$\(spec)" } ?? "%\(spec)")
            }
            variables[name] = PluralVariable(name: name, valueType: spec, forms: forms)
            if let n = sub.argNum {
                format = format.replacingOccurrences(of: "%#@\(name)@", with: "%\(n)$#@\(name)@")
            }
        }
        return StringsDictEntry(key: key, formatKey: format, variables: variables, comment: e.comment)
    }

    // MARK: Editing

    /// Sets the string unit of `key` in `language` (adding the key and localization when missing),
    /// leaving everything else of the entry as it was.
    public mutating func setValue(_ value: String, forKey key: String, language: String, state: String = "translated") {
        var strings = root["strings"] ?? .object([])
        var entry = strings[key] ?? .object([])
        var locs = entry["localizations"] ?? .object([])
        var loc = locs[language] ?? .object([])
        var unit = loc["stringUnit"] ?? .object([])
        if unit["state"]?.stringValue == state && unit["value"]?.stringValue == value { return }
        unit.insertSorted("state", .string(state))
        unit.insertSorted("value", .string(value))
        loc.insertSorted("stringUnit", unit)
        locs.insertSorted(language, loc)
        entry.insertSorted("localizations", locs)
        strings.insertSorted(key, entry)
        tree.insertSorted("strings", strings)
        treeReplaced()
    }

    /// Sets one plural form of `key` in `language` (`variations.plural.<category>.stringUnit`).
    public mutating func setPluralForm(
        _ value: String, category: String, forKey key: String, language: String,
        state: String = "translated"
    ) {
        var strings = root["strings"] ?? .object([])
        var entry = strings[key] ?? .object([])
        var locs = entry["localizations"] ?? .object([])
        var loc = locs[language] ?? .object([])
        var variations = loc["variations"] ?? .object([])
        var plural = variations["plural"] ?? .object([])
        var form = plural[category] ?? .object([])
        var unit = form["stringUnit"] ?? .object([])
        if unit["state"]?.stringValue == state && unit["value"]?.stringValue == value { return }
        unit.insertSorted("state", .string(state))
        unit.insertSorted("value", .string(value))
        form.insertSorted("stringUnit", unit)
        plural.insertSorted(category, form)
        variations.insertSorted("plural", plural)
        loc.insertSorted("variations", variations)
        locs.insertSorted(language, loc)
        entry.insertSorted("localizations", locs)
        strings.insertSorted(key, entry)
        tree.insertSorted("strings", strings)
        treeReplaced()
    }

    /// Adds a key (with an optional comment) when it is missing.
    public mutating func addKey(_ key: String, comment: String? = nil) {
        var strings = root["strings"] ?? .object([])
        guard strings[key] == nil else { return }
        var entry = JSONValue.object([])
        if let comment { entry.insertSorted("comment", .string(comment)) }
        strings.insertSorted(key, entry)
        tree.insertSorted("strings", strings)
        treeReplaced()
    }

    /// Removes a key with all its localizations. Returns whether it existed.
    @discardableResult
    public mutating func removeKey(_ key: String) -> Bool {
        guard var strings = root["strings"], strings[key] != nil else { return false }
        strings[key] = nil
        tree["strings"] = strings
        treeReplaced()
        return true
    }

    /// Removes one language's localization of a key.
    @discardableResult
    public mutating func removeLocalization(forKey key: String, language: String) -> Bool {
        guard var strings = root["strings"], var entry = strings[key], var locs = entry["localizations"],
            locs[language] != nil
        else {
            return false
        }
        locs[language] = nil
        entry["localizations"] = locs
        strings[key] = entry
        tree["strings"] = strings
        treeReplaced()
        return true
    }

    mutating func replaceRoot(_ newRoot: JSONValue) {
        tree = newRoot
        treeReplaced()
    }

    /// After the tree was replaced: the file's bytes and key lines no longer describe it; keys re-indexed.
    private mutating func treeReplaced() {
        original = nil
        keyLines = nil
        indexKeys()
    }

    /// Lets `edit` change the value of `key`'s entry (its first, when written twice) in place, without a
    /// copy of the other entries; `edit` returns whether it changed anything. Keys and their positions stay
    /// as they are. Returns nil when the catalog has no such key, else what `edit` returned.
    mutating func editEntry(_ key: String, _ edit: (inout JSONValue) -> Bool) -> Bool? {
        guard let position = keyPositions[key], case .object(var top) = tree,
            let s = top.firstIndex(where: { $0.key == "strings" }), case .object(var strings) = top[s].value,
            position < strings.count
        else {
            return nil
        }
        // Release the tree's hold on the arrays so that they are edited in place, then put them back.
        tree = .null
        top[s].value = .null
        let changed = edit(&strings[position].value)
        top[s].value = .object(strings)
        tree = .object(top)
        if changed {
            original = nil
            keyLines = nil
        }
        return changed
    }

    /// The catalog as bytes: the original bytes when unchanged, else Xcode's layout.
    public func data() -> Data {
        if let original { return Data(original) }
        return Data((XcodeJSONWriter.write(root) + (trailingNewline ? "\n" : "")).utf8)
    }

    public func write(to url: URL) throws {
        do { try data().write(to: url, options: .atomic) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}
