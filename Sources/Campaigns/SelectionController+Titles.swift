import ContactsSelection
import StringsCatalog

// The list model takes no UI literals of its own (it does not know the strings catalog): the titles a
// front end shows for a selection are the configured ones, else the catalog's words in the list's locale.
extension SelectionController {
    /// The configured title, else the localized "Search contacts".
    public var title: String { configuration.title ?? Strings.searchContacts(locale: configuration.locale) }
    /// The configured button title, else the localized "Select".
    public var selectButtonTitle: String {
        configuration.selectButtonTitle ?? Strings.select(locale: configuration.locale)
    }
}
