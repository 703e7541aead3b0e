import CurlTransfer
import Foundation
import Synchronization

/// Where and as whom to reach a CardDAV server. The password is handed to libcurl only.
public struct CardDAVAccount: Sendable {
    /// An address book, a principal, or the server root (`https://dav.example.org/`).
    public var url: String
    public var user: String?
    public var password: String?
    /// PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// The longest one request may take, in seconds, answer included: a server that trickles its answer is
    /// cut off.
    public var timeout: Double

    /// The default of ``timeout``: ten minutes, room for a first sync of a large book on a slow line.
    public static let defaultTimeout = 600.0

    public init(
        url: String, user: String? = nil, password: String? = nil, caFile: String? = nil,
        timeout: Double = defaultTimeout
    ) {
        self.url = url
        self.user = user
        self.password = password
        self.caFile = caFile
        self.timeout = timeout
    }
}

/// An address book collection on a server.
public struct AddressBookCollection: Sendable, Hashable {
    /// The collection's absolute URL (ending in `/`).
    public var url: String
    public var displayName: String?
    public var description: String?
    /// `#RRGGBB` (InfCloud's `addressbook-color`, else Apple's `calendar-color`), when the server keeps one.
    public var color: String?
    /// Whether the server offers RFC 6578 `sync-collection` on it.
    public var supportsSyncCollection: Bool
    /// The properties a sync keeps in step, as discovery found them.
    var properties: CollectionProperties?

    public init(
        url: String, displayName: String? = nil, description: String? = nil, color: String? = nil,
        supportsSyncCollection: Bool = false
    ) {
        self.init(
            url: url, displayName: displayName, description: description, color: color,
            supportsSyncCollection: supportsSyncCollection, properties: nil)
    }

    init(
        url: String, displayName: String?, description: String?, color: String?, supportsSyncCollection: Bool,
        properties: CollectionProperties?
    ) {
        self.properties = properties
        self.url = url
        self.displayName = displayName
        self.description = description
        self.color = color
        self.supportsSyncCollection = supportsSyncCollection
    }
}

/// The CardDAV protocol (RFC 6352) over HTTP: discovery (RFC 6764 and the principal's address-book home),
/// `sync-collection` (RFC 6578), the ETag listing, `addressbook-multiget`, and conditional writes.
/// Multistatus answers are read as a stream, one response at a time, whatever their size. Every href a
/// server gives is taken as a path on the account's own server: no request, and
/// no credential, ever goes to another origin.
///
/// ```swift
/// let client = try CardDAVClient(account: CardDAVAccount(url: "https://dav.example.org/", user: "ada"))
/// for book in try client.addressBooks() { print(book.url, book.displayName ?? "") }
/// ```
public final class CardDAVClient: Sendable {
    public let account: CardDAVAccount
    let http: HTTPClient
    /// The largest card (or other answer kept whole) read, in bytes; a larger member is named, not read.
    static let memberLimit = 64 << 20
    /// Requests made (for tests and the summary of a sync).
    private let counter = RequestCounter()

    public init(account: CardDAVAccount) throws {
        guard let url = URL(string: account.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { throw CardDAVError.invalidURL(account.url, reason: "expected an http:// or https:// URL") }
        if url.user != nil || url.password != nil {
            throw CardDAVError.invalidURL(
                HTTPClient.shown(account.url),
                reason: "put the user name in --user and the password in a file, not in the URL")
        }
        self.account = account
        do {
            http = try HTTPClient(
                user: account.user, password: account.password, caFile: account.caFile,
                maxResponseBytes: Self.memberLimit, totalTimeout: account.timeout)
        } catch {
            throw CardDAVError.transfer("\(error)")
        }
    }

    /// How many requests this client made.
    public var requestCount: Int { counter.value }

    // MARK: Requests

    /// Sends a request; 401 is ``CardDAVError/authenticationFailed(url:)``, a transfer failure
    /// ``CardDAVError/transfer(_:)``; other statuses are the caller's.
    func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: String? = nil, bytes: [UInt8]? = nil
    ) throws -> HTTPResponse {
        try send(method, url, headers: headers, body: body, bytes: bytes, streaming: nil) { _ in }
    }

