import Foundation
import Support

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of a WebDAV answer (multistatus): namespace, local name, text and children. Read from bytes
/// with ``parse(_:url:limit:)``, which refuses what a server never needs to send (a DOCTYPE, hence any
/// entity definition; bytes that are not UTF-8; more than the size limit) before libxml2 sees it
/// (`GuardedXML`, shared with the translators' files), with external entities off: a hostile or broken
/// answer is a clear error, never a crash or a blow-up.
struct DAVElement: Sendable, Hashable {
    var namespace: String
    var name: String
    var text: String = ""
    var children: [DAVElement] = []

    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"

    /// The children named `name` in `namespace`.
    func all(_ name: String, _ namespace: String = dav) -> [DAVElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The first child named `name` in `namespace`.
    func first(_ name: String, _ namespace: String = dav) -> DAVElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// The element at the end of `path` (each step a DAV: name unless given as `(name, namespace)`).
    func find(_ path: [(String, String)]) -> DAVElement? {
        var current = self
        for (name, namespace) in path {
            guard let next = current.first(name, namespace) else { return nil }
            current = next
        }
        return current
    }

    /// The trimmed text of the element.
    var trimmedText: String {
        // XML white space only (space, tab, CR, LF); most texts have none around them.
        let utf8 = text.utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }) else { return "" }
        // After the last byte that is not white space: the end, or a space (a character boundary).
        let end = utf8.index(after: utf8.lastIndex(where: { !isSpace($0) })!)
        if first == utf8.startIndex && end == utf8.endIndex { return text }
        return String(text[first..<end])
    }

    /// The document element of `bytes`; `url` names the answer in errors.
    static func parse(_ bytes: [UInt8], url: String, limit: Int = 256 << 20) throws -> DAVElement {
        do { try GuardedXML.check(bytes, limit: limit, allowsDoctype: false) } catch {
            throw CardDAVError.badAnswer(
                url: url, message: "\(error.line):\(error.column): the answer: \(error.message)")
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = DAVTreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let line = parser.lineNumber
            let column = parser.columnNumber
            let reason =
                parser.parserError.map { error in
                    let ns = error as NSError
                    return ns.domain == XMLParser.errorDomain
                        ? GuardedXML.describe(libxml2Code: ns.code) : ns.localizedDescription
                } ?? "no document element"
            throw CardDAVError.badAnswer(url: url, message: "\(line):\(column): malformed XML (\(reason))")
        }
        return root
    }
}

/// Builds the element tree from the parser's events.
private final class DAVTreeBuilder: NSObject, XMLParserDelegate {
    var stack: [DAVElement] = []
    var root: DAVElement?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        stack.append(DAVElement(namespace: namespaceURI ?? "", name: elementName))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (XMLParserDelegate names the parameter so.)
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
    }
}
