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

/// How contacts are spelled for `list`, `search`, `query` and `pick`: a sectioned listing (text or JSON),
/// RFC 5322 addresses and tab-separated fields; ``ContactPrinter`` writes them in each output format.
/// Human text passes through ``safe`` (the caller's rule for text shown on a terminal); JSON is exact,
/// written by the package's one JSON writer.
///
/// ```swift
/// ContactFormatter.mailbox(name: "Smith, John", address: "john@example.org")
/// // "\"Smith, John\" <john@example.org>"
/// ```
public struct ContactFormatter: Sendable {
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

    /// One field of a tab-separated line: tabs and line breaks as spaces, then ``safe``.
    func field(_ text: String) -> String {
        // Most fields have no tab or line break: no new string then.
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return safe(text) }
        return safe(
            String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\t" ? " " : $0 })))
    }

    /// The cards of `ids` (in that order) as vCard 3.0 text, looked up through `contacts`. Throws
    /// ``SelectionError/contactNotFound(id:)`` for an id the lookup lacks.
    static func vcards(_ ids: [String], contacts: ContactLookup) throws -> String {
        let cards = try contacts.contacts(ids: ids)
        var out = ""
        for id in ids {
            guard let card = cards[id] else { throw SelectionError.contactNotFound(id: id) }
            out += VCardWriter.string(for: card)
        }
        return out
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
