import CICU

/// An ICU transliterator ("Any-Latin", "Han-Latin/Names; Latin-ASCII", or custom rules).
/// Not thread-safe: give each thread its own (opening one can take ~0.2 s, so keep it).
///
/// ```swift
/// let t = try Transliterator(id: "Any-Latin; Latin-ASCII; Any-Lower")
/// try t.transform("Борис")   // "boris"
/// ```
public final class Transliterator {
    let handle: OpaquePointer
    public let id: String

    public init(id: String) throws {
        var status: Int32 = 0
        guard let h = cicu_translit_open(id, &status), status <= 0 else {
            throw ICUError.failure(operation: "open transliterator '\(id)'", code: status, name: ICUError.name(status))
        }
        handle = h
        self.id = id
    }

    /// A transliterator from ICU rule syntax; a syntax error reports the rule offset as the column.
    public init(id: String, rules: String) throws {
        var status: Int32 = 0
        var offset: Int32 = 0
        guard let h = cicu_translit_open_rules(id, rules, -1, &offset, &status), status <= 0 else {
            throw ICUError.syntax(
                operation: "transliterator rules '\(id)'", line: 1, column: Int(offset) + 1,
                code: status, name: ICUError.name(status))
        }
        handle = h
        self.id = id
    }

    deinit { cicu_translit_close(handle) }

    public func transform(_ text: String) throws -> String {
        try withUTF8(text) { p, n in
            try preflightString("transliterate", guess: Int(n) * 4 + 32) { out, cap, st in
                cicu_translit_transform(handle, p, n, out, cap, &st)
            }
        }
    }
}
