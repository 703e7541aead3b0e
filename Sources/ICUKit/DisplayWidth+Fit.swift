/// Where text sits in columns wider than the text.
public enum ColumnAlignment: Sendable, Hashable {
    case leading
    case trailing
}

extension DisplayWidth {
    /// The columns of `text`, one per character when ICU cannot measure it.
    public static func measure(_ text: String) -> Int {
        (try? columns(text)) ?? text.count
    }

    /// The columns of one grapheme cluster.
    public static func measure(_ cluster: Character) -> Int {
        cluster.isASCII ? 1 : measure(String(cluster))
    }

    /// `text` cut to at most `width` columns, the last of them then "…"; never inside a grapheme cluster
    /// (a family emoji or a letter with its marks stays whole or goes whole).
    ///
    /// ```swift
    /// DisplayWidth.truncate("Zoë Washburne", width: 8)   // "Zoë Was…"
    /// DisplayWidth.truncate("王伟", width: 3)             // "王…"
    /// ```
    public static func truncate(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if measure(text) <= width { return text }
        var out = ""
        var used = 0
        for cluster in text {
            let w = measure(cluster)
            if used + w > width - 1 { break }
            out.append(cluster)
            used += w
        }
        return out + "…"
    }

    /// `text` cut as ``truncate(_:width:)`` and padded with spaces to exactly `width` columns.
    ///
    /// ```swift
    /// DisplayWidth.fit("Ann", width: 5, alignment: .trailing)   // "  Ann"
    /// ```
    public static func fit(_ text: String, width: Int, alignment: ColumnAlignment = .leading) -> String {
        let cut = truncate(text, width: width)
        let padding = String(repeating: " ", count: max(0, width - measure(cut)))
        return alignment == .leading ? cut + padding : padding + cut
    }
}
