import Testing

@testable import StringsCatalog

/// The UI literals in a pseudolanguage the bundled catalog does not ship (`LANG=en_XA`): the English
/// literal pseudolocalized, so `contacts pick` and every other front end can be checked before translation.
@Suite("Pseudolanguage UI literals")
struct PseudoLiteralsTests {
    @Test func accentedAndRightToLeftFromTheEnglishLiterals() {
        let accented = Pseudolocalizer(style: .accented, pluralLanguage: "en")
        let rtl = Pseudolocalizer(style: .rtl, pluralLanguage: "en")
        for key in Strings.Key.allCases where key != .contactsSelected {
            let english = Strings.string(key, locale: "en")
            #expect(Strings.string(key, locale: "en-XA") == accented.transform(english))
            #expect(Strings.string(key, locale: "ar-XB") == rtl.transform(english))
        }
        #expect(Strings.cancel(locale: "en-XA") != "Cancel")
        // As the environment spells it, and first in a list.
        #expect(Strings.select(locale: "en_XA.UTF-8") == accented.transform("Select"))
        #expect(Strings.select(locale: "en-XA:de") == accented.transform("Select"))
        #expect(Strings.select(locale: "de:en-XA") == "Auswählen")
    }

    @Test func pluralLiteralKeepsItsNumber() {
        let text = Strings.contactsSelected(count: 3, locale: "en-XA")
        #expect(text == Pseudolocalizer(style: .accented, pluralLanguage: "en").transform("3 contacts selected"))
        #expect(text.contains("3"))
        #expect(Strings.contactsSelected(count: 1, locale: "en-XA").contains("1"))
    }

    @Test func realLanguagesAreUntouched() {
        #expect(Strings.select(locale: "de") == "Auswählen")
        #expect(Strings.pseudolocalizer(for: "en-US") == nil)
        #expect(Strings.pseudolocalizer(for: "es-419") == nil)
    }
}
