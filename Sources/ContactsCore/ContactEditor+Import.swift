import Foundation
import Locales
import Support

extension ContactEditor {
    /// Adds `contacts` as new cards, each with a new UID (their own `id`s are not used), and returns the
    /// new ids in order: appended to a vCard file in one atomic write (in the file's version and line
    /// ending; a missing file is created), or one new `<UID>.vcf` per contact in a vdir, created with
    /// `O_EXCL` semantics so that an existing card is never overwritten. Cards are written by
    /// ``VCardWriter``. A contact without a name or an e-mail address is refused before anything is
    /// written.
    ///
    /// ```swift
    /// var ada = Contact(id: "")
    /// ada.givenName = "Ada"
    /// ada.emails = [LabeledValue(label: .unlabeled, value: "ada@example.org")]
    /// let ids = try ContactEditor(source: .file("book.vcf")).add(contacts: [ada])
    /// ```
    public func add(contacts: [Contact]) throws -> [String] {
        var fresh: [Contact] = []
        for (i, original) in contacts.enumerated() {
            var contact = original
            contact.id = UUID().uuidString.lowercased()
            if NameOrder.trimmed(contact.formattedName).isEmpty {
                contact.formattedName = NameOrder.format(
                    PersonName(given: contact.givenName, family: contact.familyName))
            }
            if NameOrder.trimmed(contact.formattedName).isEmpty {
                contact.formattedName = contact.emails.first?.value ?? ""
            }
            guard !NameOrder.trimmed(contact.formattedName).isEmpty else {
                throw ContactsCoreError.invalidEdit(
                    field: "contact \(i + 1)", message: "a new contact needs a name or an e-mail address")
            }
            fresh.append(contact)
        }
        switch source {
        case .vdir(let folder):
            for contact in fresh {
                let card = Array(VCardWriter.string(for: contact, version: .v3).utf8)
                try write { try AtomicFiles.create(folder + "/" + Self.fileName(for: contact.id), with: card) }
            }
        case .file(let path):
            let file = try Self.load(path, missingIsEmpty: true)
            var cards: [UInt8] = []
            for contact in fresh { cards += Array(VCardWriter.string(for: contact, version: file.version).utf8) }
            if file.newline == [0x0A] { cards.removeAll { $0 == 0x0D } }
            try write { try AtomicFiles.replace(path, with: file.appending(cards)) }
        case .standardInput:
            break
        }
        return fresh.map(\.id)
    }
}
