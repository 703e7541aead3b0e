import Foundation
import Support

/// An element of a WebDAV answer (multistatus): namespace, local name, text and children. Read by
/// `GuardedXMLReader` (shared with the translators' files), which refuses what a server never needs to send
/// (a DOCTYPE, hence any entity definition; bytes that are not UTF-8; elements nested deeper than 256) with
/// the line and column: a hostile or broken answer is a clear error, never a crash or a blow-up.
struct DAVElement: Sendable, Hashable {
    var namespace: String
    var name: String
    var text: String = ""
    var children: [DAVElement] = []

    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"
    /// InfCloud's namespace: `addressbook-color`, the colour of an address book on Xandikos and Radicale.
    static let infCloud = "http://inf-it.com/ns/ab/"

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
    static func parse(_ bytes: [UInt8], url: String) throws -> DAVElement {
        var builder = DAVTreeBuilder(url: url)
        try builder.feed(bytes)
        return try builder.finish()
    }
}

/// Builds elements from ``GuardedXMLReader``'s events: the whole tree, or (``DAVMultistatus``) one
/// response at a time.
struct DAVTreeBuilder {
    let url: String
    private var reader = GuardedXMLReader()
    /// The open elements, and the text bytes of each.
    private var stack: [(element: DAVElement, text: [UInt8])] = []
    private(set) var root: DAVElement?
    /// Elements at this depth are handed out (``take``) instead of added to their parent (nil: none).
    var handOutDepth: Int?
    /// The text kept per handed-out element, in bytes; more is dropped and the element marked ``overflowed``.
    var handOutLimit = Int.max
    private var handOutBytes = 0
    private var dropping = false
    /// The elements completed at ``handOutDepth`` since the last ``take``, and whether each overflowed.
    private var ready: [(element: DAVElement, overflowed: Bool)] = []

    init(url: String) { self.url = url }

    mutating func feed(_ bytes: some Collection<UInt8>) throws {
        // The reader is moved out while it calls back into the builder (no copy of its buffer).
        var r = GuardedXMLReader()
        swap(&r, &reader)
        defer { swap(&r, &reader) }
        do { try r.feed(bytes) { try self.handle($0) } } catch let error as GuardedXMLError {
            throw CardDAVError.badAnswer(url: url, message: "\(error.line):\(error.column): \(error.message)")
        }
    }

    mutating func finish() throws -> DAVElement {
        do { try reader.finish() } catch let error as GuardedXMLError {
            throw CardDAVError.badAnswer(url: url, message: "\(error.line):\(error.column): \(error.message)")
        }
        guard let root else { throw CardDAVError.badAnswer(url: url, message: "no document element") }
        return root
    }

    /// The elements completed at ``handOutDepth`` so far (each once).
    mutating func take() -> [(element: DAVElement, overflowed: Bool)] {
        defer { ready.removeAll() }
        return ready
    }

    private mutating func handle(_ event: GuardedXMLReader.Event) throws {
        switch event {
        case .start(let namespace, let name):
            stack.append((DAVElement(namespace: namespace, name: name), []))
            if stack.count == handOutDepth {
                handOutBytes = 0
                dropping = false
            }
        case .text(let bytes):
            guard !stack.isEmpty, !dropping else { return }
            if let depth = handOutDepth, stack.count >= depth {
                handOutBytes += bytes.count
                if handOutBytes > handOutLimit {
                    dropping = true
                    return
                }
            }
            stack[stack.count - 1].text.append(contentsOf: bytes)
        case .end:
            var (element, text) = stack.removeLast()
            if !text.isEmpty { element.text = String(decoding: text, as: UTF8.self) }
            text = []
            if stack.count + 1 == handOutDepth {
                ready.append((element, dropping))
                dropping = false
            } else if stack.isEmpty {
                root = element
            } else if !dropping {
                stack[stack.count - 1].element.children.append(element)
            }
        }
    }
}
