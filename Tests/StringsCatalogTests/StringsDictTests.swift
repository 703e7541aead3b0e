import Foundation
import Testing

@testable import StringsCatalog

@Suite("stringsdict plurals")
struct StringsDictTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- Files in folders -->
            <key>files-in-folders</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%2$#@folders@ hold %1$#@files@</string>
                <key>files</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key><string>d</string>
                    <key>zero</key><string>no files</string>
                    <key>one</key><string>one file</string>
                    <key>other</key><string>%d files</string>
                </dict>
                <key>folders</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key><string>d</string>
                    <key>one</key><string>%d folder</string>
                    <key>other</key><string>%d folders</string>
                </dict>
            </dict>
            <key>nested</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@outer@</string>
                <key>outer</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>one</key><string>one item in %#@inner@</string>
                    <key>other</key><string>%d items in %#@inner@</string>
                </dict>
                <key>inner</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>one</key><string>%d box</string>
                    <key>other</key><string>%d boxes</string>
                </dict>
            </dict>
            <key>width</key>
            <dict>
                <key>NSStringVariableWidthRuleType</key>
                <dict>
                    <key>20</key><string>Short</string>
                    <key>50</key><string>A longer text</string>
                </dict>
            </dict>
            <key>broken</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@missing@</string>
            </dict>
        </dict>
        </plist>
        """

    @Test func readsEntriesCommentsAndDiagnostics() throws {
        let doc = StringsDictDocument(parsing: Data(Self.xml.utf8), file: "en.lproj/Localizable.stringsdict")
        #expect(doc.entries["files-in-folders"]?.variables.keys.sorted() == ["files", "folders"])
        #expect(doc.entries["files-in-folders"]?.comment == "Files in folders")
        #expect(doc.entries["files-in-folders"]?.variables["files"]?.valueType == "d")
        let broken = doc.diagnostics.first { $0.message.contains("missing") }
        #expect(broken?.line == 50, "\(String(describing: broken))")
        #expect(broken?.file == "en.lproj/Localizable.stringsdict")
    }

    @Test func positionalVariablesZeroRuleAndNesting() throws {
        let doc = StringsDictDocument(parsing: Data(Self.xml.utf8))
        let e = try #require(doc.entries["files-in-folders"])
        #expect(try e.format(locale: "en", arguments: [0, 1]) == "1 folder hold no files")
        #expect(try e.format(locale: "en", arguments: [1, 2]) == "2 folders hold one file")
        #expect(try e.format(locale: "en", arguments: [7, 3]) == "3 folders hold 7 files")
        // Japanese has only "other"; zero still matches 0 because the entry has it.
        #expect(try e.format(locale: "ja", arguments: [0, 1]) == "1 folders hold no files")
        let nested = try #require(doc.entries["nested"])
        #expect(try nested.format(locale: "en", arguments: [1, 1]) == "one item in 1 box")
        #expect(try nested.format(locale: "en", arguments: [4, 2]) == "4 items in 2 boxes")
        #expect(throws: StringsCatalogError.self) { try nested.format(locale: "en", arguments: [4]) }
        #expect(throws: StringsCatalogError.self) { try nested.format(locale: "en", arguments: ["x", 1]) }
    }

    @Test func widthVariants() throws {
        let doc = StringsDictDocument(parsing: Data(Self.xml.utf8))
        let w = try #require(doc.entries["width"])
        #expect(w.variant(forWidth: 10) == "Short")
        #expect(w.variant(forWidth: 30) == "Short")
        #expect(w.variant(forWidth: 80) == "A longer text")
    }

    @Test func malformedPlistIsADiagnostic() {
        let doc = StringsDictDocument(parsing: Data("<plist><dict><key>a</key>".utf8), file: "x.stringsdict")
        #expect(doc.entries.isEmpty)
        #expect(doc.diagnostics.first?.severity == .error)
        #expect(doc.diagnostics.first?.file == "x.stringsdict")
    }
}

@Suite("Bundled literals")
struct BundledLiteralsTests {
    static let languages = [
        "en", "de", "fr", "es", "es-419", "pt-BR", "it", "nl", "sv", "pl", "ru", "uk", "ar", "he", "tr", "ja", "ko",
        "zh-Hans",
        "zh-Hant", "hi",
    ]

    @Test func bundleHasEveryLanguageAndKeyWithComments() throws {
        let catalog = try Catalog.bundled()
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        for language in Self.languages {
            #expect(catalog.languages.contains(language), "missing \(language)")
            let table = try #require(catalog.tables[language]?["Localizable"])
            for key in Strings.Key.allCases where key != .contactsSelected {
                let value = try #require(table.strings[key.rawValue], "\(language) lacks \(key.rawValue)")
                #expect(!value.isEmpty)
                #expect(table.comments[key.rawValue] != nil, "\(language): \(key.rawValue) has no translator comment")
            }
            let plural = try #require(
                table.plurals[Strings.Key.contactsSelected.rawValue], "\(language) lacks the plural entry")
            #expect(plural.comment != nil)
            // Every category the language's plural rules use is present.
            let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
            let forms = plural.variables["count"]?.forms ?? [:]
            for category in needed {
                #expect(forms[category] != nil, "\(language) lacks plural category \(category)")
            }
        }
    }

    @Test func translationsDifferFromEnglishWhereTheyShould() {
        #expect(Strings.select(locale: "de") == "Auswählen")
        #expect(Strings.cancel(locale: "fr") == "Annuler")
        #expect(Strings.searchContacts(locale: "ja") == "連絡先を検索")
        #expect(Strings.cancel(locale: "zh-HK") == "取消")
        #expect(Strings.select(locale: "zh-TW") == "選取")
        #expect(Strings.select(locale: "zh-SG") == "选择")
        #expect(Strings.typeContactName(locale: "es-MX") == "Ingresa el nombre del contacto")
        #expect(Strings.typeContactName(locale: "es-ES") == "Escribe el nombre del contacto")
        #expect(Strings.noContacts(locale: "pt-PT") == "Nenhum contato")
        #expect(Strings.ok(locale: "xx") == "OK")
        #expect(Strings.messagingNotSupported(locale: "en-AU") == "Messaging not supported")
        #expect(Strings.mailNotSupportedMessage(locale: "sv") == "Det går inte att skicka e-post från den här enheten.")
        #expect(Strings.messagingNotSupportedMessage(locale: "he") == "אין תמיכה בהודעות במכשיר זה.")
    }

    @Test(arguments: [
        ("en", 1, "1 contact selected"), ("en", 0, "0 contacts selected"), ("en", 5, "5 contacts selected"),
        ("ru", 1, "Выбран 1 контакт"), ("ru", 3, "Выбрано 3 контакта"), ("ru", 5, "Выбрано 5 контактов"),
        ("ru", 21, "Выбран 21 контакт"), ("ru", 111, "Выбрано 111 контактов"),
        ("pl", 1, "Wybrano 1 kontakt"), ("pl", 2, "Wybrano 2 kontakty"), ("pl", 5, "Wybrano 5 kontaktów"),
        ("pl", 22, "Wybrano 22 kontakty"), ("pl", 12, "Wybrano 12 kontaktów"),
        ("ar", 0, "لم يتم تحديد أي جهة اتصال"), ("ar", 1, "تم تحديد جهة اتصال واحدة"), ("ar", 2, "تم تحديد جهتي اتصال"),
        ("ar", 3, "تم تحديد 3 جهات اتصال"), ("ar", 11, "تم تحديد 11 جهة اتصال"), ("ar", 100, "تم تحديد 100 جهة اتصال"),
        ("ja", 1, "1件の連絡先を選択しました"), ("ja", 0, "0件の連絡先を選択しました"),
        ("fr", 0, "0 contact sélectionné"), ("fr", 2, "2 contacts sélectionnés"),
        ("de-CH", 1, "1 Kontakt ausgewählt"), ("xx", 2, "2 contacts selected"),
    ])
    func contactsSelected(locale: String, count: Int, expected: String) {
        #expect(Strings.contactsSelected(count: count, locale: locale) == expected)
    }
}
