import Campaigns
import Collation
import ContactsCore
import ContactsSelection
import StringsCatalog
import Templating

// The package's resources (sample address book, localizations, templates) must be found when it is a
// dependency, not only when it is the root package.
let book = try AddressBook.sample()
let selection = try SelectionController(contacts: book.contacts) {
    $0.mode = .email
    $0.locale = "sv"
    $0.searchByKeywords = true
}
let found = selection.search("f b")
print("contacts: \(book.contacts.count), found: \(found.count), title: \(selection.title)")
print("select (de): \(Strings.select(locale: "de"))")
print(
    "sections (sv): \(try LocalizedCollation(locale: "sv").sections(["Örjan", "Anna", "Zoe"]).map(\.title).joined(separator: " "))"
)
print("alert (de): \(ComposeAlert.cannotSend(mail: true, locale: "de").message)")
print("templates: \(try TemplateLibrary.bundled().names.joined(separator: ", "))")
