import Foundation

/// The contacts of several sources read as one book (``AddressBook/init(merging:names:)``: ids made unique
/// by the rule of a single book), each contact remembering the source it came from.
///
/// ```swift
/// let merged = try SourcedAddressBook(reading: [ContactSource(path: "work.vcf"), ContactSource(path: "family")])
/// for contact in merged.book.contacts { print(contact.displayName, merged.source(of: contact.id) ?? "") }
/// ```
public struct SourcedAddressBook: Sendable {
    /// Every contact of every source, in source order.
    public let book: AddressBook
    /// The sources, in the order given.
    public let sources: [ContactSource]
    /// The collection name of each source (``ContactSource/displayName``), read once, in source order.
    public let displayNames: [String?]
    /// The index in `book.contacts` where each source's contacts start, and the end.
    private let starts: [Int]

    /// Sources already read, in order.
    public init(_ parts: [(source: ContactSource, book: AddressBook)]) {
        var starts = [0]
        for part in parts { starts.append(starts[starts.count - 1] + part.book.contacts.count) }
        self.starts = starts
        sources = parts.map(\.source)
        displayNames = sources.map(\.displayName)
        book =
            parts.count == 1
            ? parts[0].book : AddressBook(merging: parts.map(\.book), names: parts.map(\.source.description))
    }

    /// Reads each source (``ContactSource/read()``) and merges them.
    public init(reading sources: [ContactSource]) throws {
        self.init(try sources.map { ($0, try $0.read()) })
    }

    /// The source of `book.contacts[position]`.
    public func source(ofContactAt position: Int) -> ContactSource { sources[sourceIndex(ofContactAt: position)] }

    /// The collection name of the source of the contact with `id` (a vdir's `displayname`), if it has one.
    public func displayName(of id: String) -> String? {
        book.position(of: id).flatMap { displayNames[sourceIndex(ofContactAt: $0)] }
    }

    private func sourceIndex(ofContactAt position: Int) -> Int {
        var low = 0
        var high = sources.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= position { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The source of the contact with `id`, if the book has it.
    public func source(of id: String) -> ContactSource? { book.position(of: id).map(source(ofContactAt:)) }
}
