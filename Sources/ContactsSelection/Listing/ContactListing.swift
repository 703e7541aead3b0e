/// What a list or search prints of one row.
public struct ListedRow: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var value: String
    public var enabled: Bool
}

/// A sectioned, searchable list of contacts: a ``ContactsDataSource`` built from the address book, or a
/// ``SavedList`` read back from its index file. Both answer `list` and `search` the same way.
public protocol ContactListing: AnyObject, Sendable {
    /// The full index bar.
    var indexTitles: [String] { get }
    /// The non-empty sections of the full list (index order, `#` last).
    var sections: [RowSection] { get }
    /// Number of rows.
    var rowCount: Int { get }
    /// The number of the row of a contact id (the first, for an id listed twice); nil when it is not listed.
    func rowNumber(id: String) -> Int?
    /// Searches the list (an empty query lists everyone), as
    /// ``ContactsDataSource/search(_:keywords:fuzzy:refining:)``.
    func search(_ query: String, keywords: Bool?, fuzzy: Bool, refining previous: SearchResult?) -> SearchResult
    /// What row `number` shows.
    func listedRow(_ number: Int) -> ListedRow
    /// How many contacts the list left out only for want of its mode's channel that the other channel
    /// would reach: in messages mode those with an email but no phone that takes text messages, in email
    /// mode those with such a phone but no email (0 in `.both`). A command that lists no one says so.
    var otherChannelCount: Int { get }
}

extension ContactListing {
    /// Searches the list without fuzzy matching (fzf's extended syntax still applies).
    public func search(_ query: String, keywords: Bool?, refining previous: SearchResult?) -> SearchResult {
        search(query, keywords: keywords, fuzzy: false, refining: previous)
    }
}

extension ContactsDataSource: ContactListing {
    public var rowCount: Int { rows.count }
    public func listedRow(_ number: Int) -> ListedRow {
        let row = rows[number]
        return ListedRow(id: row.id, displayName: row.displayName, value: row.value, enabled: row.enabled)
    }
}
