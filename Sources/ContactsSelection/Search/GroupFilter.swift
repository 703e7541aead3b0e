import ContactsCore

/// The contacts of a named group of an address book: a vCard 4 `KIND:group` card with `MEMBER`s, an Apple
/// `X-ADDRESSBOOKSERVER-KIND:group` card with `X-ADDRESSBOOKSERVER-MEMBER`s, or a `CATEGORIES` value. The
/// name is matched whole, ignoring case; every group of that name counts (a group card "Work" and the
/// category "Work" are one group to the user).
///
/// ```swift
/// let work = try GroupFilter(name: "Work", in: book)
/// let contacts = work.filter(book.contacts)      // the members, in book order
/// ```
public struct GroupFilter: Sendable {
    /// The name as asked for.
    public let name: String
    /// The groups of that name.
    public let groups: [Group]
    /// The ids of their members.
    public let memberIDs: Set<String>

    /// The group `name` of `book`; throws ``GroupError/unknownGroup(name:known:)`` (with the names the book
    /// has) when it has none of that name.
    public init(name: String, in book: AddressBook) throws(GroupError) {
        let key = name.lowercased()
        let groups = book.groups.filter { $0.name.lowercased() == key }
        guard !groups.isEmpty else {
            throw GroupError.unknownGroup(name: name, known: GroupSummary.summaries(of: book).map(\.name))
        }
        self.name = name
        self.groups = groups
        memberIDs = Set(groups.flatMap(\.memberIDs))
    }

    /// Whether `contact` is a member.
    public func contains(_ contact: Contact) -> Bool { memberIDs.contains(contact.id) }

    /// The members among `contacts`, in their order.
    public func filter(_ contacts: [Contact]) -> [Contact] { contacts.filter(contains) }
}

/// A group name was not found.
public enum GroupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No group of that name; `known` lists the book's group names.
    case unknownGroup(name: String, known: [String])

    public var description: String {
        switch self {
        case .unknownGroup(let name, let known):
            return "no group '\(name)'"
                + (known.isEmpty ? " (the address book has no groups)" : " (have: \(known.joined(separator: ", ")))")
        }
    }
}

/// A group as `contacts groups` lists it: its name, where it comes from, and how many of the book's contacts
/// are in it.
public struct GroupSummary: Sendable, Hashable {
    public var name: String
    /// The group's kinds: a card, a category, or both (a card and a category of the same name).
    public var kinds: [Group.Kind]
    /// Members that are contacts of the book (a `MEMBER` naming a card that is not there is not counted).
    public var memberCount: Int

    public init(name: String, kinds: [Group.Kind], memberCount: Int) {
        self.name = name
        self.kinds = kinds
        self.memberCount = memberCount
    }

    /// One summary per group name (ignoring case; the first spelling is kept), in the book's order.
    ///
    /// ```swift
    /// for group in GroupSummary.summaries(of: book) { print(group.name, group.memberCount) }
    /// ```
    public static func summaries(of book: AddressBook) -> [GroupSummary] {
        var order: [String] = []
        var byKey: [String: (name: String, kinds: [Group.Kind], members: Set<String>)] = [:]
        for group in book.groups {
            let key = group.name.lowercased()
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = (group.name, [], [])
            }
            if !byKey[key]!.kinds.contains(group.kind) { byKey[key]!.kinds.append(group.kind) }
            byKey[key]!.members.formUnion(group.memberIDs)
        }
        return order.compactMap { key in
            guard let entry = byKey[key] else { return nil }
            let count = entry.members.filter { book.contact(id: $0) != nil }.count
            return GroupSummary(name: entry.name, kinds: entry.kinds, memberCount: count)
        }
    }
}
