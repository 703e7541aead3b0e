import ContactsCore
import Support

/// A contact as a command prints it: its id, the name shown, and the phone number or email address it is
/// reached at (a picked contact, a listed row).
public struct FormattedContact: Sendable, Hashable {
    public var id: String
    public var name: String
    public var value: String
    public var channel: Channel

    public init(id: String, name: String, value: String, channel: Channel) {
        self.id = id
        self.name = name
        self.value = value
        self.channel = channel
    }
}

/// Where ``ContactFormatter`` writes: text in order, and runs of rows a sink may format in blocks on
/// several cores (each block's bytes appended in order).
public protocol FormattedOutput {
    /// Appends `text`.
    mutating func write(_ text: String)
    /// Appends what `format(i, &bytes)` appends for every i of `positions`, in order.
    mutating func formatInParallel(_ positions: Range<Int>, _ format: @Sendable (Int, inout [UInt8]) -> Void)
}

/// The one formatter of contacts for `list`, `search`, `query` and `pick`: a listing (text or JSON), a
/// selection (lines of RFC 5322 addresses, JSON, ids), a pinned row, and address matches in a mail
/// client's format. Human text passes through ``safe`` (the caller's rule for text shown on a terminal);
/// JSON is exact, written by the package's one JSON writer.
///
/// ```swift
/// let formatter = ContactFormatter()
/// formatter.selection(
///     [FormattedContact(id: "js", name: "Smith, John", value: "john@example.org", channel: .email)],
///     as: .lines)   // "\"Smith, John\" <john@example.org>\n"
/// ```
public struct ContactFormatter: Sendable {
    /// How a selection is written (`pick --output`; `vcard` is written from the cards by the caller).
    public enum SelectionFormat: String, Sendable, CaseIterable {
        /// One line a contact: an RFC 5322 address, `"Smith, John" <john@example.org>` (a number in the
        /// same form).
        case lines
        /// `[{"channel", "id", "name", "value"}]`; a pinned row as `[{"pin"}]`.
        case json
        /// The ids joined by `,` on one line (for `compose --ids`).
        case ids
        /// One line a contact, no header: `name<TAB>value<TAB>id` (tabs and line breaks in a field as
        /// spaces), for `fzf` and `cut`.
        case tsv
    }

    /// How address matches are written (`query --format`).
    public enum MatchFormat: String, Sendable, CaseIterable {
        /// mutt's `query_command`: a first line of text, then `address<TAB>name<TAB>organization or label`.
        case mutt
        /// aerc's `address-book-cmd`: `email<TAB>name`, no header line.
        case aerc
        /// A header line, then `email<TAB>name<TAB>label<TAB>organization<TAB>id`.
        case tsv
        /// `[{"email", "id", "label", "name", "organization"}]`.
        case json
    }

    /// What text meant for people passes through (the CLI's `terminalSafe`); JSON never does.
    public var safe: @Sendable (String) -> String

    public init(safe: @escaping @Sendable (String) -> String = { $0 }) { self.safe = safe }

    // MARK: - Addresses

