import CICU

/// An ICU MessageFormat pattern with named arguments, compiled once for a locale.
/// Not thread-safe for one instance (ICU's formatter keeps state); compile one per thread or lock.
///
/// ```swift
/// let m = try MessageFormat("{count, plural, one {# guest} other {# guests}}", locale: "en")
/// try m.format(["count": .int(3)])   // "3 guests"
/// ```
public final class MessageFormat {
    public enum Argument: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case double(Double)
        /// Milliseconds since 1970 UTC.
        case date(Double)
    }

    let handle: OpaquePointer
    public let pattern: String
    public let locale: String
    /// The argument names the pattern uses, in order of first appearance (nested ones included).
    public let argumentNames: [String]

    /// Compiles `pattern`. Throws ``ICUError/syntax(operation:line:column:code:name:)`` when it does not
    /// parse, and ``ICUError/nestingTooDeep(line:column:limit:)`` — before ICU sees it — when it nests
    /// sub-messages deeper than ``maximumNestingDepth``.
    public init(_ pattern: String, locale: String) throws {
        try MessageFormat.checkNesting(pattern)
        var status: Int32 = 0
        var line: Int32 = 0
        var column: Int32 = -1
        let h = try withUTF8(pattern) { p, n in cicu_msgfmt_open(p, n, locale, &line, &column, &status) }
        guard let h, status <= 0 else {
            throw ICUError.syntax(
                operation: "MessageFormat", line: Int(max(line, 1)), column: Int(column) + 1,
                code: status, name: ICUError.name(status))
        }
        handle = h
        self.pattern = pattern
        self.locale = locale
        var names: [String] = []
        for i in 0..<cicu_msgfmt_arg_count(h) {
            names.append(
                try preflightString("argument name", guess: 32) { out, cap, st in
                    cicu_msgfmt_arg_name(h, i, out, cap, &st)
                })
        }
        argumentNames = names
    }

    deinit { cicu_msgfmt_close(handle) }

    /// Formats with named arguments. Missing arguments are left as `{name}` by ICU.
    public func format(_ arguments: [String: Argument]) throws -> String {
        let entries = Array(arguments)
        // Keep the UTF-8 bytes alive while the C structs point into them: names, then string values.
        let names = try CStringBlock(entries.map(\.key))
        let strings = try CStringBlock(
            entries.map { if case .string(let s) = $0.value { return s } else { return "" } })
        var args = [cicu_arg](repeating: cicu_arg(), count: entries.count)
        return try names.withPointers { namePtrs, nameLengths in
            try strings.withPointers { stringPtrs, stringLengths in
                for (i, entry) in entries.enumerated() {
                    var a = cicu_arg()
                    a.name = namePtrs[i]
                    a.name_length = nameLengths[i]
                    switch entry.value {
                    case .string:
                        a.type = Int32(CICU_ARG_STRING)
                        a.string = stringPtrs[i]
                        a.string_length = stringLengths[i]
                    case .int(let v):
                        a.type = Int32(CICU_ARG_INT64)
                        a.integer = v
                    case .double(let v):
                        a.type = Int32(CICU_ARG_DOUBLE)
                        a.number = v
                    case .date(let v):
                        a.type = Int32(CICU_ARG_DATE)
                        a.number = v
                    }
                    args[i] = a
                }
                return try preflightString("MessageFormat format") { out, cap, st in
                    cicu_msgfmt_format(handle, args, Int32(args.count), out, cap, &st)
                }
            }
        }
    }
}
