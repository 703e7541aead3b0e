import Collation
import ContactsCore

extension AddressMatch {
    /// How well a contact's name and addresses answer a query: lower is better.
    public enum Rank: Int, Sendable, Comparable {
        /// The name starts with the query ("ann" for Anna Berg).
        case namePrefix
        /// Each word of the query starts a word of the name ("berg ann", "an be").
        case wordPrefix
        /// An email address starts with the query ("aberg" for aberg@example.org).
        case emailPrefix
        /// Anywhere else (inside a word, in the domain, the organization).
        case elsewhere

        public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// The rank of a contact named `name` with `emails` for `query`, compared folded (case and accents of
    /// Latin text; other scripts by their lower case).
    ///
    /// ```swift
    /// AddressMatch.rank("an", name: "Anna Berg", emails: [])              // .namePrefix
    /// AddressMatch.rank("berg an", name: "Anna Berg", emails: [])         // .wordPrefix
    /// AddressMatch.rank("nna", name: "Anna Berg", emails: ["a@x.org"])    // .elsewhere
    /// ```
    public static func rank(_ query: String, name: String, emails: [String]) -> Rank {
        func fold(_ text: String) -> String { SearchFolding.foldLatin1(text) ?? text.lowercased() }
        let q = fold(query)
        guard !q.isEmpty else { return .elsewhere }
        let folded = fold(name)
        if folded.hasPrefix(q) { return .namePrefix }
        let words = folded.split(separator: " ")
        let needles = q.split(separator: " ")
        if !words.isEmpty, needles.allSatisfy({ needle in words.contains { $0.hasPrefix(needle) } }) {
            return .wordPrefix
        }
        if emails.contains(where: { $0.lowercased().hasPrefix(q) }) { return .emailPrefix }
        return .elsewhere
    }

    /// Every email address of every contact `query` finds in `listing` (its search: folded, plain or by
    /// `keywords`), the contacts read through `contacts` (a saved list's cards, read alone), best first:
    /// by ``rank(_:name:emails:)``, then in list order; each contact's addresses in `pref` order (unranked
    /// last, as written). Contacts without an email address are not matched. The front door of
    /// `contacts query`, whatever the listing (a saved index when one is current).
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.mode = .email
    /// let opened = try ListingCache.standard().open(book: "contacts.vcf", configuration: configuration)
    /// let found = try AddressMatch.matches("ann", in: opened.listing, contacts: opened.contacts)
    /// ```
    public static func matches(
        _ query: String, in listing: any ContactListing, contacts: ContactLookup, keywords: Bool? = nil
    ) throws -> [AddressMatch] {
        var ids: [String] = []
        var rows: [(id: String, row: Int)] = []
        var names: [String: String] = [:]
        for number in listing.search(query, keywords: keywords, refining: nil).rowNumbers {
            let row = listing.listedRow(Int(number))
            if names[row.id] == nil {
                names[row.id] = row.displayName
                ids.append(row.id)
                rows.append((row.id, Int(number)))
            }
        }
        // The found rows say where their cards are (a saved list's): no id is looked up.
        let found = try contacts.contacts(rows: rows)
        var ranked: [(rank: Rank, order: Int, matches: [AddressMatch])] = []
        for (order, id) in ids.enumerated() {
            guard let contact = found[id], !contact.emails.isEmpty else { continue }
            let name = names[id] ?? ""
            let emails = contact.emails.enumerated().sorted { a, b in
                (a.element.preference ?? Int.max, a.offset) < (b.element.preference ?? Int.max, b.offset)
            }.map(\.element)
            let matches = emails.map { email in
                AddressMatch(
                    id: id, name: contact.hasName ? name : "", email: email.value, label: email.label.identifier,
                    organization: contact.organization)
            }
            ranked.append((rank(query, name: name, emails: emails.map(\.value)), order, matches))
        }
        ranked.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        return ranked.flatMap(\.matches)
    }
}
