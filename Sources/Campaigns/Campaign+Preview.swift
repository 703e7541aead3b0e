import Composer
import ContactsSelection
import Foundation
import Templating

extension Campaign {
    /// The first `count` messages (nil: every one) of the campaign for the selected contacts, as `sending`
    /// would deliver them (its ``CampaignSending/limit`` and ``CampaignSending/testTo`` applied), each shown
    /// as a mail reader shows it: the written message read back (`MessagePreview`, Composer), after a line
    /// naming its envelope (Bcc recipients and a VERP sender are there only). Nothing is written or sent.
    ///
    /// ```swift
    /// let sending = CampaignSending(delivery: delivery)
    /// let (previews, failures) = campaign.previews(selection, library: library, sending: sending, count: 2)
    /// for text in previews { print(text) }
    /// ```
    public func previews(
        _ selection: SelectionController, library: TemplateLibrary, sending: CampaignSending, count: Int?
    ) -> (previews: [String], failures: [CampaignFailure]) {
        let (messages, notRendered) = compose(selection, library: library)
        var tokenFailure: [CampaignFailure] = []
        do { try saveTokens() } catch {
            tokenFailure = [CampaignFailure(contactID: "", displayName: "unsubscribe tokens", error: error)]
        }
        var chosen = sending.choose(messages, identity: nil).messages
        if let count { chosen = Array(chosen.prefix(count)) }
        var previews: [String] = []
        var failures = tokenFailure + notRendered
        let writer = MIMEWriter(maxMessageSize: sending.delivery.maxMessageSize)
        for (n, message) in chosen.enumerated() {
            let head = "══ message \(n + 1) of \(chosen.count)"
            if let text = message.message {
                previews.append(
                    "\(head): text message to \(text.recipients.joined(separator: ", ")) ══\n\(text.body)\n")
                continue
            }
            guard var draft = message.mail else { continue }
            draft.from = draft.from ?? sending.delivery.sender
            do {
                let bytes = try writer.write(draft)
                let sender = draft.envelopeSender ?? draft.from?.asciiAddress ?? ""
                let envelope = "envelope: \(sender) → \(draft.envelopeRecipients.joined(separator: ", "))"
                previews.append("\(head) ══\n\(envelope)\n" + MessagePreview(bytes).text)
            } catch {
                failures.append(
                    CampaignFailure(contactID: message.contactID, displayName: message.displayName, error: error))
            }
        }
        return (previews, failures)
    }
}