    /// ``send(_:_:headers:body:bytes:)`` whose answer with status `streamed` goes to `sink` as it arrives.
    func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: String? = nil, bytes: [UInt8]? = nil,
        streaming streamed: Int?, into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> HTTPResponse {
        var all = headers.map { (name: $0.0, value: $0.1) }
        if body != nil { all.append((name: "Content-Type", value: "application/xml; charset=utf-8")) }
        let request = HTTPRequest(method: method, url: url, headers: all, body: bytes ?? body.map { Array($0.utf8) })
        var response: HTTPResponse
        var attempt = 0
        while true {
            counter.increment()
            do { response = try http.send(request, streaming: streamed, into: sink) } catch let error as CardDAVError {
                throw error
            } catch {
                throw CardDAVError.transfer("\(error)")
            }
            // Busy (503) or too many requests (429) with a short Retry-After: wait and ask again, twice at most.
            guard response.status == 503 || response.status == 429, attempt < 2,
                let seconds = response.header("retry-after").flatMap({ Double($0) }), (0...30).contains(seconds)
            else { break }
            attempt += 1
            Thread.sleep(forTimeInterval: seconds)
        }
        if response.status == 401 { throw CardDAVError.authenticationFailed(url: HTTPClient.shown(url)) }
        return response
    }

    /// A request whose multistatus answer (207) is read as a stream: each response goes to `each` as soon as
    /// it is complete (one larger than ``memberLimit`` marked ``DAVResponse/overflowed``); returns the
    /// answer (without its body when 207) and the multistatus's other elements (the sync-token).
    func multistatus(
        _ method: String, _ url: String, depth: Int, body: String, each: (DAVResponse) throws -> Void
    ) throws -> (response: HTTPResponse, others: [DAVElement]) {
        var builder = DAVTreeBuilder(url: HTTPClient.shown(url))
        builder.handOutDepth = 2
        builder.handOutLimit = Self.memberLimit
        var others: [DAVElement] = []
        func drain() throws {
            for (element, overflowed) in builder.take() {
                guard element.name == "response", element.namespace == DAVElement.dav else {
                    others.append(element)
                    continue
                }
                guard var r = DAVResponse(element) else { continue }
                r.overflowed = overflowed
                try each(r)
            }
        }
        let response = try send(method, url, headers: [("Depth", String(depth))], body: body, streaming: 207) {
            try builder.feed($0)
            try drain()
        }
        guard response.status == 207 else { return (response, []) }
        let root = try builder.finish()
        try drain()
        guard root.name == "multistatus", root.namespace == DAVElement.dav else {
            throw CardDAVError.badAnswer(url: HTTPClient.shown(url), message: "not a DAV:multistatus answer")
        }
        return (response, others)
    }