    /// `name` and `address` as an RFC 5322 mailbox on one line: the name as it is when it is words of atext
    /// (UTF-8 allowed, RFC 6532), else a quoted-string with `"` and `\` escaped — a comma, a dot, `=?`
    /// (never read as an encoded-word) or any other special quotes it; line breaks and tabs become spaces.
    /// No name (or the address itself as the name, an unnamed contact) gives the bare address.
    ///
    /// ```swift
    /// ContactFormatter.mailbox(name: "Smith, John", address: "john@example.org")
    /// // "\"Smith, John\" <john@example.org>"
    /// ContactFormatter.mailbox(name: "Zoë Ünal", address: "zoe@example.org")   // "Zoë Ünal <zoe@example.org>"
    /// ```
    public static func mailbox(name: String, address: String) -> String {
        let phrase = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\t" ? " " : $0 }
            )
        ).split(separator: " ").joined(separator: " ")
        if phrase.isEmpty || phrase == address { return address }
        return quotedPhrase(phrase) + " <" + address + ">"
    }

    /// A display name as an RFC 5322 phrase: atoms separated by single spaces as they are, anything else
    /// quoted.
    static func quotedPhrase(_ phrase: String) -> String {
        // RFC 5322 specials and ASCII controls are not atext (UTF-8 is, by RFC 6532).
        let needsQuotes =
            phrase.contains("=?")
            || phrase.utf8.contains { b in b < 0x20 || b == 0x7F || #"()<>[]:;@\,.""#.utf8.contains(b) }
        guard needsQuotes else { return phrase }
        var out = "\""
        for c in phrase.unicodeScalars {
            if c == "\"" || c == "\\" { out += "\\" }
            out.unicodeScalars.append(c)
        }
        return out + "\""
    }

    // MARK: - A selection

    /// `contacts` (in the order given: the order they were selected) as `format` writes them, with the
    /// final newline.
    public func selection(_ contacts: [FormattedContact], as format: SelectionFormat) -> String {
        switch format {
        case .lines:
            return contacts.map { Self.mailbox(name: safe($0.name), address: safe($0.value)) + "\n" }.joined()
        case .ids:
            return contacts.map(\.id).joined(separator: ",") + "\n"
        case .tsv:
            return contacts.map { field($0.name) + "\t" + field($0.value) + "\t" + field($0.id) + "\n" }.joined()
        case .json:
            return JSONText.written(.array(contacts.map(Self.json))) + "\n"
        }
    }

    /// A pinned row chosen instead of contacts: `[{"pin": ID}]` in JSON, else its id on a line.
    public func pinned(_ id: String, as format: SelectionFormat) -> String {
        switch format {
        case .json: return JSONText.written(.array([.object([JSONMember(key: "pin", value: .string(id))])])) + "\n"
        case .lines, .ids, .tsv: return safe(id) + "\n"
        }
    }

    // MARK: - Address matches

    /// `matches` (of the search for `query`) as `format` writes them, with the final newline; every field
    /// of a tab-separated line on one line (tabs and line breaks as spaces).
    public func matches(_ matches: [AddressMatch], query: String, as format: MatchFormat) -> String {
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
        }
        return out
    }

    /// One field of a tab-separated line: tabs and line breaks as spaces, then ``safe``.
    func field(_ text: String) -> String {
        // Most fields have no tab or line break: no new string then.
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return safe(text) }
        return safe(
            String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\t" ? " " : $0 })))
    }

    // MARK: - A listing

    /// The rows of `result` in `listing` as `list` and `search` print them: the index line, each section's
    /// title and rows (`  Name  <value>`, `(disabled)` after a disabled one) and the count; with `json`,
    /// `{"index": [String], "sections": [{"items": [{"enabled", "id", "name", "value"}], "title"}]}`,
    /// each item also naming its `"source"` (and `"sourceName"`) when `sources` says where rows came from.
    /// Rows are formatted in blocks the output may make on all cores, so a million rows never sit in memory
    /// as one document.
    public func writeListing(
        _ listing: any ContactListing, _ result: SearchResult, json: Bool, sources: SourcedAddressBook? = nil,
        to out: inout some FormattedOutput
    ) {
        let rowNumbers = result.rowNumbers
        guard json else {
            let safe = self.safe
            out.write("Index: " + listing.indexTitles.joined(separator: " ") + "\n")
            for section in result.sections {
                out.write("\n" + section.title + "\n")
                out.formatInParallel(section.range) { position, bytes in
                    let row = listing.listedRow(Int(rowNumbers[position]))
                    bytes += "  ".utf8
                    bytes += safe(row.displayName).utf8
                    bytes += "  <".utf8
                    bytes += safe(row.value).utf8
                    bytes += (row.enabled ? ">\n" : ">  (disabled)\n").utf8
                }
            }
            out.write("\n\(result.count) contact\(result.count == 1 ? "" : "s")\n")
            return
        }
        out.write("{\n  \"index\" : [\n")
        out.write(listing.indexTitles.map { "    " + JSONText.quoted($0) }.joined(separator: ",\n"))
        out.write("\n  ],\n  \"sections\" : [")
        out.write(result.sections.isEmpty ? "\n\n" : "\n")
        for (s, section) in result.sections.enumerated() {
            out.write("    {\n      \"items\" : [\n")
            let last = section.range.upperBound - 1
            out.formatInParallel(section.range) { position, bytes in
                let row = listing.listedRow(Int(rowNumbers[position]))
                // Spelled as `JSONText.written` spells the object, byte by byte (a million rows).
                bytes += "        {\n          \"enabled\" : \(row.enabled),\n          \"id\" : ".utf8
                bytes += JSONText.quoted(row.id).utf8
                bytes += ",\n          \"name\" : ".utf8
                bytes += JSONText.quoted(row.displayName).utf8
                if let origin = sources?.source(of: row.id) {
                    bytes += ",\n          \"source\" : ".utf8
                    bytes += JSONText.quoted(origin.description).utf8
                    if let name = sources?.displayName(of: row.id) {
                        bytes += ",\n          \"sourceName\" : ".utf8
                        bytes += JSONText.quoted(name).utf8
                    }
                }
                bytes += ",\n          \"value\" : ".utf8
                bytes += JSONText.quoted(row.value).utf8
                bytes += "\n        }".utf8
                bytes += (position == last ? "\n" : ",\n").utf8
            }
            out.write("      ],\n      \"title\" : \(JSONText.quoted(section.title))\n    }")
            out.write(s == result.sections.count - 1 ? "\n" : ",\n")
        }
        out.write("  ]\n}\n")
    }
}
