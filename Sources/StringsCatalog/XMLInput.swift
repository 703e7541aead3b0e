import Foundation
import Support

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Prepares a translator's XML file (XLIFF, `.stringsdict`, a property-list `.strings`) for Foundation's
/// parsers: its encoding is turned into UTF-8 (Foundation's `XMLParser` traps on some invalid UTF-8), then
/// the package's one XML guard (`GuardedXML` in Support, which the CardDAV answers pass too) refuses a
/// document over ``maxBytes``, bytes that are not UTF-8, a DOCTYPE where none belongs or one that defines
/// entities, and elements nested too deep, each as an error with file, line and column.
///
/// ```swift
/// let bytes = try XMLInput.utf8(data, file: "de.xliff", what: "XLIFF")   // throws file:line:col
/// let parser = XMLParser(data: bytes)
/// ```
enum XMLInput {
    /// The largest translator's XML file read: far above any real one, far below what would exhaust memory.
    static let maxBytes = 256 << 20

    /// The document as guarded UTF-8 bytes: UTF-16/UTF-32 (with or without BOM) and a declared ISO-8859-1,
    /// Windows-1252 or US-ASCII are decoded and re-encoded (their declaration then says UTF-8), then checked
    /// by `GuardedXML` (a DOCTYPE only where `allowsDoctype`, as a property list has). Throws
    /// ``StringsCatalogError/malformed(file:line:column:message:)`` at the first problem, or for a declared
    /// encoding that is not supported.
    static func utf8(_ data: Data, file: String, what: String, allowsDoctype: Bool = false) throws -> Data {
        let utf8 = try transcoded(data, file: file, what: what)
        var bytes = [UInt8](utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        do {
            try GuardedXML.check(bytes, limit: maxBytes, allowsDoctype: allowsDoctype)
        } catch {
            throw StringsCatalogError.malformed(
                file: file, line: error.line, column: error.column, message: "\(what): \(error.message)")
        }
        return utf8
    }

    /// The guard's finding for a property list (`.stringsdict`, a property-list `.strings`) as a syntax
    /// error with file, line and column; nil when it passes or is a binary property list (not XML).
    static func propertyListProblem(_ bytes: [UInt8], file: String, what: String) -> Diagnostic? {
        guard !bytes.starts(with: Array("bplist".utf8)) else { return nil }
        do {
            _ = try utf8(Data(bytes), file: file, what: what, allowsDoctype: true)
            return nil
        } catch let StringsCatalogError.malformed(_, line, column, message) {
            return Diagnostic(
                file: file, line: line, column: column, severity: .error, code: "syntax", message: message)
        } catch {
            return Diagnostic(file: file, line: 1, column: 1, severity: .error, code: "syntax", message: "\(error)")
        }
    }

    /// The document in UTF-8 (not yet checked).
    private static func transcoded(_ data: Data, file: String, what: String) throws -> Data {
        let bytes = [UInt8](data)
        let decoded = TextEncoding.decode(bytes)
        if case .utf8 = decoded.encoding {
            if let declared = declaredEncoding(bytes) {
                let name = declared.lowercased()
                let other: String.Encoding?
                switch name {
                case "utf-8", "utf8": other = nil
                case "iso-8859-1", "iso8859-1", "latin1", "iso_8859-1", "l1": other = .isoLatin1
                case "windows-1252", "cp1252": other = .windowsCP1252
                case "us-ascii", "ascii": other = .ascii
                default:
                    throw StringsCatalogError.malformed(
                        file: file, line: 1, column: 1,
                        message: "\(what): the declared encoding \"\(declared)\" is not supported (expected UTF-8)")
                }
                if let other {
                    guard let text = String(data: data, encoding: other) else {
                        let bad = other == .ascii ? bytes.firstIndex(where: { $0 >= 0x80 }) ?? 0 : 0
                        let (line, column) = TextPosition.of(byte: bad, in: bytes)
                        throw StringsCatalogError.malformed(
                            file: file, line: line, column: column,
                            message: "\(what): byte 0x\(hex(bytes[bad])) is not \(declared) as the document declares")
                    }
                    return Data(redeclared(text).utf8)
                }
            }
            return data
        }
        if let bad = decoded.firstInvalidByte {
            // Position from the text decoded so far: the bytes before `bad` are valid.
            let prefix = TextEncoding.decode(Array(bytes[..<bad])).text
            let line = prefix.unicodeScalars.filter { $0 == "\n" }.count + 1
            let lineStart = prefix.unicodeScalars.lastIndex(of: "\n").map { prefix.unicodeScalars.index(after: $0) }
            let column = prefix.unicodeScalars[(lineStart ?? prefix.unicodeScalars.startIndex)...].count + 1
            throw StringsCatalogError.malformed(
                file: file, line: line, column: column,
                message: "\(what): invalid \(decoded.encoding) at byte offset \(bad)")
        }
        var text = decoded.text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        return Data(redeclared(text).utf8)
    }

    static func hex(_ b: UInt8) -> String { String(b, radix: 16, uppercase: true) }

    /// The `encoding` of an ASCII-compatible XML declaration (`<?xml version="1.0" encoding="X"?>`).
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var b = bytes[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        guard b.starts(with: Array("<?xml".utf8)), let end = b.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let decl = String(decoding: b[..<end], as: UTF8.self)
        guard let r = decl.range(of: "encoding") else { return nil }
        var rest = decl[r.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return String(value)
    }

    /// The text with its XML declaration's encoding (if any) replaced by UTF-8.
    static func redeclared(_ text: String) -> String {
        guard text.hasPrefix("<?xml"), let end = text.firstIndex(of: ">") else { return text }
        let decl = String(text[..<end])
        guard let r = decl.range(of: "encoding") else { return text }
        var i = r.upperBound
        while i < decl.endIndex, decl[i] != "\"" && decl[i] != "'" { i = decl.index(after: i) }
        guard i < decl.endIndex else { return text }
        let quote = decl[i]
        guard let close = decl[decl.index(after: i)...].firstIndex(of: quote) else { return text }
        return decl[..<r.lowerBound] + "encoding=\"UTF-8\"" + decl[decl.index(after: close)...] + text[end...]
    }
}

extension XMLInput {
    /// What an `XMLParser` error means, in words. Foundation on Linux gives only a number (its text reads
    /// "The operation could not be completed. (NSXMLParserErrorDomain error 5.)"); the number is
    /// libxml2's `xmlParserErrors`, said here as libxml2 says it (76: "the closing tag does not match …").
    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        guard ns.domain == XMLParser.errorDomain else { return error.localizedDescription }
        return GuardedXML.describe(libxml2Code: ns.code)
    }
}
