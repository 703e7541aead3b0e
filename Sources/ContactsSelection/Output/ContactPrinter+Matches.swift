import ContactsCore
import Support

extension ContactPrinter {
    /// Writes `matches` (of the search for `query`) — `contacts query`'s answer for a mail client. Every
    /// field of a tab-separated line stays on one line (tabs and line breaks as spaces); `lines` writes each
    /// match as an RFC 5322 address, `ids` each contact's id once, `vcard` each contact's card once (read
    /// through `lookup`).
    ///
    /// ```swift
    /// let match = AddressMatch(id: "1", name: "Ann Lee", email: "ann@example.org", label: "", organization: "")
    /// var text = ""
    /// try ContactPrinter(.aerc).write(matches: [match], query: "ann", to: &text)   // "ann@example.org\tAnn Lee\n"
    /// ```
    public func write(
        matches: [AddressMatch], query: String, contacts lookup: ContactLookup = .unavailable,
        to out: inout some FormattedOutput
    ) throws {
        switch format {
        case .vcard:
            out.write(try ContactFormatter.vcards(Self.distinct(matches.map(\.id)), contacts: lookup))
        case .lines, .ids, .tsv, .json, .mutt, .aerc:
            out.write(self.matches(matches, query: query))
        }
    }

    /// `matches` as ``format`` writes them, with the final newline (`vcard`: nothing; it needs the cards).
    func matches(_ matches: [AddressMatch], query: String) -> String {
        let field = formatter.field
        var out = ""
        switch format {
        case .aerc:
            for m in matches { out += field(m.email) + "\t" + field(m.name) + "\n" }
        case .tsv:
            out += "email\tname\tlabel\torganization\tid\n"
            for m in matches {
                out += [m.email, m.name, m.label, m.organization, m.id].map(field).joined(separator: "\t") + "\n"
            }
        case .json:
            let items = matches.map { m in
                JSONValue.object([
                    JSONMember(key: "email", value: .string(m.email)), JSONMember(key: "id", value: .string(m.id)),
                    JSONMember(key: "label", value: .string(m.label)), JSONMember(key: "name", value: .string(m.name)),
                    JSONMember(key: "organization", value: .string(m.organization)),
                ])
            }
            out += JSONText.written(.array(items)) + "\n"
        case .mutt:
            out += "searching for '\(field(query))' ... \(matches.count) match\(matches.count == 1 ? "" : "es")\n"
            for m in matches {
                out +=
                    field(m.email) + "\t" + field(m.name) + "\t"
                    + field(m.organization.isEmpty ? m.label : m.organization) + "\n"
            }
        case .lines:
            for m in matches {
                out += ContactFormatter.mailbox(name: formatter.safe(m.name), address: formatter.safe(m.email)) + "\n"
            }
        case .ids:
            out += Self.distinct(matches.map(\.id)).joined(separator: ",") + "\n"
        case .vcard:
            break
        }
        return out
    }
}
