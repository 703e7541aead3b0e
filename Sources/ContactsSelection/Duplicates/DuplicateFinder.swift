import Collation
import ContactsCore
import Foundation

/// A group of contacts that are likely one person, why, and how sure.
public struct DuplicateGroup: Sendable, Hashable {
    /// Why two contacts of the group were taken for one person.
    public enum Reason: Sendable, Hashable {
        /// The same email address (compared without case).
        case email(String)
        /// The same phone number in E.164 form (written in any way).
        case phone(String)
        /// The same name after case, accent and width folding and transliteration to Latin, words in any
        /// order (`Борис Иванов`, `Boris Ivanov`, `Ivanov Boris`).
        case name(String)
        /// One's nickname is the other's given name, with the same family name (`Bob` and `Robert` Smith).
        case nickname(String)

        /// How much this reason alone says two contacts are one person (0…1).
        public var weight: Double {
            switch self {
            case .email: return 0.95
            case .phone: return 0.9
            case .name: return 0.7
            case .nickname: return 0.6
            }
        }

        /// `same email ada@example.org`, `same phone +442079460000`, `same name ada lovelace`,
        /// `nickname bob smith`.
        public var description: String {
            switch self {
            case .email(let v): return "same email \(v)"
            case .phone(let v): return "same phone \(v)"
            case .name(let v): return "same name \(v)"
            case .nickname(let v): return "nickname \(v)"
            }
        }
    }

    /// The contacts' ids, in book order.
    public var ids: [String]
    /// The reasons found between its contacts, strongest first.
    public var reasons: [Reason]
    /// 1 − Π(1 − weight) over the kinds of reason found: two independent signs make a surer group.
    public var score: Double
}

/// Finds groups of likely duplicates in a book: contacts linked by the same normalized phone or email, the
/// same folded and transliterated name, or a nickname that is another's given name (same family name);
/// linked contacts form one group. A value shared by more than ``maximumShare`` contacts (a switchboard
/// number, an office address, a very common name) links no one.
///
/// ```swift
/// let book = try AddressBook.sample()
/// let groups = try DuplicateFinder.groups(in: book.contacts, region: "US")
/// for group in groups { print(group.score, group.ids, group.reasons.map(\.description)) }
/// ```
public enum DuplicateFinder {
    /// A value shared by more contacts than this is not taken as a sign of one person.
    public static let maximumShare = 20

    /// The groups of `contacts`, surest first (then in book order). `region`: for phone numbers written
    /// without a country code (nil: only numbers in international form are compared).
    public static func groups(
        in contacts: [Contact], region: String?, folding: SearchFolding? = nil
    ) throws -> [DuplicateGroup] {
        let folding = try folding ?? SearchFolding()
        var keys: [DuplicateGroup.Reason: [Int]] = [:]
        func link(_ reason: DuplicateGroup.Reason, _ i: Int) {
            keys[reason, default: []].append(i)
        }
        let phones = PhoneNormalizer.shared.normalizePhones(of: contacts, region: region ?? "ZZ")
        var nextPhone = 0
        var memo = SearchFolding.Memo()
        var nicknames: [String: [Int]] = [:]
        var givens: [String: [Int]] = [:]
        for (i, contact) in contacts.enumerated() {
            var seen = Set<DuplicateGroup.Reason>()
            for email in contact.emails {
                let address = email.value.trimmingCharacters(in: .whitespaces).lowercased()
                if address.contains("@"), seen.insert(.email(address)).inserted { link(.email(address), i) }
            }
            for _ in contact.phones {
                if let e164 = phones[nextPhone].e164, seen.insert(.phone(e164)).inserted { link(.phone(e164), i) }
                nextPhone += 1
            }
            let given = folding.fold(contact.givenName, memo: &memo)
            let family = folding.fold(contact.familyName, memo: &memo)
            let name =
                !given.isEmpty || !family.isEmpty
                ? given + " " + family : folding.fold(contact.formattedName, memo: &memo)
            let words = name.split(separator: " ").sorted()
            if words.count >= 2 { link(.name(words.joined(separator: " ")), i) }
            if !family.isEmpty {
                let nickname = folding.fold(contact.nickname, memo: &memo)
                if !nickname.isEmpty, nickname != given { nicknames[nickname + " " + family, default: []].append(i) }
                if !given.isEmpty { givens[given + " " + family, default: []].append(i) }
            }
        }
        // Links: each pair of contacts sharing a key, by its reason.
        var parent = Array(contacts.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        var edges: [(Int, Int, DuplicateGroup.Reason)] = []
        for (reason, members) in keys where members.count >= 2 && members.count <= maximumShare {
            for j in members.dropFirst() { edges.append((members[0], j, reason)) }
        }
        for (key, holders) in nicknames {
            guard let others = givens[key], holders.count + others.count <= maximumShare else { continue }
            for h in holders { for o in others where o != h { edges.append((h, o, .nickname(key))) } }
        }
        for (a, b, _) in edges { parent[root(a)] = root(b) }
        var reasons: [Int: Set<DuplicateGroup.Reason>] = [:]
        for (a, _, reason) in edges { reasons[root(a), default: []].insert(reason) }
        var members: [Int: [Int]] = [:]
        for i in contacts.indices where reasons[root(i)] != nil { members[root(i), default: []].append(i) }
        var groups: [(first: Int, group: DuplicateGroup)] = []
        for (r, indices) in members where indices.count >= 2 {
            let found = reasons[r]!.sorted { ($0.weight, $1.description) > ($1.weight, $0.description) }
            var missing = 1.0
            var kinds = Set<Double>()
            for reason in found where kinds.insert(reason.weight).inserted { missing *= 1 - reason.weight }
            let score = (1 - missing) * 100
            groups.append(
                (
                    indices[0],
                    DuplicateGroup(ids: indices.map { contacts[$0].id }, reasons: found, score: score.rounded() / 100)
                ))
        }
        return groups.sorted { ($0.group.score, -$0.first) > ($1.group.score, -$1.first) }.map(\.group)
    }
}
