/// How the picker looks and behaves beyond the list's own configuration (the presentation
/// properties of KBContactsSelection, the iOS contact picker this package re-creates, and the single pick of
/// ETPeoplePicker, an iOS one-contact picker).
public struct PickerOptions: Sendable {
    /// The title bar's title; nil: the configuration's title, else the localized "Search contacts".
    public var title: String?
    /// A line under the title bar, kept while searching (KB's additionalInfoView).
    public var info: String?
    /// The select button's title; nil: the localized "Select".
    public var selectTitle: String?
    /// Whether the title bar (Cancel, title, Select (n)) is shown.
    public var showsTitleBar = true
    /// One contact, picked with Enter (no toggling, no marks).
    public var single = false
    /// Whether the last line shows the key hints ("? Help  Tab Mark  Enter Select  Esc Cancel"); the
    /// `contacts pick` command shows them unless `--no-hints`.
    public var showsHints = false
    /// Start in fuzzy search (Ctrl-F toggles it).
    public var fuzzy = false
    /// The search text the picker opens with.
    public var query = ""
    /// The language of the literals and the direction of the layout (ar and he mirror it).
    public var locale: String

    public init(locale: String) { self.locale = locale }
}
