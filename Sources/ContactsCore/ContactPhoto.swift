import Foundation

/// A contact's picture: embedded bytes with their media type, or a URI.
///
/// ```swift
/// if case .embedded(let data, let type)? = contact.photo { print(data.count, type ?? "?") }
/// ```
public enum ContactPhoto: Sendable, Hashable {
    /// Decoded bytes and a media type ("image/jpeg") when the card named one.
    case embedded(Data, mediaType: String?)
    /// A link (`http:`, `https:`, …).
    case uri(String)
}
