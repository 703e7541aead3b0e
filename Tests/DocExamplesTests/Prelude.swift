import Campaigns
import Collation
import Composer
import ContactsCore
import ContactsSelection
import Foundation
import StringsCatalog
import Templating

// The nouns the documentation's examples use without declaring them, as they would exist in a reader's
// program. Examples are compiled against these, never run.

/// An address book (`AddressBook(contentsOf:)`).
nonisolated(unsafe) let book = try! AddressBook.sample()
/// One of its contacts.
nonisolated(unsafe) let contact = book.contacts[0]
/// A file the example reads or writes.
let url = URL(fileURLWithPath: "contacts.vcf")
/// Raw file contents.
let data = Data()
let bytes: [UInt8] = []
/// A folder for drafts.
let drafts = URL(fileURLWithPath: "drafts", isDirectory: true)
/// The bundled strings catalog.
nonisolated(unsafe) let catalog = try! Catalog.bundled()
/// The bundled templates.
nonisolated(unsafe) let library = try! TemplateLibrary.bundled(catalog: catalog)
/// A template and its data.
nonisolated(unsafe) let template = try! MustacheTemplate("Hello {{name}}")
nonisolated(unsafe) let context: MustacheValue = ["name": "Ada"]
/// A mail draft.
nonisolated(unsafe) let draft = MailDraft(subject: "Hello", textBody: "Hi!")
/// A selection over the address book.
nonisolated(unsafe) let selection = try! SelectionController(contacts: book.contacts)
nonisolated(unsafe) let source = selection.dataSource!
/// One card read from a vCard file.
nonisolated(unsafe) let record = VCardRecord.contact(contact)
/// An outbox and an SMTP server to send it through.
nonisolated(unsafe) let outbox = try! Outbox(directory: URL(fileURLWithPath: "outbox", isDirectory: true))
nonisolated(unsafe) let smtp = try! SMTPTransport(configuration: SMTPConfiguration(url: "smtp://mail.example.com"))
/// A campaign: one template rendered for every selected contact.
nonisolated(unsafe) var campaign = Campaign(template: "invite")
/// A folder the example works in.
let folder = URL(fileURLWithPath: ".", isDirectory: true)
/// A delivery through SMTP and a batch of drafts for it.
let delivery = Delivery(target: .smtp(try! SMTPConfiguration(url: "smtp://mail.example.com")))
nonisolated(unsafe) let batch = DeliveryBatch(mail: [DeliveryItem(label: "ada", draft: draft)])
