/// The duplicates of a listing, as a search result a list shows like any other.
extension DuplicateFinder {
    /// The likely duplicates among `listing`'s rows as a result: one section per group, surest first, titled
    /// by `title` (the caller's words: the library has no UI literals), its rows in list order. The rows'
    /// cards are read through `contacts` once.
    ///
    /// ```swift
    /// let selection = try SelectionController(contacts: book.contacts)
    /// let twins = try DuplicateFinder.result(
    ///     in: selection.listing, contacts: selection.contacts, region: "US",
    ///     title: { "\($0.reasons[0].description) · \(Int($0.score * 100))%" })
    /// twins.sections.first?.title   // "same phone +46855501000 · 90%"
    /// ```
    public static func result(
        in listing: any ContactListing, contacts: ContactLookup, region: String?, title: (DuplicateGroup) -> String
    ) throws -> SearchResult {
        let ids = (0..<listing.rowCount).map { listing.listedRow($0).id }
        let cards = try contacts.contacts(ids: ids)
        let groups = try groups(in: ids.compactMap { cards[$0] }, region: region)
        var rows: [Int32] = []
        var sections: [RowSection] = []
        for group in groups {
            let numbers = Set(group.ids.compactMap { listing.rowNumber(id: $0) }).sorted()
            guard numbers.count > 1 else { continue }
            sections.append(RowSection(title: title(group), range: rows.count..<(rows.count + numbers.count)))
            rows += numbers.map { Int32($0) }
        }
        return SearchResult(query: "", rowNumbers: rows, sections: sections, parsed: nil)
    }
}
