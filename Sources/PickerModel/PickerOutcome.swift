import ContactsSelection

/// What the picker ended with.
public enum PickerOutcome: Sendable, Hashable {
    /// Select: the chosen contacts in the order they were selected (the row under the cursor when none was
    /// toggled), each with its id, the name the list shows, and the phone number or email address it is
    /// reached at (the one the user chose, else the row's default) — what `ContactFormatter` prints.
    case selected([FormattedContact])
    /// Enter on a pinned row: its id.
    case pinned(id: String)
    /// Cancel (Esc, Ctrl-C, the Cancel button).
    case cancelled
}

extension SelectionController {
    /// Selects the picked contacts by id, each reached at the value it was picked with (the phone or
    /// email chosen in the picker): how a selection of the whole book is made from what a picker over
    /// another listing returned, for composing.
    /// - Throws: `SelectionError` when an id is not in this selection's list or its value is not the contact's.
    public func select(_ picked: [FormattedContact]) throws {
        for contact in picked {
            try select(id: contact.id)
            guard value(for: contact.id)?.value != contact.value else { continue }
            var found = false
            for candidate in try availableValues(id: contact.id) where !found {
                try choose(value: candidate.value, for: contact.id)
                found = value(for: contact.id)?.value == contact.value
            }
            if !found { throw SelectionError.invalidValue(id: contact.id, value: contact.value) }
        }
    }
}
