internal import CCmark
import Foundation

/// CommonMark to HTML through cmark (the reference implementation; `libcmark-dev`). Raw HTML written in
/// the Markdown is left out (cmark's safe default), so what the HTML part holds is what the Markdown says;
/// values rendered into a `body.md.mustache` are HTML-escaped first, as in the HTML templates.
///
/// ```swift
/// Markdown.html("# Hallo\n\n*Willkommen*, Zoë & Co.\n")   // "<h1>Hallo</h1>\n<p><em>Willkommen</em>, Zoë &amp; Co.</p>\n"
/// ```
public enum Markdown {
    /// The HTML of `markdown` (a fragment: no `<html>` or `<body>`).
    public static func html(_ markdown: String) -> String {
        var source = markdown
        return source.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return "" }
            let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            guard let out = cmark_markdown_to_html(text, bytes.count, CMARK_OPT_DEFAULT) else { return "" }
            defer { free(out) }
            return String(decoding: UnsafeRawBufferPointer(start: out, count: strlen(out)), as: UTF8.self)
        }
    }
}
