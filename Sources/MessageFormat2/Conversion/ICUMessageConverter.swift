/// Converts an ICU MessageFormat 1 message into an equivalent MessageFormat 2 message: one that formats to
/// the same text (with `bidiIsolation: none`) for the same arguments in every locale.
///
/// `plural`, `selectordinal` and `select` arguments become the selectors of one `.match` (nested ones are
/// flattened into the variants they lead to), `=n` keys exact number keys, `offset:n` a second selector made
/// with `:offset subtract=n`, `#` the plural's number, `{arg}` `{$arg}`, `{arg, number}` `:number` (the
/// `integer` and `percent` styles as well), and ICU's apostrophe quoting plain text. What has no exact
/// equivalent — `choice`, currency, date and time styles, number patterns and skeletons — is an error
/// with the line and column in the MessageFormat 1 text. Numbers keep ICU 1's grouping (`useGrouping=always`);
/// an untyped `{arg}` of an argument that is no selector stays `{$arg}`, which MF2 groups as the locale
/// prefers when given a number (Polish "1000" where ICU 1 writes "1 000").
///
/// ```swift
/// let mf2 = try ICUMessageConverter.convert("{count, plural, =0 {none} one {# file} other {# files}}")
/// // ".input {$count :number useGrouping=always} .match $count 0 {{none}} one {{{$count} file}} * {{{$count} files}}"
/// ```
public enum ICUMessageConverter {
    /// The most variants a converted message may have (nested selectors multiply them).
    public static let maximumVariants = 4096

    /// The MessageFormat 2 text equivalent to the ICU MessageFormat 1 `message`; throws
    /// ``MessageError/conversion(line:column:message:)`` for what does not parse or cannot be converted.
    public static func convert(_ message: String) throws(MessageError) -> String {
        var converter = Conversion()
        return try converter.run(try MF1Parser.parse(message))
    }
}

/// One conversion: the selectors found, the declarations they need, and the variants.
private struct Conversion {
    /// A selector column of the `.match` and the variable it selects on.
    var columns: [String] = []
    /// How each argument is used, in order of first use.
    var names: [String] = []
    var uses: [String: Use] = [:]
    /// The offsets used, per argument and kind, in order of first use.
    var offsets: [Offset] = []

    struct Use {
        var string = false
        var cardinal = false
        var ordinal = false
    }

    struct Offset: Equatable {
        var name: String
        var ordinal: Bool
        var amount: Int
    }

    struct Partial {
        var keys: [Int: String] = [:]
        var text = ""
    }

    static let categories: Set<String> = ["zero", "one", "two", "few", "many", "other"]
    /// ICU MessageFormat 1 formats numbers with a `DecimalFormat`, which groups from the first thousand in
    /// every locale (Polish "1 000"); MF2's default grouping follows the locale ("1000"), `always` does not.
    static let grouping = " useGrouping=always"

    mutating func run(_ nodes: [MF1Node]) throws(MessageError) -> String {
        try collect(nodes)
        let variants = try expand(nodes, pound: nil)
        var out: [String] = declarations()
        guard !columns.isEmpty else {
            let text = variants.first?.text ?? ""
            if !out.isEmpty { return (out + ["{{" + text + "}}"]).joined(separator: " ") }
            if let first = text.unicodeScalars.first, first == "." || Characters.isWhitespace(first.value) {
                return "{{" + text + "}}"
            }
            return text
        }
        out.append(".match " + columns.map { "$" + $0 }.joined(separator: " "))
        for variant in variants {
            let keys = columns.indices.map { variant.keys[$0].map(Self.literal) ?? "*" }
            out.append(keys.joined(separator: " ") + " {{" + variant.text + "}}")
        }
        return out.joined(separator: " ")
    }

    // MARK: Uses and declarations

