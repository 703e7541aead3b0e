import Foundation

extension LocalePolicy {
    /// Where Debian's `iso-codes` package keeps the ISO 639-3 table (every registered language code).
    static let iso639File = "/usr/share/iso-codes/json/iso_639-3.json"

    /// The ISO 639 codes of the system's `iso-codes` table (two- and three-letter), nil when it is absent.
    static let registeredLanguages: Set<String>? = {
        guard let data = FileManager.default.contents(atPath: iso639File) else { return nil }
        var codes = Set<String>()
        let text = String(decoding: data, as: UTF8.self)
        for field in ["\"alpha_3\": \"", "\"alpha_2\": \""] {
            var rest = text[...]
            while let r = rest.range(of: field) {
                let code = rest[r.upperBound...].prefix { $0 != "\"" }
                if (2...3).contains(code.count) { codes.insert(String(code)) }
                rest = rest[r.upperBound...]
            }
        }
        return codes.isEmpty ? nil : codes
    }()

    /// True when a language subtag names a language: one ICU has data for, one ISO 639 registers (`azb`,
    /// `bto`, `skr`, which a project may localize into before ICU has data for them), or any 2–3 letter code when
    /// the system has no ISO 639 table to ask.
    static func isRegisteredLanguage(_ language: String) -> Bool {
        let code = language.lowercased()
        if code.count <= 3, let registered = registeredLanguages { return registered.contains(code) }
        return code.count <= 3
    }
}
