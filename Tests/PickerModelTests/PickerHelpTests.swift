import ContactsSelection
import ICUKit
import Testing

@testable import PickerModel

/// The key hints' line and the help screen of every key (? or F1).
@Suite struct PickerHelpTests {
    func hinted(locale: String = "en", columns: Int = 60, lines: Int = 16, single: Bool = false) throws
        -> ContactPicker
    {
        try makePicker(
            locale: locale, columns: columns, lines: lines,
            options: {
                $0.showsHints = true
                $0.single = single
            })
    }

    @Test func hintLineIsTheLastLineAndTheListIsOneLineShorter() throws {
        let plain = try makePicker()
        let picker = try hinted()
        let text = picker.screen().text
        #expect(text.count == 16)
        #expect(text[15] == "? Help  Tab Mark  Enter Select  Esc Cancel  → Values" + String(repeating: " ", count: 8))
        #expect(text[14].hasPrefix("0 contacts selected"))
        #expect(picker.listHeight == plain.listHeight - 1)
        // Without hints the status line is last (the library's default).
        #expect(plain.screen().text[15].hasPrefix("0 contacts selected"))
        // A single pick has no marks to hint at.
        #expect(try hinted(single: true).screen().text[15].hasPrefix("? Help  Enter Select  Esc Cancel"))
    }

    @Test func hintsDropWholeEntriesThatDoNotFit() throws {
        let picker = try hinted(columns: 30, lines: 10)
        #expect(picker.screen().text[9] == "? Help  Tab Mark  Enter Select")
        // The first hint is shown even when it must be cut.
        #expect(try hinted(columns: 5, lines: 10).screen().text[9].hasPrefix("? H"))
    }

    @Test(arguments: [
        ("de", "? Hilfe  Tab Markieren  Enter Auswählen  Esc Abbrechen"),
        ("ja", "? ヘルプ  Tab マーク  Enter 選択  Esc キャンセル  → 値"),
        ("ar", "? مساعدة  Tab وضع علامة  Enter تحديد  Esc إلغاء  → القيم"),
    ])
    func hintsAreLocalized(locale: String, expected: String) throws {
        let picker = try hinted(locale: locale, columns: 60, lines: 12)
        let last = picker.screen().text[11]
        #expect(DisplayWidth.measure(last) == 60)
        if locale == "ar" {
            // Mirrored: the line is aligned to the right edge.
            #expect(last.hasSuffix(expected), "\(last)")
        } else {
            #expect(last.hasPrefix(expected), "\(last)")
        }
    }

    @Test func questionMarkOpensHelpOnlyWhenTheSearchIsEmptyF1Always() throws {
        let picker = try hinted()
        #expect(picker.handle(.text("?")) == nil)
        #expect(picker.helpTop == 0)
        let help = picker.screen().text
        #expect(help[0].trimmingCharacters(in: .whitespaces) == "Keys")
        #expect(help[1].hasPrefix("List"))
        #expect(help.contains { $0.hasPrefix("? F1") && $0.contains("This help") })
        #expect(help[15].hasPrefix("Esc Back  ↑ ↓ Scroll"))
        // Esc closes the help, not the picker.
        #expect(picker.handle(.escape) == nil)
        #expect(picker.helpTop == nil)
        _ = picker.handle(.text("a"))
        _ = picker.handle(.text("?"))
        #expect(picker.helpTop == nil)
        #expect(picker.query == "a?")
        _ = picker.handle(.function(1))
        #expect(picker.helpTop == 0)
    }

    @Test func helpListsTheKeysOfTheListTheChooserAndTheComposeSheetAndScrolls() throws {
        let picker = try hinted(columns: 70, lines: 12)
        _ = picker.handle(.function(1))
        var seen: [String] = []
        var previous: [String] = []
        for _ in 0..<60 {
            let text = picker.screen().text
            #expect(text.count == 12)
            for line in text { #expect(DisplayWidth.measure(line) == 70) }
            seen += text[1..<11]
            if text == previous { break }
            previous = text
            _ = picker.handle(.down)
        }
        let all = seen.joined(separator: "\n")
        for list in PickerKeyList.all {
            #expect(all.contains(list.screen))
            for entry in list.keys { #expect(all.contains(entry.keys), "\(entry.keys)") }
        }
        #expect(all.contains("Edit the subject and body in $EDITOR"))
        #expect(all.contains("Reach the contact at this value"))
        _ = picker.handle(.home)
        #expect(picker.screen().text[1].hasPrefix("List"))
        _ = picker.handle(.end)
        #expect(picker.screen().text[10].hasPrefix("Esc"))
        #expect(picker.screen().text[10].contains("Back to the list"))
    }

    @Test func helpOpensFromTheChooserAndGoesBackToIt() throws {
        let picker = try hinted()
        _ = picker.handle(.text("ben berg"))
        _ = picker.handle(.right)
        #expect(picker.chooser != nil)
        #expect(picker.screen().text[15].hasPrefix("Enter Choose  Esc Back"))
        _ = picker.handle(.function(1))
        #expect(picker.helpTop == 0)
        _ = picker.handle(.escape)
        #expect(picker.helpTop == nil)
        #expect(picker.chooser != nil)
    }

    @Test(arguments: ["de", "ja", "ar"])
    func helpScreenIsLocalizedAndExactlyTheScreenWide(locale: String) throws {
        for (columns, lines) in [(40, 10), (80, 24), (120, 40)] {
            let picker = try hinted(locale: locale, columns: columns, lines: lines)
            _ = picker.handle(.function(1))
            let text = picker.screen().text
            #expect(text.count == lines)
            for line in text { #expect(DisplayWidth.measure(line) == columns, "\(locale): '\(line)'") }
            let title = PickerText.string("Keys", locale: locale)
            #expect(title != "Keys")
            #expect(text[0].contains(title))
            let list = PickerText.string("List", locale: locale)
            if locale == "ar" {
                #expect(text[1].hasSuffix(list), "\(text[1])")
            } else {
                #expect(text[1].hasPrefix(list), "\(text[1])")
            }
        }
    }

    @Test func everyKeyListEntryHasATranslationInGermanJapaneseAndArabic() throws {
        let english =
            PickerKeyList.all.flatMap { [$0.screen] + $0.keys.map(\.action) }
            + ["Help", "Mark", "Values", "Choose", "Back", "Scroll", "Keys"]
        for locale in ["de", "ja", "ar"] {
            for text in english where text != "Send" || locale != "en" {
                #expect(PickerText.string(text, locale: locale) != text, "\(locale) lacks '\(text)'")
            }
        }
    }
}