    /// A PROPFIND answer's responses; `url` itself answering 404 is nil.
    func propfind(_ url: String, depth: Int, props: String) throws -> [DAVResponse]? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/" xmlns:inf="http://inf-it.com/ns/ab/"><d:prop>\(props)</d:prop></d:propfind>
            """
        var responses: [DAVResponse] = []
        let (response, _) = try multistatus("PROPFIND", url, depth: depth, body: body) { responses.append($0) }
        if response.status == 404 || response.status == 405 { return nil }
        guard response.status == 207 else { throw statusError("PROPFIND", url, response) }
        return responses
    }

    func statusError(_ method: String, _ url: String, _ response: HTTPResponse) -> CardDAVError {
        let text = String(decoding: response.body.prefix(300), as: UTF8.self)
        let message = text.contains("<") ? "" : text.trimmingCharacters(in: .whitespacesAndNewlines)
        return .status(url: HTTPClient.shown(url), method: method, code: response.status, message: message)
    }

    // MARK: Discovery

    static let collectionProps =
        "<d:resourcetype/><d:displayname/><card:addressbook-description/><inf:addressbook-color/><ic:calendar-color/>"
        + "<d:supported-report-set/>"

    /// The address books the account's URL leads to: the collection itself, or those of the principal's
    /// address-book home, found from the URL, else from `/.well-known/carddav`.
    public func addressBooks() throws -> [AddressBookCollection] {
        var url = Self.withSlash(account.url)
        var visited: Set<String> = []
        for _ in 0..<6 {
            guard visited.insert(url).inserted else { break }
            let props =
                Self.collectionProps + "<d:current-user-principal/><card:addressbook-home-set/>"
            let answer = try propfind(url, depth: 0, props: props)
            if let own = answer?.first(where: { Self.samePath($0.href, url) }) ?? answer?.first {
                if own.isAddressBook { return [collection(own, base: url)] }
                if let home = own.property("addressbook-home-set", DAVElement.cardDAV)?.first("href") {
                    return try collections(in: Self.resolve(home.trimmedText, against: url))
                }
                if let principal = own.property("current-user-principal")?.first("href") {
                    let next = Self.resolve(principal.trimmedText, against: url)
                    if !visited.contains(next) {
                        url = next
                        continue
                    }
                }
            }
            // Neither a collection nor a principal: the well-known URL of the server (RFC 6764).
            let wellKnown = Self.resolve("/.well-known/carddav", against: url)
            guard !visited.contains(wellKnown) else { break }
            visited.insert(wellKnown)
            let response = try send("PROPFIND", wellKnown, headers: [("Depth", "0")], body: Self.emptyPropfind)
            if (300...399).contains(response.status), let location = response.header("location") {
                url = Self.withSlash(Self.resolve(location, against: wellKnown))
            } else if response.status == 207 {
                url = wellKnown
            } else {
                break
            }
            visited.remove(url)
        }
        throw CardDAVError.addressBook(
            "\(HTTPClient.shown(account.url)): no CardDAV address book found (not a collection, no principal, no address-book home)"
        )
    }

    static let emptyPropfind =
        #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>"#

    /// The address books in a home collection.
    func collections(in home: String) throws -> [AddressBookCollection] {
        guard let answer = try propfind(home, depth: 1, props: Self.collectionProps) else {
            throw CardDAVError.addressBook("\(HTTPClient.shown(home)): the address-book home does not exist")
        }
        return answer.filter(\.isAddressBook).map { collection($0, base: home) }
    }

    private func collection(_ r: DAVResponse, base: String) -> AddressBookCollection {
        let reports = r.property("supported-report-set")?.all("supported-report") ?? []
        let sync = reports.contains { $0.first("report")?.first("sync-collection") != nil }
        let properties = CollectionProperties(r)
        return AddressBookCollection(
            url: Self.withSlash(Self.resolve(r.href, against: base)),
            displayName: r.property("displayname")?.trimmedText.nonEmpty,
            description: r.property("addressbook-description", DAVElement.cardDAV)?.trimmedText.nonEmpty,
            color: properties.color, supportsSyncCollection: sync, properties: properties)
    }

    // MARK: URLs

    /// `href` as an absolute URL on the server of `base`: a path or a relative reference is resolved against
    /// `base`; of an absolute URL only the path is kept, on `base`'s scheme, host and port (as vdirsyncer
    /// does), so that an answer naming another host never sends a request, or the credentials, there.
    /// Dot segments are removed.
    static func resolve(_ href: String, against base: String) -> String {
        let origin = Self.origin(of: base)
        var path = Self.path(of: href)
        if !path.hasPrefix("/") {
            let basePath = Self.path(of: base)
            let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            path = (directory.hasPrefix("/") ? directory : "/" + directory) + path
        }
        return origin + Self.removingDotSegments(path)
    }

    /// `scheme://host[:port]` of an absolute URL.
    static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        return String(url[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex)])
    }

    /// A path without `.` and `..` segments (RFC 3986 §5.2.4); never above the root.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains("/.") else { return path }
        var out: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (k, part) in parts.enumerated() {
            let last = k == parts.count - 1
            if part == "." || part == ".." {
                if part == ".." && out.count > 1 { out.removeLast() }
                if last { out.append("") }
            } else {
                out.append(part)
            }
        }
        let joined = out.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }

    /// The path of an href or URL, percent-decoded (how two spellings of one member are compared).
    static func path(of href: String) -> String {
        // A path starts with "/"; an absolute URL has "://" after its scheme, then the host, then the path.
        let bytes = href.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        else { return href }
        let rest = bytes[colon...].dropFirst()
        guard rest.starts(with: "//".utf8) else { return href }
        return rest.dropFirst(2).firstIndex(of: UInt8(ascii: "/")).map { String(href[$0...]) } ?? "/"
    }

    /// `text` with its `%XX` sequences decoded; as it is when it has none, or when they are malformed or do
    /// not decode to UTF-8 (Foundation's `removingPercentEncoding`, without its cost on every href).
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) else {
                    return text
                }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self) ?? text
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        func key(_ s: String) -> String {
            let p = path(of: s)
            let decoded = percentDecoded(p)
            return decoded.hasSuffix("/") ? String(decoded.dropLast()) : decoded
        }
        return key(a) == key(b)
    }

    static func withSlash(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// The server no longer knows the stored sync-token (RFC 6578 `DAV:valid-sync-token`).
struct SyncTokenInvalid: Error {}

/// A thread-safe count.
private final class RequestCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