    /// Records how each argument is used and checks that its name can be an MF2 variable.
    mutating func collect(_ nodes: [MF1Node]) throws(MessageError) {
        for node in nodes {
            guard case .argument(let a) = node else { continue }
            let scalars = Array(a.name.unicodeScalars)
            guard Characters.isNameStart(scalars[0].value), scalars.allSatisfy({ Characters.isNameChar($0.value) })
            else {
                throw .conversion(
                    line: a.line, column: a.column, message: "'\(a.name)' cannot be a MessageFormat 2 variable name")
            }
            if uses[a.name] == nil { names.append(a.name) }
            var use = uses[a.name] ?? Use()
            var cases: [MF1Case] = []
            switch a.kind {
            case .none, .simple: break
            case .select(let c):
                use.string = true
                cases = c
            case .plural(let ordinal, let offset, let c):
                if ordinal { use.ordinal = true } else { use.cardinal = true }
                if let offset, offset != "0" {
                    guard let k = Int(offset), (1...999).contains(k) else {
                        throw .conversion(
                            line: a.line, column: a.column,
                            message: "offset \(offset) has no MessageFormat 2 equivalent (only 1 to 999)")
                    }
                    let wanted = Offset(name: a.name, ordinal: ordinal, amount: k)
                    if !offsets.contains(wanted) { offsets.append(wanted) }
                }
                for c in c where !c.key.hasPrefix("=") && !Self.categories.contains(c.key) {
                    throw .conversion(line: c.line, column: c.column, message: "'\(c.key)' is not a plural category")
                }
                cases = c
            }
            if use.string && (use.cardinal || use.ordinal) {
                throw .conversion(
                    line: a.line, column: a.column,
                    message: "'\(a.name)' is both a select and a plural argument; MessageFormat 2 needs one type")
            }
            uses[a.name] = use
            for c in cases { try collect(c.message) }
        }
    }

    /// The variable a plural of `name` selects on before any offset: the argument itself (declared
    /// `:number`), or for an ordinal of an argument that is also a cardinal, a local `name_ordinal`.
    func baseName(_ name: String, ordinal: Bool) -> String {
        ordinal && uses[name]?.cardinal == true ? fresh(name + "_ordinal") : name
    }

    /// `base` made unique against the message's argument names.
    func fresh(_ base: String) -> String {
        var name = base
        while uses[name] != nil { name += "_" }
        return name
    }

    func offsetName(_ base: String, _ k: Int) -> String { fresh("\(base)_minus\(k)") }

    func declarations() -> [String] {
        var out: [String] = []
        for name in names {
            guard let use = uses[name] else { continue }
            if use.string {
                out.append(".input {$\(name) :string}")
            } else if use.cardinal {
                out.append(".input {$\(name) :number\(Self.grouping)}")
                if use.ordinal {
                    out.append(".local $\(baseName(name, ordinal: true)) = {$\(name) :number select=ordinal}")
                }
            } else if use.ordinal {
                out.append(".input {$\(name) :number select=ordinal\(Self.grouping)}")
            }
        }
        for offset in offsets {
            let base = baseName(offset.name, ordinal: offset.ordinal)
            out.append(".local $\(offsetName(base, offset.amount)) = {$\(base) :offset subtract=\(offset.amount)}")
        }
        return out
    }

    // MARK: Variants

    /// The patterns `nodes` can lead to, each with the keys that choose it.
    mutating func expand(_ nodes: [MF1Node], pound: String?) throws(MessageError) -> [Partial] {
        var result = [Partial()]
        for node in nodes {
            switch node {
            case .text(let s):
                for i in result.indices { result[i].text += Self.escaped(s) }
            case .pound:
                let text = pound ?? "#"
                for i in result.indices { result[i].text += text }
            case .argument(let a):
                let alternatives = try argument(a)
                if alternatives.count == 1 {
                    for i in result.indices { result[i].text += alternatives[0].text }
                    continue
                }
                guard result.count * alternatives.count <= ICUMessageConverter.maximumVariants else {
                    throw .conversion(
                        line: a.line, column: a.column,
                        message: "the message would need more than \(ICUMessageConverter.maximumVariants) variants")
                }
                var product: [Partial] = []
                product.reserveCapacity(result.count * alternatives.count)
                for r in result {
                    for alt in alternatives {
                        product.append(Partial(keys: r.keys.merging(alt.keys) { a, _ in a }, text: r.text + alt.text))
                    }
                }
                result = product
            }
        }
        return result
    }

