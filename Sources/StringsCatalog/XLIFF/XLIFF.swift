import Foundation
import Support

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// XLIFF 1.2 as Xcode exports it for translators, and back: export a folder for one language, import a
/// translated file into the `.strings`, `.stringsdict` and `.xcstrings` it came from (in place, lossless).
///
/// ```swift
/// var folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// let xml = XLIFF.export(folder, language: "de")              // de.xliff text
/// let files = try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
/// let report = XLIFF.importFiles(files, into: &folder)        // then folder.save()
/// ```
public enum XLIFF {
    static let separator = "|==|"

    /// `App/en.lproj/Localizable.strings` for the table `App/Localizable`: the development language's file
    /// (its `.lproj` named as on disk), relative to the folder.
    static func original(_ folder: LocalizationFolder, _ table: String, _ language: String, _ ext: String) -> String {
        let url = folder.url(language: language, table: table, extension: ext)
        let (sub, name) = LocalizationFolder.split(table)
        return (sub.isEmpty ? "" : sub + "/") + url.deletingLastPathComponent().lastPathComponent + "/\(name).\(ext)"
    }

    /// The folder's table named by an XLIFF `original`: the path without its `.lproj` component and
    /// extension, matched exactly, else the one table whose path ends the same way (an `original`
    /// relative to a project root above the folder, or a folder below it).
    static func table(forOriginal original: String, ext: String, among tables: some Collection<String>) -> String? {
        var parts = original.split(separator: "/").map(String.init)
        guard let last = parts.popLast(), last.hasSuffix("." + ext) else { return nil }
        parts.removeAll { $0.hasSuffix(".lproj") || $0 == "." }
        let wanted = (parts + [String(last.dropLast(ext.count + 1))]).joined(separator: "/")
        if tables.contains(wanted) { return wanted }
        let matches = tables.filter { wanted.hasSuffix("/" + $0) || $0.hasSuffix("/" + wanted) }
        return matches.count == 1 ? matches.first : nil
    }

    /// XLIFF 1.2 target state → String Catalog state (a target without state counts as translated).
    static func catalogState(_ s: String?) -> String {
        switch s {
        case let s? where s.hasPrefix("needs-review"): return "needs_review"
        case "new"?, "needs-translation"?, "needs-adaptation"?, "needs-l10n"?: return "new"
        default: return "translated"
        }
    }

    static func xliffState(_ s: String?) -> String? {
        switch s {
        case nil: return nil
        case "translated": return "translated"
        case "needs_review": return "needs-review-translation"
        default: return "new"
        }
    }

    /// Every text of a localization (string unit, plural and device forms), for finding `%#@name@` uses.
    static func texts(_ loc: XCStringsDocument.Localization) -> [String] {
        var out = loc.value.map { [$0] } ?? []
        for p in loc.plural.values { out += texts(p) }
        for d in loc.device.values { out += texts(d) }
        return out
    }

    /// True when `text` uses the substitution `name` (`%#@name@` or a positional `%2$#@name@`).
    static func references(_ text: String, substitution name: String) -> Bool {
        text.contains("#@\(name)@")
    }

    /// True when a localization has any content of its own.
    static func hasContent(_ loc: XCStringsDocument.Localization?) -> Bool {
        guard let loc else { return false }
        return loc.value != nil || !loc.plural.isEmpty || !loc.device.isEmpty || !loc.substitutions.isEmpty
    }

