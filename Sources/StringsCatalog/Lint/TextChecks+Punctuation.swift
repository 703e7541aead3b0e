extension TextChecks {
    /// What a text's last mark means, whatever script writes it: `。` and `।` end a sentence as `.` does,
    /// `؟` and Greek `;` ask as `?` does.
    enum Ending: String {
        case stop = "a full stop"
        case question = "a question mark"
        case exclamation = "an exclamation mark"
        case colon = "a colon"
        case semicolon = "a semicolon"
        case comma = "a comma"
        case ellipsis = "an ellipsis"
        case none = "no punctuation"
    }

    /// Languages whose sentences may end without a mark where English has a full stop (Thai, Lao).
    static let stopOptional: Set<String> = ["th", "lo"]
    /// Languages whose question mark sits on a word inside the sentence (Armenian `՞`).
    static let questionInside: Set<String> = ["hy"]

    static func ending(_ text: String, language: String) -> Ending {
        let trimmed = text.reversed().drop { $0.isWhitespace || $0 == "\"" || $0 == "”" || $0 == "»" || $0 == ")" }
        guard let last = trimmed.first else { return .none }
        if last == "…" || trimmed.starts(with: "...") { return .ellipsis }
        switch last {
        case ".", "。", "।", "۔", "։", "။", "።", "｡", "．", "॥": return .stop
        case "?", "？", "؟", "՞", "፧", "⸮": return .question
        case "!", "！", "՜", "¡": return .exclamation
        case ":", "：", "፥": return .colon
        case ";": return base(language) == "el" ? .question : .semicolon
        case "؛", "；", "፤": return .semicolon
        case ",", "،", "、", "，": return .comma
        default: return .none
        }
    }

    static func base(_ language: String) -> String {
        String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// A finding when the translation ends with another kind of mark than its source (`。` for `.` is the same).
    static func punctuationFinding(source: String, translation: String, language: String, sourceLanguage: String)
        -> Finding?
    {
        guard !translation.isEmpty else { return nil }
        let s = ending(source, language: sourceLanguage)
        let t = ending(translation, language: language)
        guard s != t else { return nil }
        let lang = base(language)
        if s == .stop && t == .none && stopOptional.contains(lang) { return nil }
        if s == .question && questionInside.contains(lang) { return nil }
        return Finding(check: "punctuation", message: "ends with \(t.rawValue) but the source with \(s.rawValue)")
    }
}
