import ContactsCore
import Foundation
import Support

extension DuplicateFinder {
    /// `groups` as `contacts duplicates` prints them. Text: per group a line `SCORE<TAB>REASON; REASON…`,
    /// then `<TAB>ID<TAB>NAME` per contact, and an empty line; JSON: `[{"score", "reasons": [String],
    /// "contacts": [{"id", "name"}]}]`. Tabs and line breaks in names become spaces.
    ///
    /// ```swift
    /// let book = try AddressBook.sample()
    /// print(DuplicateFinder.report(try DuplicateFinder.groups(in: book.contacts, region: nil), contacts: book.contacts, json: false))
    /// ```
    public static func report(_ groups: [DuplicateGroup], contacts: [Contact], json: Bool) -> String {
        var names: [String: String] = [:]
        for contact in contacts where names[contact.id] == nil {
            names[contact.id] = String(contact.displayName.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        }
        func score(_ s: Double) -> String { String(format: "%.2f", s) }
        guard json else {
            var out = ""
            for group in groups {
                out += score(group.score) + "\t" + group.reasons.map(\.description).joined(separator: "; ") + "\n"
                for id in group.ids { out += "\t\(id)\t\(names[id] ?? "")\n" }
                out += "\n"
            }
            return out
        }
        let value = JSONValue.array(
            groups.map { group in
                .object([
                    JSONMember(
                        key: "contacts",
                        value: .array(
                            group.ids.map { id in
                                .object([
                                    JSONMember(key: "id", value: .string(id)),
                                    JSONMember(key: "name", value: .string(names[id] ?? "")),
                                ])
                            })),
                    JSONMember(key: "reasons", value: .array(group.reasons.map { .string($0.description) })),
                    JSONMember(key: "score", value: .number(score(group.score))),
                ])
            })
        return JSONText.written(value) + "\n"
    }
}