    /// Reads an XLIFF 1.2 document (UTF-8, UTF-16 or UTF-32, or a declared ISO-8859-1/Windows-1252/ASCII).
    /// Malformed XML, and bytes that are not valid in the document's encoding, throw with line and column.
    /// A `<file>` without `target-language` gets `language`, else the language of the file name
    /// (`de.xliff` → `de`), as Xcode's import does.
    ///
    /// ```swift
    /// let xml = #"<xliff version="1.2"><file original="en.lproj/Localizable.strings"></file></xliff>"#
    /// let files = try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
    /// files[0].targetLanguage  // "de"
    /// ```
    public static func parse(_ data: Data, file: String, language: String? = nil) throws -> [XLIFFFile] {
        // Fed as a stream: libxml2 refuses a document of more than 10 MB given in one piece, as
        // `XMLParser(data:)` gives it ("huge input lookup"), and reads one of any size in chunks.
        let parser = XMLParser(stream: InputStream(data: try XMLInput.utf8(data, file: file, what: "XLIFF")))
        let delegate = XLIFFReader()
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let isTag = stem.range(of: #"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil
        delegate.defaultLanguage = language ?? (isTag ? stem : nil)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        if !parser.parse() || delegate.failure != nil {
            let message =
                delegate.failure ?? parser.parserError.map { "malformed XML: \(XMLInput.describe($0))" }
                ?? "unreadable XML"
            // Where the first problem was seen (the parser may read on past it).
            let (line, column) = delegate.failurePosition ?? (parser.lineNumber, parser.columnNumber)
            throw StringsCatalogError.malformed(
                file: file, line: max(line, 1), column: max(column, 1), message: "XLIFF: \(message)")
        }
        return delegate.files
    }
}

/// SAX reader for XLIFF 1.2 (`file`, `trans-unit`, `source`, `target`, `note`).
private final class XLIFFReader: NSObject, XMLParserDelegate {
    var files: [XLIFFFile] = []
    var failure: String?
    /// The target language of a `<file>` that names none.
    var defaultLanguage: String?
    private var unit: XLIFFUnit?
    private var text: String?
    private var sawRoot = false
    private var open: [String] = []
    private var escaped = false

    /// Line and column of the first problem.
    var failurePosition: (Int, Int)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil {
            failure = "malformed XML: \(XMLInput.describe(parseError))"
            failurePosition = (parser.lineNumber, parser.columnNumber)
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(name)
        switch name {
        case "xliff":
            sawRoot = true
            if let v = attributes["version"], v != "1.2" { failure = "version \(v) is not supported (expected 1.2)" }
        case "file":
            guard let original = attributes["original"],
                let target = attributes["target-language"] ?? defaultLanguage
            else {
                failure =
                    "<file> needs original and target-language attributes, or --language (line \(parser.lineNumber))"
                parser.abortParsing()
                return
            }
            files.append(
                XLIFFFile(
                    original: original, sourceLanguage: attributes["source-language"] ?? "en",
                    targetLanguage: target, units: []))
        case "trans-unit":
            guard let id = attributes["id"] else {
                failure = "<trans-unit> without id (line \(parser.lineNumber))"
                parser.abortParsing()
                return
            }
            unit = XLIFFUnit(id: id, source: "", target: nil, state: nil, note: nil)
            escaped = attributes[XLIFF.escapeMarker] == "yes"
        case "source", "note":
            text = ""
        case "target":
            text = ""
            unit?.state = attributes["state"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if open.last == name {
            open.removeLast()
        } else if failure == nil {
            failure = "</\(name)> does not close <\(open.last ?? "nothing")> (line \(parser.lineNumber))"
            parser.abortParsing()
        }
        switch name {
        case "source":
            unit?.source = text ?? ""
            text = nil
        case "target":
            unit?.target = text ?? ""
            text = nil
        case "note":
            unit?.note = text
            text = nil
        case "trans-unit":
            if var unit, !files.isEmpty {
                if escaped {
                    unit.id = XLIFF.unescapeUnrepresentable(unit.id)
                    unit.source = XLIFF.unescapeUnrepresentable(unit.source)
                    unit.target = unit.target.map(XLIFF.unescapeUnrepresentable)
                    unit.note = unit.note.map(XLIFF.unescapeUnrepresentable)
                }
                files[files.count - 1].units.append(unit)
            }
            unit = nil
            escaped = false
        default: break
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if !sawRoot && failure == nil { failure = "not an XLIFF document (no <xliff> root)" }
        if let unclosed = open.last, failure == nil { failure = "<\(unclosed)> is never closed" }
    }
}
