import Foundation

/// Swift source with one typed accessor per key of a folder's tables (`.strings`, `.stringsdict` and
/// `.xcstrings`), as SwiftGen writes them for `.strings` — parameters typed from the development language's
/// format specifiers (`%d`/`%ld`/`%lld` → `Int`, `%u` → `UInt`, `%f` → `Double`, `%@`/`%s` → `String`,
/// `%c` → `Character`), in argument order (positional specifiers respected), plural variables by count,
/// translator comments as doc comments.
///
/// The generated file needs only Foundation. Values are looked up at run time through `<Name>.lookup`, a
/// closure the app may replace at startup: by default `Bundle.main.localizedString(forKey:value:table:)`
/// formatted with `String(format:locale:arguments:)`, which is what Apple platforms serve from the app's
/// compiled strings. Elsewhere (Linux, a server, tests) the app sets it to its own lookup, for instance the
/// project's `Catalog.format(_:table:locale:arguments:)`.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// let generated = try SwiftAccessors.source(for: folder, table: "Localizable")
/// try generated.source.write(toFile: "Strings.swift", atomically: true, encoding: .utf8)
/// // Strings.Localizable.deleteContacts(3) → "Delete 3 contacts?"
/// ```
public enum SwiftAccessors {
    /// A generated file: its text and how many accessors it has.
    public struct Generated: Sendable, Hashable {
        public var source: String
        public var accessors: Int
    }

    /// One accessor: a key of a table and its parameters.
    struct Accessor {
        var key: String
        var parameters: [(label: String, type: String, argument: String)]
        var comment: String?
        var value: String
        var variables: [String: PluralVariable]
    }

    /// The generated source for every table of `folder` (or only `table`), in a type named `typeName`.
    /// Throws ``StringsCatalogError/invalidArgument(_:)`` when `table` names no table or a source format
    /// cannot be read.
    public static func source(for folder: LocalizationFolder, table only: String? = nil, typeName: String = "Strings")
        throws -> Generated
    {
        let dev = folder.developmentLanguage
        var tables: [String: [Accessor]] = [:]
        var plainNames: [String: String] = [:]
        func add(
            _ qualified: String, _ key: String, pattern: String, variables: [String: PluralVariable], comment: String?
        )
            throws
        {
            let parameters: [(String, String, String)]
            do { parameters = try Self.parameters(pattern: pattern, variables: variables) } catch {
                throw StringsCatalogError.invalidArgument(
                    "table \(qualified), key \"\(key)\": cannot read the format \"\(pattern)\": \(error)")
            }
            plainNames[qualified] = LocalizationFolder.split(qualified).name
            tables[qualified, default: []].append(
                Accessor(key: key, parameters: parameters, comment: comment, value: pattern, variables: variables))
        }
        let stringTables = Set((folder.strings[dev] ?? [:]).keys).union((folder.strings["Base"] ?? [:]).keys)
        let dictTables = Set((folder.stringsDicts[dev] ?? [:]).keys).union((folder.stringsDicts["Base"] ?? [:]).keys)
        for table in stringTables.union(dictTables).union(folder.catalogs.keys).sorted() {
            if let only, only != table && only != LocalizationFolder.split(table).name { continue }
            let plurals = folder.sourceDict(table)?.entries ?? [:]
            var seen = Set<String>()
            for entry in folder.sourceStrings(table)?.entries ?? [] where plurals[entry.key] == nil {
                guard seen.insert(entry.key).inserted else { continue }
                try add(table, entry.key, pattern: entry.value, variables: [:], comment: entry.comment)
            }
            for key in plurals.keys.sorted() {
                guard let entry = plurals[key], let format = entry.formatKey else { continue }
                try add(table, key, pattern: format, variables: entry.variables, comment: entry.comment)
            }
            if let catalog = folder.catalogs[table] {
                let language = catalog.sourceLanguage
                for entry in catalog.entries where !entry.key.isEmpty && seen.insert(entry.key).inserted {
                    if let plural = catalog.pluralEntry(of: entry, language: language), let format = plural.formatKey {
                        try add(table, entry.key, pattern: format, variables: plural.variables, comment: entry.comment)
                    } else {
                        let value = catalog.value(entry.key, language: language) ?? entry.key
                        try add(table, entry.key, pattern: value, variables: [:], comment: entry.comment)
                    }
                }
            }
        }
        if let only, tables.isEmpty {
            throw StringsCatalogError.invalidArgument(
                "no table \"\(only)\" in the development language (\(dev)) or in a catalog")
        }
        return Generated(
            source: render(tables, plainNames: plainNames, typeName: typeName, folder: folder.displayRoot),
            accessors: tables.values.map(\.count).reduce(0, +))
    }

