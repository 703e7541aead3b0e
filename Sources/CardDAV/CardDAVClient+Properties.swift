import CurlTransfer
import Foundation

/// The properties of an address book a sync keeps in step with the vdir's metadata files (`displayname`,
/// `color`).
public struct CollectionProperties: Sendable, Hashable {
    public var displayName: String?
    /// `#RRGGBB`: InfCloud's `addressbook-color` (what Xandikos keeps for an address book, and Radicale's
    /// web interface writes), else Apple's `calendar-color`.
    public var color: String?
    /// Whether the colour came from Apple's `calendar-color` only (a change is then written there too).
    public var colorIsApple = false

    public init(displayName: String? = nil, color: String? = nil) {
        self.displayName = displayName
        self.color = color
    }

    init(_ r: DAVResponse) {
        displayName = r.property("displayname")?.trimmedText.nonEmpty
        let inf = r.property("addressbook-color", DAVElement.infCloud)?.trimmedText.nonEmpty
        let apple = r.property("calendar-color", DAVElement.apple)?.trimmedText.nonEmpty
        color = (inf ?? apple).map(Self.normalizedColor)
        colorIsApple = inf == nil && apple != nil
    }

    /// `#RRGGBBAA` (Apple's form with opacity) as `#RRGGBB`, as vdirsyncer writes colours; others as given.
    static func normalizedColor(_ color: String) -> String {
        color.hasPrefix("#") && color.count == 9 && color.dropFirst().allSatisfy(\.isHexDigit)
            ? String(color.prefix(7)) : color
    }

    /// The value of a vdir metadata name (`displayname`, `color`).
    public subscript(metadata name: String) -> String? {
        switch name {
        case "displayname": displayName
        case "color": color
        default: nil
        }
    }
}

extension CardDAVClient {
    /// The metadata names a sync keeps in step, in order.
    static let metadataNames = ["displayname", "color"]

    /// The display name and colour of `collection` (one PROPFIND of depth 0, of its own properties only:
    /// no sync-token, which Radicale computes from every member); nil when the server answers 404 or 405.
    func properties(of collection: String) throws -> CollectionProperties? {
        let props = "<d:displayname/><inf:addressbook-color/><ic:calendar-color/>"
        guard let answer = try propfind(collection, depth: 0, props: props) else { return nil }
        let own = answer.first { Self.samePath($0.href, collection) } ?? answer.first
        return own.map(CollectionProperties.init)
    }

    /// Sets the metadata `values` (by vdir name: `displayname`, `color`) of `collection` with one PROPPATCH;
    /// the colour goes where `current` keeps it. Throws
    /// ``CardDAVError/status(url:method:code:message:)`` naming the properties the server refused.
    func setProperties(
        of collection: String, _ values: [(name: String, value: String)], current: CollectionProperties
    ) throws {
        func element(_ name: String) -> (tag: String, name: String, namespace: String) {
            switch name {
            case "color" where current.colorIsApple: ("ic:calendar-color", "calendar-color", DAVElement.apple)
            case "color": ("inf:addressbook-color", "addressbook-color", DAVElement.infCloud)
            default: ("d:displayname", "displayname", DAVElement.dav)
            }
        }
        var body =
            #"<?xml version="1.0" encoding="utf-8"?><d:propertyupdate xmlns:d="DAV:" "#
            + #"xmlns:ic="http://apple.com/ns/ical/" xmlns:inf="http://inf-it.com/ns/ab/">"#
        for (name, value) in values {
            let tag = element(name).tag
            body += "<d:set><d:prop><\(tag)>\(Self.escape(value))</\(tag)></d:prop></d:set>"
        }
        body += "</d:propertyupdate>"
        var answered: [DAVResponse] = []
        let (response, _) = try multistatus("PROPPATCH", collection, depth: 0, body: body) { answered.append($0) }
        if (200...299).contains(response.status) && response.status != 207 { return }
        guard response.status == 207 else { throw statusError("PROPPATCH", collection, response) }
        let own = answered.first { Self.samePath($0.href, collection) } ?? answered.first
        let refused = values.map(\.name).filter { name in
            let e = element(name)
            return own?.property(e.name, e.namespace) == nil
        }
        guard refused.isEmpty else {
            throw CardDAVError.status(
                url: HTTPClient.shown(collection), method: "PROPPATCH", code: own?.status ?? 207,
                message: "not set: " + refused.joined(separator: ", "))
        }
    }
}
