import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Where in an XML property list CoreFoundation's parser failed. Its messages name a line at best
/// ("Encountered unknown tag strin on line 7"), sometimes nothing ("Encountered unexpected EOF"); this
/// finds the line and column of the culprit so that a diagnostic points at it.
///
/// ```swift
/// let (line, column) = PropertyListPosition.locate(bytes, message: "Encountered unknown tag strin on line 7")
/// ```
enum PropertyListPosition {
    static func locate(_ bytes: [UInt8], message: String) -> (line: Int, column: Int) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") else { return (1, 1) }
        // Bytes that are not UTF-8 (CF: "Unable to convert string to correct encoding").
        let utf8: Data
        do { utf8 = try XMLInput.utf8(Data(bytes), file: "", what: "", allowsDoctype: true) } catch {
            if case StringsCatalogError.malformed(_, let line, let column, _) = error { return (line, column) }
            return (1, 1)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let line = lineNumber(in: message), line >= 1, line <= lines.count {
            return (line, column(in: String(lines[line - 1]), message: message))
        }
        if message.contains("EOF") {
            let last = lines.last.map { $0.isEmpty && lines.count > 1 ? lines.count - 1 : lines.count } ?? 1
            return (last, lines[last - 1].unicodeScalars.count + 1)
        }
        // Otherwise the XML parser (safe: the bytes are valid UTF-8) says where the document breaks.
        let parser = XMLParser(data: utf8)
        if !parser.parse() || parser.parserError != nil {
            return (max(parser.lineNumber, 1), max(parser.columnNumber, 1))
        }
        return (1, 1)
    }

    /// "… on line 7", "… at line 6".
    static func lineNumber(in message: String) -> Int? {
        guard let r = message.range(of: "line ", options: .backwards) else { return nil }
        return Int(message[r.upperBound...].prefix { $0.isNumber })
    }

    /// The column (1-based, in Unicode scalars) of what the message complains about on `line`.
    static func column(in line: String, message: String) -> Int {
        func col(_ i: String.Index) -> Int { line.unicodeScalars[..<i].count + 1 }
        if let r = message.range(of: "unknown tag ") {
            let tag = message[r.upperBound...].prefix { !$0.isWhitespace }
            if let t = line.range(of: "<" + tag) { return col(t.lowerBound) }
        }
        if message.hasPrefix("Close tag"), let t = line.range(of: "</") { return col(t.lowerBound) }
        if let q = message.range(of: "character '"), let tagStart = message.range(of: " in <"),
            let ch = message[q.upperBound...].first
        {
            let tag = "<" + message[tagStart.upperBound...].prefix { $0 != ">" } + ">"
            if let t = line.range(of: tag), let c = line[t.upperBound...].firstIndex(of: ch) { return col(c) }
        }
        if message.contains("ampersand") {
            var search = line.startIndex
            while let a = line[search...].firstIndex(of: "&") {
                let rest = line[line.index(after: a)...]
                if !["amp;", "lt;", "gt;", "quot;", "apos;", "#"].contains(where: { rest.hasPrefix($0) }) {
                    return col(a)
                }
                search = line.index(after: a)
            }
        }
        return col(line.firstIndex { !$0.isWhitespace } ?? line.startIndex)
    }
}
