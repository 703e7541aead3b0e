import Foundation

extension LanguageStatus {
    /// The coverage rows as the text table `strings status` prints: a header line, then one line per
    /// language (right-aligned counts, the share done as a whole percentage), each ending in a newline.
    ///
    /// ```swift
    /// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// print(LanguageStatus.table(folder.status()), terminator: "")
    /// // language  total  translated  missing  untranslated    done
    /// // de           42          42        0             0    100%
    /// ```
    public static func table(_ rows: [LanguageStatus]) -> String {
        func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
            let p = String(repeating: " ", count: max(0, n - s.count))
            return right ? p + s : s + p
        }
        var out =
            pad("language", 10) + pad("total", 7, right: true) + pad("translated", 12, right: true)
            + pad("missing", 9, right: true) + pad("untranslated", 14, right: true) + pad("done", 8, right: true)
            + "\n"
        for r in rows {
            out +=
                pad(r.language, 10) + pad(String(r.total), 7, right: true) + pad(String(r.translated), 12, right: true)
                + pad(String(r.missing), 9, right: true) + pad(String(r.untranslated), 14, right: true)
                + pad(String(format: "%.0f%%", r.percent), 8, right: true) + "\n"
        }
        return out
    }
}
