import ContactsSelection

/// A contact the user picked: its id, the name the list shows, and the phone number or email address it is
/// reached at (the one the user chose, else the row's default).
public struct PickedContact: Sendable, Hashable {
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

/// What the picker ended with.
public enum PickerOutcome: Sendable, Hashable {
    /// Select: the chosen contacts in list order (the row under the cursor when none was toggled).
    case selected([PickedContact])
    /// Enter on a pinned row: its id.
    case pinned(id: String)
    /// Cancel (Esc, Ctrl-C, the Cancel button).
    case cancelled
}
