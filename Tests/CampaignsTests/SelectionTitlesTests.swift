import Campaigns
import ContactsSelection
import SelectionFixtures
import Testing

/// The titles a front end shows for a selection: the configured ones, else the catalog's words in the list's
/// locale (KBContactsSelection's `title` and `selectButtonTitle`).
@Suite struct SelectionTitlesTests {
    @Test func configuredTitlesElseTheCatalogsWordsInTheListsLocale() throws {
        let s = try SelectionController(contacts: book) { $0.locale = "en" }
        #expect(s.title == "Search contacts")
        #expect(s.selectButtonTitle == "Select")
        let de = try SelectionController(contacts: book) { $0.locale = "de" }
        #expect(de.selectButtonTitle == "Auswählen")
        #expect(de.title != "Search contacts" && !de.title.isEmpty)
        let custom = try SelectionController(contacts: book) {
            $0.title = "Invite"
            $0.selectButtonTitle = "Go"
        }
        #expect(custom.title == "Invite" && custom.selectButtonTitle == "Go")
    }
}
