import ContactsCore
import ContactsSelection
import PickerModel

/// A contact for the picker's tests.
func contact(_ id: String, _ given: String, _ family: String, phones: [String] = [], emails: [String] = []) -> Contact {
    var c = Contact(id: id)
    c.givenName = given
    c.familyName = family
    c.phones = phones.map { LabeledValue(label: .mobile, value: $0) }
    c.emails = emails.map { LabeledValue(label: .home, value: $0) }
    return c
}

/// Thirty contacts over ten sections (A, B, C, D, E, F, G, H, K, M), three each, with phones; two with
/// emails; one with two phones.
let people: [Contact] = {
    let families = ["Adams", "Berg", "Cole", "Dahl", "Eriksson", "Fischer", "Gruber", "Hansen", "Kowalski", "Müller"]
    let givens = ["Anna", "Ben", "Clara"]
    var out: [Contact] = []
    for (f, family) in families.enumerated() {
        for (g, given) in givens.enumerated() {
            let n = f * 3 + g
            var phones = ["+1 415 555 \(String(format: "%04d", 100 + n))"]
            if family == "Berg" && given == "Ben" { phones.append("+1 415 555 0999") }
            out.append(
                contact(
                    "\(family.lowercased())-\(given.lowercased())", given, family, phones: phones,
                    emails: g == 0 && f < 2 ? ["\(given.lowercased())@\(family.lowercased()).example"] : []))
        }
    }
    return out
}()

func makePicker(
    _ contacts: [Contact] = people, locale: String = "en", columns: Int = 60, lines: Int = 16,
    configure: (inout Configuration) -> Void = { _ in }, options: (inout PickerOptions) -> Void = { _ in }
) throws -> ContactPicker {
    let selection = try SelectionController(contacts: contacts) { config in
        config.locale = locale
        config.phoneRegion = "US"
        config.nameSortOrder = .familyName
        configure(&config)
    }
    var pickerOptions = PickerOptions(locale: locale)
    options(&pickerOptions)
    return ContactPicker(selection: selection, options: pickerOptions, columns: columns, lines: lines)
}

extension ContactPicker {
    /// The name of the row under the cursor.
    var currentName: String? { currentRow?.displayName }
}
