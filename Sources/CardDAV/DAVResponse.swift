import Foundation

/// One `DAV:response` of a multistatus answer: the member's href, its status (of the response, else of its
/// first propstat), and the properties found (status 200).
struct DAVResponse: Sendable {
    var href: String
    var status: Int?
    var properties: [DAVElement]
    /// Larger than the client's limit for one member: its text was dropped while reading.
    var overflowed = false

    /// The response an element holds; nil without an href.
    init?(_ r: DAVElement) {
        guard let href = r.first("href")?.trimmedText, !href.isEmpty else { return nil }
        var status = r.first("status").flatMap { Self.code($0.trimmedText) }
        var properties: [DAVElement] = []
        for propstat in r.all("propstat") {
            let code = propstat.first("status").flatMap { Self.code($0.trimmedText) }
            if status == nil { status = code }
            if code == nil || code == 200 { properties += propstat.first("prop")?.children ?? [] }
        }
        self.href = href
        self.status = status
        self.properties = properties
    }

    /// The responses of a multistatus document.
    static func all(in root: DAVElement) -> [DAVResponse] { root.all("response").compactMap(DAVResponse.init) }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func code(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    func property(_ name: String, _ namespace: String = DAVElement.dav) -> DAVElement? {
        properties.first { $0.name == name && $0.namespace == namespace }
    }

    var isCollection: Bool { property("resourcetype")?.first("collection") != nil }

    var isAddressBook: Bool { property("resourcetype")?.first("addressbook", DAVElement.cardDAV) != nil }
}
