import ContactsCore
import Support

extension ContactPrinter {
    /// Writes the rows of `result` in `listing`, in list order, as a selection of them would be written
    /// (``write(selection:contacts:to:)``: the same bytes for the same contacts), streamed in blocks the
    /// output may make on all cores: `list --format` and `search --format`. A row's channel is email when
    /// its value is an address (has an `@`), else messages. `vcard` writes each contact's card once, read
    /// through `lookup`; `mutt` and `aerc` name `query` as the search.
    ///
    /// ```swift
    /// func printTSV(_ list: ContactsDataSource, to out: inout some FormattedOutput) throws {
    ///     try ContactPrinter(.tsv).write(list, list.search("ann"), contacts: .dataSource(list), to: &out)
    /// }
    /// ```
    public func write(
        _ listing: any ContactListing, _ result: SearchResult, contacts lookup: ContactLookup, query: String = "",
        to out: inout some FormattedOutput
    ) throws {
        let rowNumbers = result.rowNumbers
        let count = rowNumbers.count
        @Sendable func contact(_ position: Int) -> FormattedContact {
            let row = listing.listedRow(Int(rowNumbers[position]))
            return FormattedContact(
                id: row.id, name: row.displayName, value: row.value,
                channel: row.value.contains("@") ? .email : .message)
        }
        switch format {
        case .lines:
            out.formatInParallel(0..<count) { position, bytes in bytes += self.line(contact(position)).utf8 }
        case .tsv:
            out.formatInParallel(0..<count) { position, bytes in bytes += self.tsvLine(contact(position)).utf8 }
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
        case .vcard:
            let ids = Self.distinct(rowNumbers.lazy.map { listing.listedRow(Int($0)).id })
            out.write(try ContactFormatter.vcards(ids, contacts: lookup))
        case .mutt, .aerc:
            out.write(matches((0..<count).map { Self.match(contact($0)) }, query: query))
        }
    }
}
