extension Escaping {
    /// The escaping a command-line name stands for: `html`, `text`, `header` (line breaks folded) or `uri`
    /// (each value URL-encoded); nil for any other name.
    ///
    /// ```swift
    /// Escaping(name: "header")   // .header(.fold)
    /// ```
    public init?(name: String) {
        switch name {
        case "html": self = .html
        case "text": self = .text
        case "header": self = .header(.fold)
        case "uri": self = .uriComponent
        default: return nil
        }
    }
}