    /// The parameters of a format: (label, Swift type, the `Argument` case made from the label), one per
    /// argument up to the last one used.
    static func parameters(pattern: String, variables: [String: PluralVariable]) throws -> [(
        label: String, type: String, argument: String
    )] {
        var kinds: [Int: (FormatSpecifier.Kind, String?)] = [:]
        func visit(_ text: String, depth: Int) throws {
            guard depth < 8 else { return }
            for (index, spec) in try PrintfFormat.arguments(of: text) {
                if let name = spec.variable {
                    let valueType = variables[name]?.valueType ?? "lld"
                    let kind = (try? PrintfFormat.arguments(of: "%" + valueType).first?.specifier.kind) ?? .signed
                    if kinds[index] == nil || kinds[index]?.1 == nil { kinds[index] = (kind, name) }
                    for form in (variables[name]?.forms ?? [:]).values.sorted() {
                        try visit(StringsDictEntry.pinSequential(form, to: index + 1), depth: depth + 1)
                    }
                } else if kinds[index] == nil {
                    kinds[index] = (spec.kind, nil)
                }
            }
        }
        try visit(try PrintfFormat.positional(pattern), depth: 0)
        guard let last = kinds.keys.max() else { return [] }
        var used = Set<String>()
        return (0...last).map { i in
            let (kind, variable) = kinds[i] ?? (.object, nil)
            // A String Catalog's plural variations read as one variable of its own (`__plural`): the count.
            var label = variable.map { $0.hasPrefix("__") ? "count" : identifier($0, upper: false) } ?? "p\(i + 1)"
            if label.hasPrefix("`") || used.contains(label) || label.hasPrefix("_") { label = "p\(i + 1)" }
            used.insert(label)
            switch kind {
            case .signed, .plural: return (label, "Int", ".int(\(label))")
            case .unsigned: return (label, "UInt", ".uint(\(label))")
            case .double: return (label, "Double", ".double(\(label))")
            case .character: return (label, "Character", ".character(\(label))")
            case .object, .cString: return (label, "String", ".string(\(label))")
            }
        }
    }