    mutating func argument(_ a: MF1Argument) throws(MessageError) -> [Partial] {
        switch a.kind {
        case .none:
            return [Partial(text: "{$\(a.name)}")]
        case .simple(let type, let style):
            return [Partial(text: try Self.placeholder(a, type: type, style: style))]
        case .select(let cases):
            let column = columns.count
            columns.append(a.name)
            var out: [Partial] = []
            for c in cases {
                for var p in try expand(c.message, pound: nil) {
                    if c.key != "other" { p.keys[column] = c.key }
                    out.append(p)
                }
            }
            return out
        case .plural(let ordinal, let offset, let cases):
            let base = baseName(a.name, ordinal: ordinal)
            let k = offset.flatMap { Int($0) } ?? 0
            let counted = k == 0 ? base : offsetName(base, k)
            // Exact keys compare with the argument itself, categories with the argument less the offset.
            let exactColumn: Int?
            let categoryColumn: Int?
            if k == 0 {
                exactColumn = columns.count
                categoryColumn = exactColumn
                columns.append(base)
            } else {
                exactColumn = cases.contains { $0.key.hasPrefix("=") } ? columns.count : nil
                if exactColumn != nil { columns.append(base) }
                categoryColumn = cases.contains { $0.key != "other" && !$0.key.hasPrefix("=") } ? columns.count : nil
                if categoryColumn != nil { columns.append(counted) }
            }
            var out: [Partial] = []
            for c in cases {
                for var p in try expand(c.message, pound: "{$\(counted)}") {
                    if c.key.hasPrefix("=") {
                        p.keys[exactColumn!] = String(c.key.dropFirst())
                    } else if c.key != "other" {
                        p.keys[categoryColumn!] = c.key
                    }
                    out.append(p)
                }
            }
            return out
        }
    }

    /// `{arg, type, style}` as an MF2 placeholder, when MF2 formats it the same way.
    static func placeholder(_ a: MF1Argument, type: String, style: String?) throws(MessageError) -> String {
        switch (type, style?.lowercased()) {
        case ("number", nil): return "{$\(a.name) :number\(grouping)}"
        case ("number", "integer"): return "{$\(a.name) :number maximumFractionDigits=0\(grouping)}"
        case ("number", "percent"): return "{$\(a.name) :percent\(grouping)}"
        case ("number", "currency"):
            throw .conversion(
                line: a.line, column: a.column,
                message:
                    "{\(a.name), number, currency} takes its currency from the locale; MF2's :currency needs one named")
        case ("number", _):
            throw .conversion(
                line: a.line, column: a.column,
                message: "the number style '\(style ?? "")' has no exact MessageFormat 2 equivalent")
        case ("date", _), ("time", _):
            throw .conversion(
                line: a.line, column: a.column,
                message: "ICU's \(type) styles and time zone differ from MF2's draft :\(type); format the \(type) "
                    + "before and pass it as text")
        default:
            throw .conversion(
                line: a.line, column: a.column, message: "the argument type '\(type)' has no MessageFormat 2 equivalent"
            )
        }
    }

    /// Text for an MF2 pattern: `\`, `{` and `}` escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "{" || $0 == "}" }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            if c == "\\" || c == "{" || c == "}" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// A variant key: unquoted when it is a name or a number, `|quoted|` otherwise.
    static func literal(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        if Characters.isNumberLiteral(key)
            || (!scalars.isEmpty && Characters.isNameStart(scalars[0].value)
                && scalars.allSatisfy { Characters.isNameChar($0.value) })
        {
            return key
        }
        return Resolver.quoted(key)
    }
}
