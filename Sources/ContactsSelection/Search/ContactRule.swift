import ContactsCore
import Foundation

/// Which contacts a list shows enabled (``Configuration/contactEnabledValidation``), written as text:
/// terms joined by `,` (every one must hold), each `has:FIELD` (photo, email, phone, birthday, nickname,
/// org), `group:NAME` (a member of the book's group of that name, as `--group` and ``GroupFilter`` find
/// it) or `lang:TAG` (a language of the contact, `de` matching `de-CH` too), `!` before a term negating it.
/// A rule is resolved against its book (``resolved(in:)``): a group the book does not have is an error.
///
/// ```swift
/// let rule = try ContactRule("has:photo,!group:Work").resolved(in: book)
/// var config = Configuration()
/// config.contactEnabledValidation = rule.validation
/// ```
public struct ContactRule: Sendable {
    /// One condition on a contact.
    public enum Term: Sendable, Hashable {
        case has(Field)
        case group(String)
        case language(String)
    }

    /// The fields `has:` tests.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case photo, email, phone, birthday, nickname, org
    }

    /// Why a rule could not be read: the column (1-based) of the term and what was expected there.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var column: Int
        public var message: String
        public var description: String { "column \(column): \(message)" }
    }

    /// The terms (each with whether it is negated), all of which must hold.
    public let terms: [(negated: Bool, term: Term)]
    /// The members of each `group:` term's group (by the name as written), once ``resolved(in:)``; an
    /// unresolved rule matches a group by the contact's categories alone.
    private var members: [String: Set<String>] = [:]

    /// Reads `text`; throws ``ParseError`` naming the column of the first term it cannot read.
    public init(_ text: String) throws {
        var terms: [(Bool, Term)] = []
        var column = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { column += part.count + 1 }
            var word = Substring(part)
            let negated = word.hasPrefix("!")
            if negated { word = word.dropFirst() }
            guard let colon = word.firstIndex(of: ":") else {
                throw ParseError(
                    column: column, message: "expected has:FIELD, group:NAME or lang:TAG, got '\(part)'")
            }
            let kind = word[..<colon]
            let value = String(word[word.index(after: colon)...])
            switch kind {
            case "has":
                guard let field = Field(rawValue: value) else {
                    throw ParseError(
                        column: column,
                        message:
                            "has: expected \(Field.allCases.map(\.rawValue).joined(separator: ", ")), got '\(value)'")
                }
                terms.append((negated, .has(field)))
            case "group", "lang":
                guard !value.isEmpty else {
                    throw ParseError(column: column, message: "\(kind): expected a name after the colon")
                }
                terms.append((negated, kind == "group" ? .group(value) : .language(value)))
            default:
                throw ParseError(
                    column: column, message: "expected has:FIELD, group:NAME or lang:TAG, got '\(part)'")
            }
        }
        self.terms = terms
    }

    /// This rule with each `group:NAME` term bound to the members of `book`'s group NAME (a group card or a
    /// category, any case: the groups ``GroupFilter`` finds).
    /// - Throws: ``GroupError/unknownGroup(name:known:)`` for a group the book does not have.
    public func resolved(in book: AddressBook) throws(GroupError) -> ContactRule {
        var rule = self
        for (_, term) in terms {
            guard case .group(let name) = term, rule.members[name] == nil else { continue }
            rule.members[name] = try GroupFilter(name: name, in: book).memberIDs
        }
        return rule
    }

    /// Whether `contact` passes every term.
    public func accepts(_ contact: Contact) -> Bool {
        terms.allSatisfy { negated, term in
            let holds: Bool
            if case .group(let name) = term, let ids = members[name] {
                holds = ids.contains(contact.id)
            } else {
                holds = Self.holds(term, contact)
            }
            return holds != negated
        }
    }

    /// The rule as ``Configuration/contactEnabledValidation``.
    public var validation: @Sendable (Contact) -> Bool {
        let rule = self
        return { rule.accepts($0) }
    }

    static func holds(_ term: Term, _ contact: Contact) -> Bool {
        switch term {
        case .has(.photo): return contact.photo != nil
        case .has(.email): return !contact.emails.isEmpty
        case .has(.phone): return !contact.phones.isEmpty
        case .has(.birthday): return contact.birthday != nil
        case .has(.nickname): return !contact.nickname.isEmpty
        case .has(.org): return !contact.organization.isEmpty
        case .group(let name):
            return contact.categories.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
        case .language(let tag):
            let wanted = tag.lowercased().replacingOccurrences(of: "_", with: "-")
            return contact.languages.contains { language in
                let have = language.lowercased().replacingOccurrences(of: "_", with: "-")
                return have == wanted || have.hasPrefix(wanted + "-")
            }
        }
    }
}