    /// True for a name the generated type can have (`Strings`, `L10n`).
    public static func isTypeName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !keywords.contains(name)
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol",
    ]

    /// A Swift identifier from a key or a table name: its ASCII words in camel case, printf specifiers left
    /// out (`"Delete %d contacts?"` → `deleteContacts`, `settings.title` → `settingsTitle`); `_` before a
    /// leading digit, backquotes around a keyword, `key` when nothing is left.
    static func identifier(_ text: String, upper: Bool) -> String {
        var words: [String] = []
        var word = ""
        let tokens = (try? PrintfFormat.tokenize(text)) ?? [.literal(text)]
        for token in tokens {
            guard case .literal(let literal) = token else {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            for c in literal {
                if c.isASCII && (c.isLetter || c.isNumber) {
                    // A lower-to-upper step inside a word starts a new one (camelCase keys stay camelCase).
                    if c.isUppercase, let p = word.last, p.isLowercase {
                        words.append(word)
                        word = ""
                    }
                    word.append(c)
                } else if !word.isEmpty {
                    words.append(word)
                    word = ""
                }
            }
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return upper ? "Key" : "key" }
        var name = ""
        for (n, w) in words.enumerated() {
            let allUpper = w.allSatisfy { !$0.isLowercase }
            let lowered = allUpper && w.count > 1 ? w.lowercased() : w
            if n == 0 && !upper {
                name += lowered.prefix(1).lowercased() + lowered.dropFirst()
            } else {
                name += lowered.prefix(1).uppercased() + lowered.dropFirst()
            }
        }
        if name.first?.isNumber == true { name = "_" + name }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// A Swift string literal.
    static func literal(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || (0x2028...0x2029).contains(u.value) {
                    out += "\\u{\(String(u.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// A text as doc-comment lines (no line breaks inside a line).
    static func docLines(_ text: String, indent: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            indent + "///" + ($0.isEmpty ? "" : " " + $0.replacingOccurrences(of: "\r", with: ""))
        }.joined(separator: "\n") + "\n"
    }

    static func render(_ tables: [String: [Accessor]], plainNames: [String: String], typeName: String, folder: String)
        -> String
    {
        var out = """
            // Generated by `contacts strings generate swift` from \(folder.replacingOccurrences(of: "\n", with: " ")).
            // Do not edit: run the command again when the strings change.

            import Foundation

            /// The localized strings, one accessor per key, grouped by table.
            ///
            /// Values are looked up at run time through ``lookup``: by default the main bundle's compiled strings
            /// (`Bundle.main.localizedString(forKey:value:table:)`, formatted with `String(format:locale:arguments:)`);
            /// set it once at startup, before the accessors are used, to look them up elsewhere.
            public enum \(typeName) {
                /// One argument of a localized format, typed as its specifier.
                public enum Argument: Sendable, Hashable {
                    case int(Int)
                    case uint(UInt)
                    case double(Double)
                    case string(String)
                    case character(Character)

                    /// The value as `String(format:)` takes it.
                    public var cVarArg: any CVarArg {
                        switch self {
                        case .int(let v): return v
                        case .uint(let v): return v
                        case .double(let v): return v
                        case .string(let v): return NSString(string: v)
                        case .character(let v): return Int32(v.unicodeScalars.first.map { Int($0.value) } ?? 0)
                        }
                    }
                }

                /// Looks up `key` of `table` and formats it with `arguments`.
                public typealias Lookup = @Sendable (_ table: String, _ key: String, _ arguments: [Argument]) -> String

                /// The lookup every accessor calls.
                nonisolated(unsafe) public static var lookup: Lookup = { table, key, arguments in
                    let format = Bundle.main.localizedString(forKey: key, value: nil, table: table)
                    return arguments.isEmpty
                        ? format : String(format: format, locale: Locale.current, arguments: arguments.map(\\.cVarArg))
                }

            """
        var usedTypes: Set<String> = ["Argument", "Lookup"]
        for qualified in tables.keys.sorted() {
            var tableType = identifier(qualified.replacingOccurrences(of: "/", with: " "), upper: true)
            while usedTypes.contains(tableType.trimmingCharacters(in: ["`"])) { tableType += "Table" }
            usedTypes.insert(tableType.trimmingCharacters(in: ["`"]))
            let runtimeTable = plainNames[qualified] ?? qualified
            out += "\n    /// The table \(runtimeTable)" + (qualified == runtimeTable ? "" : " of \(qualified)") + ".\n"
            out += "    public enum \(tableType) {\n"
            var usedNames: Set<String> = []
            var first = true
            for accessor in tables[qualified, default: []].sorted(by: { $0.key < $1.key }) {
                let base = identifier(accessor.key, upper: false)
                var name = base
                var n = 2
                while usedNames.contains(name) {
                    name = base.hasSuffix("`") ? "`\(base.dropFirst().dropLast())\(n)`" : "\(base)\(n)"
                    n += 1
                }
                usedNames.insert(name)
                if !first { out += "\n" }
                first = false
                if let comment = accessor.comment, !comment.isEmpty {
                    out += docLines(comment.trimmingCharacters(in: .whitespacesAndNewlines), indent: "        ")
                    out += "        ///\n"
                }
                var shown = "Key \(literal(accessor.key))"
                if !accessor.value.hasPrefix("%#@__") { shown += ": \(literal(accessor.value))" }
                for (name, variable) in accessor.variables.sorted(by: { $0.key < $1.key }) {
                    let forms = pluralCategoryNames.compactMap { c in variable.forms[c].map { "\(c) \(literal($0))" } }
                    shown += "\n" + (name.hasPrefix("__") ? "" : "\(name): ") + forms.joined(separator: ", ")
                }
                out += docLines(shown, indent: "        ")
                let lookup = "\(typeName).lookup(\(literal(runtimeTable)), \(literal(accessor.key)), "
                if accessor.parameters.isEmpty {
                    out += "        public static var \(name): String { \(lookup)[]) }\n"
                } else {
                    let params = accessor.parameters.map { "_ \($0.label): \($0.type)" }.joined(separator: ", ")
                    let args = accessor.parameters.map(\.argument).joined(separator: ", ")
                    out += "        public static func \(name)(\(params)) -> String {\n"
                    out += "            \(lookup)[\(args)])\n"
                    out += "        }\n"
                }
            }
            out += "    }\n"
        }
        return out + "}\n"
    }
}
