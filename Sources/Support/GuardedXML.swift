/// Guarded XML input: the checks every XML document from outside passes before a parser sees it, and the
/// words for the parser's errors, shared by the WebDAV answers (CardDAV) and the translators' files
/// (StringsCatalog: XLIFF, `.stringsdict`, property-list `.strings`). A document larger than its limit, bytes that are not UTF-8 (Foundation's `XMLParser`
/// traps on some), a DOCTYPE where none is expected (the only place entities are defined, hence entity
/// expansion), or elements nested deeper than ``GuardedXMLReader/Limits/depth`` (a tree that deep crashes
/// its teardown) is refused with the line and column where the problem is, never a crash or a blow-up.
/// Answers of any size are read as a stream by ``GuardedXMLReader``, with the same limits.
///
/// ```swift
/// let bytes = Array("<multistatus xmlns=\"DAV:\"/>".utf8)
/// try GuardedXML.check(bytes, limit: 1 << 20, allowsDoctype: false)
/// print(GuardedXML.describe(libxml2Code: 76))   // the closing tag does not match …
/// ```
package enum GuardedXML {
    /// Throws the first problem of `bytes`: more than `limit` bytes, a byte that is not UTF-8, a DOCTYPE
    /// (unless `allowsDoctype`; even then one with an internal subset, where entities are defined), elements
    /// nested too deep. Other well-formedness errors are left to the
    /// parser that reads the document next, which says them in its words.
    package static func check(_ bytes: [UInt8], limit: Int, allowsDoctype: Bool) throws(GuardedXMLError) {
        guard bytes.count <= limit else {
            throw GuardedXMLError(line: 1, column: 1, message: "larger than \(limit) bytes")
        }
        if let bad = firstInvalidUTF8(bytes) {
            let (line, column) = TextPosition.of(byte: bad, in: bytes)
            throw GuardedXMLError(
                line: line, column: column,
                message: "byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) is not valid UTF-8 (the file is "
                    + "damaged or not saved as UTF-8)")
        }
        if let doctype = doctypeOffset(bytes) {
            let (line, column) = TextPosition.of(byte: doctype, in: bytes)
            if !allowsDoctype {
                throw GuardedXMLError(
                    line: line, column: column, message: "a DOCTYPE (entity definitions) is not accepted here")
            }
            // A DOCTYPE naming its DTD is fine; an internal subset ([…]) is where entities are defined.
            if let subset = bytes[doctype...].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }),
                bytes[subset] == UInt8(ascii: "[")
            {
                throw GuardedXMLError(
                    line: line, column: column,
                    message: "a DOCTYPE with an internal subset (entity definitions) is not accepted here")
            }
        }
        var reader = GuardedXMLReader(allowsDoctype: allowsDoctype)
        do {
            try reader.feed(bytes) { _ in }
            try reader.finish()
        } catch let error as GuardedXMLError where error.message.hasPrefix(GuardedXMLReader.tooDeep) {
            throw error
        } catch {}
    }

    /// The offset of the first byte that does not start or continue a well-formed UTF-8 sequence; nil when
    /// every byte does.
    package static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length = b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : 0
            guard length > 0, i + length <= bytes.count,
                String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil
            else { return i }
            i += length
        }
        return nil
    }

    /// The offset of `<!DOCTYPE` (in any case), if the document has one.
    package static func doctypeOffset(_ bytes: [UInt8]) -> Int? {
        let word = Array("<!doctype".utf8)
        guard bytes.count >= word.count else { return nil }
        for i in 0...(bytes.count - word.count) where bytes[i] == word[0] {
            var k = 1
            while k < word.count && bytes[i + k] | 0x20 == word[k] | 0x20 { k += 1 }
            if k == word.count { return i }
        }
        return nil
    }

    /// What a parser error means, in words: Foundation's `XMLParser` on Linux gives only libxml2's
    /// `xmlParserErrors` number ("NSXMLParserErrorDomain error 5"), said here as libxml2 says it.
    package static func describe(libxml2Code code: Int) -> String {
        switch code {
        case 3, 4: return "no XML element here: the document is empty or does not start with '<'"
        case 5, 86: return "extra content after the end of the document (one root element is allowed)"
        case 6, 7, 8, 10, 11, 12: return "a character reference (&#…;) is not a valid character"
        case 9: return "a character that XML does not allow"
        case 22, 23, 14: return "an '&' that starts no entity: write &amp; for a literal '&'"
        case 26, 27: return "an undeclared entity (&name;): XML knows &amp; &lt; &gt; &quot; &apos; only"
        case 33, 34, 43, 44: return "a quoted value is not closed"
        case 38: return "a '<' inside an attribute value: write &lt;"
        case 39, 40, 41: return "an attribute value must be quoted (name=\"value\")"
        case 42: return "the same attribute twice in one element"
        case 45: return "a comment is not closed (-->)"
        case 46, 47: return "a processing instruction is not closed (?>)"
        case 63: return "a CDATA section is not closed (]]>)"
        case 64: return "the name 'xml' is reserved"
        case 65: return "a space is required here"
        case 68: return "a name is expected here (an element or attribute name)"
        case 73: return "'>' is expected to end the tag"
        case 74: return "'</' is expected: an element is not closed"
        case 75: return "'=' is expected after an attribute name"
        case 76: return "the closing tag does not match the element that is open"
        case 77: return "a tag is not finished"
        case 80: return "'--' is not allowed inside a comment"
        case 85: return "elements are not properly nested or closed"
        case 111: return "the reading stopped"
        default: return "the XML is not well-formed here (libxml2 error \(code))"
        }
    }
}

/// A document refused by ``GuardedXML/check(_:limit:allowsDoctype:)``: where and why.
package struct GuardedXMLError: Error, Hashable, Sendable {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}
