import ContactsCore
import Foundation
import Templating

extension Campaign {
    /// Uses the rows of a recipient sheet read from `file` as the campaign's recipients on their own, as
    /// mail-merge users start (no address book): one recipient per address, in the sheet's order. Each
    /// row's language (`lang`) is the language its message is rendered in (words, plural rules, dates,
    /// `Content-Language`); its `from`, `cc`, `bcc`, `reply_to` and `attachments` columns are that
    /// message's (attachments found in the sheet's folder or ``attachmentFolders``); every column is a
    /// template variable under its header's name.
    ///
    /// A repeated address is mailed once, from its first row (``RecipientList/diagnostics`` names the
    /// others); rows the list skipped are not here.
    ///
    /// ```swift
    /// let list = try RecipientList(data: Data("email,lang,table\nada@example.org,de,7\n".utf8), fileName: "people.csv")
    /// var campaign = Campaign(template: "invite")
    /// let contacts = campaign.useSheet(list, from: "people.csv")   // select these (their ids) in order
    /// ```
    /// - Returns: the contacts to select, one per address (the id is the lowercased address).
    public mutating func useSheet(_ list: RecipientList, from file: String) -> [Contact] {
        var contacts: [Contact] = []
        var seen = Set<String>()
        recipientData = [:]
        recipientOrigins = [:]
        sheetRows = [:]
        for (row, made) in zip(list.rows, list.contacts()) {
            let id = row.to.address.lowercased()
            guard seen.insert(id).inserted else { continue }
            var contact = made
            contact.id = id
            contacts.append(contact)
            recipientData[id] = row.variables.mapValues(MustacheValue.string)
            recipientOrigins[id] = "\(file):\(row.line)"
            sheetRows[id] = row
        }
        attachmentsDirectory = URL(fileURLWithPath: file).deletingLastPathComponent()
        return contacts
    }
}
