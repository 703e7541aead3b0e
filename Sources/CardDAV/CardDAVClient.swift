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

    public init(url: String, user: String? = nil, password: String? = nil, caFile: String? = nil) {
        self.url = url
        self.user = user
        self.password = password
        self.caFile = caFile
    }
}

/// An address book collection on a server.
public struct AddressBookCollection: Sendable, Hashable {
    /// The collection's absolute URL (ending in `/`).
    public var url: String
    public var displayName: String?
    public var description: String?
    /// `#RRGGBB` (Apple's calendar-color property), when the server keeps one.
    public var color: String?
    /// Whether the server offers RFC 6578 `sync-collection` on it.
    public var supportsSyncCollection: Bool

    public init(
        url: String, displayName: String? = nil, description: String? = nil, color: String? = nil,
        supportsSyncCollection: Bool = false
    ) {
        self.url = url
        self.displayName = displayName
        self.description = description
        self.color = color
        self.supportsSyncCollection = supportsSyncCollection
    }
}

/// The CardDAV protocol (RFC 6352) over HTTP: discovery (RFC 6764 and the principal's address-book home),
/// `sync-collection` (RFC 6578), the ETag listing, `addressbook-multiget`, and conditional writes.
///
/// ```swift
/// let client = try CardDAVClient(account: CardDAVAccount(url: "https://dav.example.org/", user: "ada"))
/// for book in try client.addressBooks() { print(book.url, book.displayName ?? "") }
/// ```
public final class CardDAVClient: Sendable {
    public let account: CardDAVAccount
    let http: HTTPClient
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
            http = try HTTPClient(user: account.user, password: account.password, caFile: account.caFile)
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
    )
        throws -> HTTPResponse
    {
        var all = headers.map { (name: $0.0, value: $0.1) }
        if body != nil { all.append((name: "Content-Type", value: "application/xml; charset=utf-8")) }
        let request = HTTPRequest(method: method, url: url, headers: all, body: bytes ?? body.map { Array($0.utf8) })
        var response: HTTPResponse
        var attempt = 0
        while true {
            counter.increment()
            do { response = try http.send(request) } catch { throw CardDAVError.transfer("\(error)") }
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

    /// A PROPFIND answer's responses; `url` itself answering 404 is nil.
    func propfind(_ url: String, depth: Int, props: String) throws -> [DAVResponse]? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/"><d:prop>\(props)</d:prop></d:propfind>
            """
        let response = try send("PROPFIND", url, headers: [("Depth", String(depth))], body: body)
        if response.status == 404 || response.status == 405 { return nil }
        guard response.status == 207 else { throw statusError("PROPFIND", url, response) }
        return try DAVResponse.all(in: DAVElement.parse(response.body, url: HTTPClient.shown(url)), base: url)
    }

    func statusError(_ method: String, _ url: String, _ response: HTTPResponse) -> CardDAVError {
        let text = String(decoding: response.body.prefix(300), as: UTF8.self)
        let message = text.contains("<") ? "" : text.trimmingCharacters(in: .whitespacesAndNewlines)
        return .status(url: HTTPClient.shown(url), method: method, code: response.status, message: message)
    }

    // MARK: Discovery

    static let collectionProps =
        "<d:resourcetype/><d:displayname/><card:addressbook-description/><ic:calendar-color/><d:supported-report-set/>"

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
        let color = r.property("calendar-color", DAVElement.apple)?.trimmedText
        return AddressBookCollection(
            url: Self.withSlash(Self.resolve(r.href, against: base)),
            displayName: r.property("displayname")?.trimmedText.nonEmpty,
            description: r.property("addressbook-description", DAVElement.cardDAV)?.trimmedText.nonEmpty,
            color: color.flatMap { $0.isEmpty ? nil : String($0.prefix(7)) }, supportsSyncCollection: sync)
    }

    // MARK: Listing changes

    /// What changed since `token` (RFC 6578): changed members with their ETags, removed members, the new
    /// token. A 507 (truncated) answer is followed by further requests from the token it gave.
    /// Throws ``SyncTokenInvalid`` when the server no longer knows `token`.
    func changes(_ collection: String, since token: String?) throws -> (
        changed: [String: String], removed: Set<String>, token: String
    ) {
        var changed: [String: String] = [:]
        var removed: Set<String> = []
        var current = token
        for _ in 0..<10_000 {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(Self.escape(current ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                """
            let response = try send("REPORT", collection, headers: [("Depth", "1")], body: body)
            if current != nil && [403, 409, 412].contains(response.status)
                && String(decoding: response.body, as: UTF8.self).contains("valid-sync-token")
            {
                throw SyncTokenInvalid()
            }
            guard response.status == 207 else { throw statusError("REPORT sync-collection", collection, response) }
            let root = try DAVElement.parse(response.body, url: HTTPClient.shown(collection))
            var truncated = false
            for r in DAVResponse.all(in: root, base: collection) where !Self.samePath(r.href, collection) {
                if r.status == 404 {
                    removed.insert(r.href)
                    changed[r.href] = nil
                } else if r.status == 507 {
                    truncated = true
                } else if let etag = r.property("getetag")?.trimmedText {
                    changed[r.href] = etag
                    removed.remove(r.href)
                }
            }
            if DAVResponse.all(in: root, base: collection).contains(where: { $0.status == 507 }) { truncated = true }
            guard let next = root.first("sync-token")?.trimmedText, !next.isEmpty else {
                throw CardDAVError.badAnswer(
                    url: HTTPClient.shown(collection), message: "sync-collection gave no sync-token")
            }
            if !truncated || next == current { return (changed, removed, next) }
            current = next
        }
        throw CardDAVError.badAnswer(url: HTTPClient.shown(collection), message: "sync-collection never ended")
    }

    /// The collection's current sync-token (RFC 6578 `DAV:sync-token` property), if the server gives one.
    func syncToken(_ collection: String) throws -> String? {
        guard let answer = try propfind(collection, depth: 0, props: "<d:sync-token/>") else { return nil }
        let own = answer.first { Self.samePath($0.href, collection) } ?? answer.first
        return own?.property("sync-token")?.trimmedText.nonEmpty
    }

    /// Every member with its ETag and vCard in one `addressbook-query` (a first sync: one request instead of
    /// a listing and batches of `addressbook-multiget`).
    func allCards(_ collection: String) throws -> [String: (etag: String, card: [UInt8])] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop></card:addressbook-query>
            """
        let response = try send("REPORT", collection, headers: [("Depth", "1")], body: body)
        guard response.status == 207 else { throw statusError("REPORT addressbook-query", collection, response) }
        let root = try DAVElement.parse(response.body, url: HTTPClient.shown(collection))
        var result: [String: (etag: String, card: [UInt8])] = [:]
        for r in DAVResponse.all(in: root, base: collection) where !Self.samePath(r.href, collection) {
            guard let data = r.property("address-data", DAVElement.cardDAV) else { continue }
            result[r.href] = (r.property("getetag")?.trimmedText ?? "", Self.crlf(data.text))
        }
        return result
    }

    /// Every member of the collection with its ETag (for servers without `sync-collection`).
    func etags(_ collection: String) throws -> [String: String] {
        guard let answer = try propfind(collection, depth: 1, props: "<d:getetag/><d:resourcetype/>") else {
            throw CardDAVError.addressBook("\(HTTPClient.shown(collection)): the address book does not exist")
        }
        var result: [String: String] = [:]
        for r in answer where !Self.samePath(r.href, collection) && !r.isCollection {
            if let etag = r.property("getetag")?.trimmedText { result[r.href] = etag }
        }
        return result
    }

    /// The vCards at `hrefs` (in batches), each with its ETag; members gone meanwhile are left out.
    func cards(_ collection: String, hrefs: [String], batch: Int = 200) throws -> [String: (
        etag: String, card: [UInt8]
    )] {
        var result: [String: (etag: String, card: [UInt8])] = [:]
        var start = 0
        while start < hrefs.count {
            let part = hrefs[start..<min(hrefs.count, start + batch)]
            start += batch
            let list = part.map { "<d:href>\(Self.escape(Self.path(of: $0)))</d:href>" }.joined()
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop>\(list)</card:addressbook-multiget>
                """
            let response = try send("REPORT", collection, headers: [("Depth", "1")], body: body)
            guard response.status == 207 else { throw statusError("REPORT addressbook-multiget", collection, response) }
            let root = try DAVElement.parse(response.body, url: HTTPClient.shown(collection))
            for r in DAVResponse.all(in: root, base: collection) {
                guard let data = r.property("address-data", DAVElement.cardDAV) else { continue }
                result[r.href] = (r.property("getetag")?.trimmedText ?? "", Self.crlf(data.text))
            }
        }
        return result
    }

    /// A card from XML text (whose parser turned every CRLF into LF) with the CRLF line ends vCard has.
    static func crlf(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 64)
        var previous: UInt8 = 0
        for b in text.utf8 {
            if b == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(b)
            previous = b
        }
        return out
    }

    // MARK: Writes

    /// The outcome of a conditional write.
    enum WriteResult: Equatable {
        /// Done; the new ETag when the server gave one.
        case done(etag: String?)
        /// The precondition failed (412): the member changed, appeared or went meanwhile.
        case changedMeanwhile
    }

    /// PUT of a vCard: `etag` nil creates (`If-None-Match: *`), else replaces that version (`If-Match`).
    func put(_ href: String, card: [UInt8], etag: String?) throws -> WriteResult {
        let url = Self.resolve(href, against: account.url)
        let condition = etag.map { ("If-Match", $0) } ?? ("If-None-Match", "*")
        let response = try send(
            "PUT", url, headers: [condition, ("Content-Type", "text/vcard; charset=utf-8")], bytes: card)
        if response.status == 412 { return .changedMeanwhile }
        guard (200...299).contains(response.status) else { throw statusError("PUT", url, response) }
        return .done(etag: response.header("etag"))
    }

    /// DELETE of the version `etag`; a member already gone is done.
    func delete(_ href: String, etag: String) throws -> WriteResult {
        let url = Self.resolve(href, against: account.url)
        let response = try send("DELETE", url, headers: [("If-Match", etag)])
        if response.status == 412 { return .changedMeanwhile }
        guard (200...299).contains(response.status) || response.status == 404 else {
            throw statusError("DELETE", url, response)
        }
        return .done(etag: nil)
    }

    // MARK: URLs

    /// `href` (a path or an absolute URL) as an absolute URL on the server of `base`.
    static func resolve(_ href: String, against base: String) -> String {
        if href.hasPrefix("http://") || href.hasPrefix("https://") { return href }
        guard let url = URL(string: href, relativeTo: URL(string: base)) else { return href }
        return url.absoluteString
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
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
