import ContactsCore
import Support

extension ContactFormatter {
    /// The rows of `result` in `listing`, in list order, as `format` writes a selection
    /// (``selection(_:as:)``: the same bytes for the same contacts), streamed in blocks the output may make
    /// on all cores: `list --format` and `search --format`. A row's channel is email when its value is an
    /// address (has an `@`), else messages.
    ///
    /// ```swift
    /// func printTSV(_ list: ContactsDataSource, to out: inout some FormattedOutput) {
    ///     ContactFormatter().writeRows(list, list.search("ann"), as: .tsv, to: &out)
    /// }
    /// ```
    public func writeRows(
        _ listing: any ContactListing, _ result: SearchResult, as format: SelectionFormat,
        to out: inout some FormattedOutput
    ) {
        let rowNumbers = result.rowNumbers
        let count = rowNumbers.count
        @Sendable func contact(_ position: Int) -> FormattedContact {
            let row = listing.listedRow(Int(rowNumbers[position]))
            return FormattedContact(
                id: row.id, name: row.displayName, value: row.value,
                channel: row.value.contains("@") ? .email : .message)
        }
        switch format {
        case .lines, .tsv:
            out.formatInParallel(0..<count) { position, bytes in
                bytes += self.selection([contact(position)], as: format).utf8
            }
        case .ids:
            guard count > 0 else { return out.write("\n") }
            out.formatInParallel(0..<count) { position, bytes in
                bytes += contact(position).id.utf8
                bytes += (position == count - 1 ? "\n" : ",").utf8
            }
        case .json:
            guard count > 0 else { return out.write("[\n\n]\n") }
            out.write("[\n")
            out.formatInParallel(0..<count) { position, bytes in
                // Spelled as `JSONText.written` spells the array, item by item.
                let text = JSONText.written(Self.json(contact(position)), indent: 2)
                bytes += "  ".utf8
                bytes += text.utf8
                bytes += (position == count - 1 ? "\n" : ",\n").utf8
            }
            out.write("]\n")
        }
    }

    /// One contact of a selection in JSON: `{"channel", "id", "name", "value"}`.
    static func json(_ c: FormattedContact) -> JSONValue {
        JSONValue.object([
            JSONMember(key: "channel", value: .string(c.channel.rawValue)),
            JSONMember(key: "id", value: .string(c.id)), JSONMember(key: "name", value: .string(c.name)),
            JSONMember(key: "value", value: .string(c.value)),
        ])
    }

    /// The cards of `ids` (in that order) as vCard 3.0 text, looked up through `contacts`: `--output vcard`
    /// and `--format vcard`. Throws ``SelectionError/contactNotFound(id:)`` for an id the lookup lacks.
    public static func vcards(_ ids: [String], contacts: ContactLookup) throws -> String {
        let cards = try contacts.contacts(ids: ids)
        var out = ""
        for id in ids {
            guard let card = cards[id] else { throw SelectionError.contactNotFound(id: id) }
            out += VCardWriter.string(for: card)
        }
        return out
    }
}
