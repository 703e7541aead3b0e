import CurlTransfer
import Foundation

/// A member of an address book as the server gave it.
struct DAVMember {
    var href: String
    var etag: String
    /// The vCard; nil when the answer held none (``problem`` says why when it is not a plain omission).
    var card: [UInt8]?
    /// Why the member cannot be read (larger than the limit), if it cannot.
    var problem: String?
}

/// What changed on the server: changed members with their ETags and sizes (when given), removed ones, and
/// the new sync-token.
struct DAVListing {
    var changed: [String: String] = [:]
    var sizes: [String: Int] = [:]
    var removed: Set<String> = []
    var token: String?
}

extension CardDAVClient {
    // MARK: Listing changes

    /// What changed since `token` (RFC 6578): changed members with their ETags, removed members, the new
    /// token. A 507 (truncated) answer is followed by further requests from the token it gave.
    /// Throws ``SyncTokenInvalid`` when the server no longer knows `token`.
    func changes(_ collection: String, since token: String?) throws -> DAVListing {
        try changes(collection, since: token, withCards: false) { _ in }
    }

    /// ``changes(_:since:)`` asking for the cards too (`withCards`): each changed member the answer holds a
    /// card for (or is too large) goes to `each` as it arrives, and is listed too. Servers that give no
    /// `address-data` in `sync-collection` (Xandikos) answer with the listing alone.
    func changes(
        _ collection: String, since token: String?, withCards: Bool, each: (DAVMember) throws -> Void
    ) throws -> DAVListing {
        var listing = DAVListing()
        var current = token
        // With the cards, no getcontentlength: the sizes only batch a multiget, and Xandikos reads every body
        // to give them (a quarter of the listing's time there).
        let props = withCards ? "<d:getetag/><card:address-data/>" : "<d:getetag/><d:getcontentlength/>"
        for _ in 0..<10_000 {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:sync-collection xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:sync-token>\(Self.escape(current ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop>\(props)</d:prop></d:sync-collection>
                """
            var truncated = false
            let (response, others) = try multistatus("REPORT", collection, depth: 1, body: body) { r in
                if r.status == 507 {
                    truncated = true
                } else if Self.samePath(r.href, collection) {
                    return
                } else if r.status == 404 {
                    listing.removed.insert(r.href)
                    listing.changed[r.href] = nil
                } else if let etag = r.property("getetag")?.trimmedText {
                    listing.changed[r.href] = etag
                    listing.sizes[r.href] = r.property("getcontentlength").flatMap { Int($0.trimmedText) }
                    listing.removed.remove(r.href)
                    if withCards {
                        let member = Self.member(r)
                        if member.card != nil || member.problem != nil { try each(member) }
                    }
                }
            }
            if current != nil && [403, 409, 412].contains(response.status)
                && String(decoding: response.body, as: UTF8.self).contains("valid-sync-token")
            {
                throw SyncTokenInvalid()
            }
            guard response.status == 207 else { throw statusError("REPORT sync-collection", collection, response) }
            guard let next = others.first(where: { $0.name == "sync-token" })?.trimmedText, !next.isEmpty else {
                throw CardDAVError.badAnswer(
                    url: HTTPClient.shown(collection), message: "sync-collection gave no sync-token")
            }
            listing.token = next
            if !truncated || next == current { return listing }
            current = next
        }
        throw CardDAVError.badAnswer(url: HTTPClient.shown(collection), message: "sync-collection never ended")
    }

    /// Every member of the collection with its ETag (for servers without `sync-collection`).
    func etags(_ collection: String) throws -> DAVListing {
        guard
            let answer = try propfind(collection, depth: 1, props: "<d:getetag/><d:getcontentlength/><d:resourcetype/>")
        else {
            throw CardDAVError.addressBook("\(HTTPClient.shown(collection)): the address book does not exist")
        }
        var listing = DAVListing()
        for r in answer where !Self.samePath(r.href, collection) && !r.isCollection {
            guard let etag = r.property("getetag")?.trimmedText else { continue }
            listing.changed[r.href] = etag
            listing.sizes[r.href] = r.property("getcontentlength").flatMap { Int($0.trimmedText) }
        }
        return listing
    }

    // MARK: Cards

    /// Every member with its ETag and vCard in one `addressbook-query` (a first sync: one request instead of
    /// a listing and batches of `addressbook-multiget`), each handed to `each` as it arrives.
    func allCards(_ collection: String, each: (DAVMember) throws -> Void) throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop></card:addressbook-query>
            """
        let (response, _) = try multistatus("REPORT", collection, depth: 1, body: body) { r in
            guard !Self.samePath(r.href, collection), !r.isCollection, r.status == nil || r.status == 200 else {
                return
            }
            try each(Self.member(r))
        }
        guard response.status == 207 else { throw statusError("REPORT addressbook-query", collection, response) }
    }

    /// The most bytes of cards asked for in one `addressbook-multiget` (by the sizes the listing gave).
    static let batchBytes = 4 << 20

    /// The vCards at `hrefs`, in `addressbook-multiget` batches of at most 200 members and ``batchBytes`` (by
    /// `sizes` when the listing gave them, else by the average member of the answers so far), each handed
    /// to `each` as it arrives; members gone meanwhile are left out.
    func cards(
        _ collection: String, hrefs: [String], sizes: [String: Int] = [:], each: (DAVMember) throws -> Void
    ) throws {
        var start = 0
        // A member of unknown size is taken to be as large as the average of the last answer (the first
        // batch without sizes is kept small to learn it).
        var estimate: Int? = nil
        while start < hrefs.count {
            var end = start
            var bytes = 0
            let most = estimate == nil && sizes.isEmpty ? 50 : 200
            while end < hrefs.count && end - start < most && (end == start || bytes < Self.batchBytes) {
                bytes += sizes[hrefs[end]] ?? estimate ?? 4096
                end += 1
            }
            var received = (bytes: 0, members: 0)
            let list = hrefs[start..<end].map { "<d:href>\(Self.escape(Self.path(of: $0)))</d:href>" }.joined()
            start = end
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop>\(list)</card:addressbook-multiget>
                """
            let (response, _) = try multistatus("REPORT", collection, depth: 1, body: body) { r in
                guard r.status == nil || r.status == 200 else { return }
                let member = Self.member(r)
                received.bytes += member.card?.count ?? 0
                received.members += 1
                try each(member)
            }
            guard response.status == 207 else { throw statusError("REPORT addressbook-multiget", collection, response) }
            if received.members > 0 { estimate = max(512, received.bytes / received.members) }
        }
    }

    /// The member a multiget or query response holds.
    static func member(_ r: DAVResponse) -> DAVMember {
        let etag = r.property("getetag")?.trimmedText ?? ""
        if r.overflowed {
            return DAVMember(
                href: r.href, etag: etag, problem: "larger than \(memberLimit >> 20) MiB; not read")
        }
        let data = r.property("address-data", DAVElement.cardDAV).map { crlf($0.text) }
        return DAVMember(href: r.href, etag: etag, card: data.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// One member by GET (for a server that gives no `address-data` for it); nil when it is gone.
    func get(_ href: String) throws -> DAVMember? {
        let url = Self.resolve(href, against: account.url)
        let response = try send("GET", url, headers: [("Accept", "text/vcard, */*;q=0.1")])
        if response.status == 404 || response.status == 410 { return nil }
        guard response.status == 200 else { throw statusError("GET", url, response) }
        return DAVMember(href: href, etag: response.header("etag") ?? "", card: response.body)
    }

    /// A card from XML text (whose line ends may be LF alone) with the CRLF line ends vCard has.
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
}
