import ContactsCore
import ContactsSelection
import Foundation

extension SelectionController {
    /// Selects the recipients of a campaign as `compose` asks for them: every contact `query` finds, else
    /// the comma-separated contact ids of `ids` (``selectRecipients(ids:from:)``), else every contact of
    /// `contacts` (a group's members, ``selectRecipients(members:)``). Returns the contacts asked for that
    /// cannot be reached, each named.
    ///
    /// ```swift
    /// let leftOut = selection.selectRecipients(query: nil, ids: "ada, noah", from: book.contacts)
    /// ```
    public func selectRecipients(query: String?, ids: String?, from contacts: [Contact]) -> [CampaignFailure] {
        if let query {
            search(query)
            selectAll()
            return []
        }
        guard let ids else { return selectRecipients(members: contacts) }
        let list = ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return selectRecipients(ids: list, from: contacts)
    }

    /// Selects the contacts `ids` names as the recipients of a campaign, and returns one failure for each
    /// that cannot be selected, naming it: a contact of `contacts` with no value for the mode (no email
    /// address in email mode: ``CampaignError/noAddress(mode:)``), an id no contact has
    /// (``CampaignError/unknownContact(id:)``), or one the selection refuses. Nothing asked for is dropped
    /// without a word: the failures are reported and counted like recipients that could not be rendered.
    ///
    /// ```swift
    /// let leftOut = selection.selectRecipients(ids: ["ada", "noah"], from: book.contacts)
    /// for failure in leftOut { print(failure) }   // "Noah White (noah): no email address: not sent"
    /// ```
    public func selectRecipients(ids: [String], from contacts: [Contact]) -> [CampaignFailure] {
        var failures: [CampaignFailure] = []
        var byID: [String: Contact]?
        for id in ids {
            do { try select(id: id) } catch {
                if byID == nil { byID = Dictionary(contacts.map { ($0.id, $0) }) { first, _ in first } }
                failures.append(failure(id: id, contact: byID?[id], error: error))
            }
        }
        return failures
    }

    /// Selects every contact of `members` (a group's) that the list holds, and returns one failure for
    /// each member it cannot reach in its mode (``CampaignError/noAddress(mode:)``), naming it.
    public func selectRecipients(members: [Contact]) -> [CampaignFailure] {
        selectAll()
        var failures: [CampaignFailure] = []
        for contact in members where !isSelected(id: contact.id) {
            do { try select(id: contact.id) } catch {
                // (A member the list holds under another row, e.g. a duplicate, is reached there.)
                let failure = failure(id: contact.id, contact: contact, error: error)
                if case CampaignError.noAddress = failure.error { failures.append(failure) }
            }
        }
        return failures
    }

    private func failure(id: String, contact: Contact?, error: any Error) -> CampaignFailure {
        guard let contact else {
            return CampaignFailure(contactID: id, displayName: id, error: CampaignError.unknownContact(id: id))
        }
        let mode = configuration.mode
        let reachable =
            (mode.contains(.email) && !contact.emails.isEmpty) || (mode.contains(.messages) && !contact.phones.isEmpty)
        let name = contact.displayName.isEmpty ? id : contact.displayName
        return CampaignFailure(
            contactID: id, displayName: name, error: reachable ? error : CampaignError.noAddress(mode: mode))
    }
}
