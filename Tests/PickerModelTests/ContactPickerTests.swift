import ContactsCore
import ContactsSelection
import ICUKit
import StringsCatalog
import Testing

@testable import PickerModel

@Suite struct ContactPickerTests {
    @Test func firstScreenShowsTitleBarSearchFieldSectionsIndexAndStatus() throws {
        let picker = try makePicker()
        let text = picker.screen().text
        #expect(text.count == 16)
        #expect(text[0].hasPrefix("Cancel"))
        #expect(text[0].contains("Search contacts"))
        #expect(text[0].hasSuffix("Select"))
        #expect(text[1].hasPrefix("> Search contacts"))
        #expect(text[1].hasSuffix("30/30"))
        #expect(text[2].hasPrefix("A "))
        #expect(text[3].hasPrefix("[ ] Anna Adams"))
        #expect(text[3].contains("+14155550100"))
        #expect(text[15].hasPrefix("0 contacts selected"))
        // The index down the right edge: the list's index has more titles than the screen has lines, so it
        // shows the titles of the sections the list has.
        #expect(picker.selection.listing.indexTitles.count > 13)
        #expect(text[2].hasSuffix(" A"))
        #expect(text[3].hasSuffix(" B"))
        #expect(text[11].hasSuffix(" M"))
        #expect(text[12].hasSuffix("  "))
        #expect(picker.screen().cursor == (1, 2))
    }

    @Test func everyLineIsExactlyTheScreenWideAtEverySize() throws {
        var contacts = people
        contacts.append(contact("family", "👨‍👩‍👧‍👦 Family", "Zed", phones: ["+1 415 555 0777"]))
        contacts.append(contact("wang", "伟伟伟伟伟伟伟伟伟伟伟伟", "王", phones: ["+86 10 5555 0100"]))
        contacts.append(contact("zoe", "Zoe\u{308}", "Ünal", phones: ["+1 415 555 0778"]))
        for (columns, lines) in [(40, 10), (60, 16), (80, 24), (300, 100), (41, 11)] {
            for locale in ["en", "de", "ja", "ar"] {
                let picker = try makePicker(contacts, locale: locale, columns: columns, lines: lines)
                let screen = picker.screen()
                #expect(screen.lines.count == lines)
                for line in screen.text {
                    #expect(DisplayWidth.measure(line) == columns, "\(locale) \(columns)×\(lines): '\(line)'")
                }
                _ = picker.handle(.text("w"))
                for line in picker.screen().text { #expect(DisplayWidth.measure(line) == columns) }
            }
        }
    }

    @Test func truncationKeepsGraphemeClustersWhole() throws {
        let family = "👨‍👩‍👧‍👦"
        let picker = try makePicker(
            [contact("f", String(repeating: family, count: 30), "X", phones: ["+1 415 555 0100"])], columns: 40,
            lines: 10)
        let row = picker.screen().text[3]
        #expect(row.contains("…"))
        // Every family emoji on the row is whole: the row holds only whole ones, the mark, spaces and the value.
        let name = row.dropFirst(4).prefix { $0 != "…" }
        #expect(name.allSatisfy { $0 == Character(family) })
    }

    @Test func typingSearchesAndBackspaceWidensAgain() throws {
        let picker = try makePicker()
        picker.handle(.down)
        picker.handle(.text("m"))
        picker.handle(.text("ü"))
        #expect(picker.query == "mü")
        #expect(picker.result.count == 3)
        #expect(picker.cursor == 0)
        #expect(picker.currentName == "Anna Müller")
        picker.handle(.backspace)
        picker.handle(.backspace)
        #expect(picker.result.count == 30)
        // Words in any order, each anywhere: Clara Hansen, Clara Dahl, Clara Fischer.
        picker.handle(.text("clara h"))
        #expect(picker.result.count == 3)
        picker.handle(.text("an"))
        #expect(picker.result.count == 1)
        picker.handle(.backspace)
        picker.handle(.backspace)
        picker.handle(.control("w"))
        #expect(picker.query == "clara ")
        picker.handle(.control("u"))
        #expect(picker.query.isEmpty)
    }

    @Test func theCursorStandsRightAfterALongQueryOfWideLetters() throws {
        for locale in ["en", "ar"] {
            let picker = try makePicker(locale: locale, columns: 40, lines: 10)
            picker.handle(.text(String(repeating: "王伟", count: 10) + "abc"))
            let screen = picker.screen()
            let field = try #require(screen.lines[1].first { $0.role == .query })
            #expect(field.text.hasPrefix("…"))
            let end = 2 + DisplayWidth.measure(field.text)
            #expect(screen.cursor.column == (locale == "ar" ? 40 - 1 - end : end), "\(locale)")
        }
    }

    @Test func ctrlKTogglesKeywordSearch() throws {
        let picker = try makePicker()
        picker.handle(.text("b a"))
        // Plain: each word anywhere (a "b" and an "a" in the name, email or organization).
        #expect(picker.result.count == 8)
        // Ctrl-K at the end of the text toggles keyword search.
        picker.handle(.control("k"))
        #expect(picker.keywords)
        #expect(picker.screen().text[1].hasPrefix("» b a"))
        // Every word starts a word of the contact: Anna Berg, and Ben Adams.
        #expect(picker.result.count == 2)
        // Inside the text, Ctrl-K deletes to its end.
        picker.handle(.left)
        picker.handle(.control("k"))
        #expect(picker.query == "b " && picker.keywords)
    }

    @Test func arrowsPagesHomeAndEndMoveTheCursorAndTheScreenFollows() throws {
        let picker = try makePicker()
        picker.handle(.down)
        #expect(picker.currentName == "Ben Adams")
        picker.handle(.up)
        picker.handle(.up)
        #expect(picker.currentName == "Anna Adams")
        picker.handle(.end)
        #expect(picker.currentName == "Clara Müller")
        let text = picker.screen().text
        #expect(text.contains { $0.hasPrefix("[ ] Clara Müller") })
        // Scrolled to the end: the list starts with the H section's header.
        #expect(text[2].hasPrefix("H "))
        picker.handle(.up)
        picker.handle(.up)
        picker.handle(.up)
        picker.handle(.up)
        picker.handle(.pageUp)
        // Started inside a section, the list's first line is that section's header (sticky).
        let sticky = picker.screen().text
        #expect(sticky[2].hasPrefix("E "))
        #expect(sticky[3].hasPrefix("[ ] Clara Eriksson"))
        #expect(picker.content(atLine: picker.top) != .header(4))
        picker.handle(.home)
        #expect(picker.currentName == "Anna Adams")
        picker.handle(.pageDown)
        #expect(picker.cursor == 11)
        picker.handle(.pageUp)
        #expect(picker.cursor == 0)
    }

    @Test func tabTogglesAndMovesDownShiftTabTogglesAndMovesUp() throws {
        let picker = try makePicker()
        picker.handle(.tab)
        picker.handle(.tab)
        #expect(picker.currentName == "Clara Adams")
        picker.handle(.backTab)
        #expect(picker.currentName == "Ben Adams")
        picker.handle(.backTab)  // Clara toggled on, then Ben toggled off again
        #expect(picker.currentName == "Anna Adams")
        let text = picker.screen().text
        #expect(text[0].hasSuffix("Select (2)"))
        #expect(text[3].hasPrefix("[x] Anna Adams"))
        #expect(text[4].hasPrefix("[ ] Ben Adams"))
        #expect(text[5].hasPrefix("[x] Clara Adams"))
        #expect(text[15].hasPrefix("2 contacts selected"))
        picker.handle(.control("d"))
        picker.handle(.tab)
        #expect(picker.screen().text[15].hasPrefix("1 contact selected"))
    }

    @Test func selectionIsKeptByIdAcrossSearchesAndEnterReturnsItInSelectionOrder() throws {
        let picker = try makePicker()
        picker.handle(.text("müller"))
        picker.handle(.tab)
        picker.handle(.control("u"))
        picker.handle(.text("berg"))
        picker.handle(.down)
        picker.handle(.tab)
        picker.handle(.control("u"))
        #expect(picker.selection.selectedRows.map(\.id) == ["berg-ben", "müller-anna"])
        // As fzf: the order the user selected in (Anna Müller first), not the list's.
        let outcome = picker.handle(.enter)
        #expect(
            outcome
                == .selected([
                    FormattedContact(id: "müller-anna", name: "Anna Müller", value: "+14155550127", channel: .message),
                    FormattedContact(id: "berg-ben", name: "Ben Berg", value: "+14155550104", channel: .message),
                ]))
        // Deselected and selected again: it counts from the second time.
        picker.handle(.text("müller"))
        picker.handle(.tab)
        picker.handle(.up)
        picker.handle(.tab)
        #expect(
            picker.selection.selectedRowNumbersInSelectionOrder.map { picker.selection.listing.listedRow($0).id }
                == ["berg-ben", "müller-anna"])
    }

    @Test func enterWithNothingToggledPicksTheRowUnderTheCursor() throws {
        let picker = try makePicker()
        picker.handle(.down)
        #expect(
            picker.handle(.enter)
                == .selected([
                    FormattedContact(id: "adams-ben", name: "Ben Adams", value: "+14155550101", channel: .message)
                ]))
    }

    @Test func escapeAndCtrlCCancel() throws {
        let picker = try makePicker()
        picker.handle(.tab)
        #expect(picker.handle(.escape) == .cancelled)
        #expect(picker.handle(.control("c")) == .cancelled)
    }

    @Test func disabledRowsAreDimmedAndCannotBeSelected() throws {
        let picker = try makePicker(configure: { $0.contactEnabledValidation = { !$0.emails.isEmpty } })
        picker.handle(.down)  // Ben Adams: no email
        picker.handle(.tab)
        #expect(picker.selection.selectedRows.isEmpty)
        #expect(picker.handle(.enter) == nil)
        let line = picker.screen().lines[4]
        #expect(line.contains { $0.role == .disabledRow && $0.text == "Ben Adams" })
        #expect(line.first?.text == "")  // no mark
        picker.handle(.control("a"))
        #expect(picker.selection.selectedRows.map(\.id) == ["adams-anna", "berg-anna"])
        picker.handle(.control("d"))
        #expect(picker.selection.selectedRows.isEmpty)
    }

    @Test func ctrlASelectsOnlyTheRowsShown() throws {
        let picker = try makePicker()
        picker.handle(.text("clara"))
        // Ctrl-A goes to the start of the text; there, it selects every row shown.
        picker.handle(.control("a"))
        #expect(picker.queryCursor == 0 && picker.selection.selectedRows.isEmpty)
        picker.handle(.control("a"))
        picker.handle(.control("e"))
        picker.handle(.control("u"))
        #expect(picker.selection.selectedRows.count == 10)
        #expect(picker.selection.selectedRows.allSatisfy { $0.displayName.hasPrefix("Clara") })
    }

    @Test func altLetterJumpsToItsSectionOrTheNextOneShown() throws {
        let picker = try makePicker()
        picker.handle(.alt("h"))
        #expect(picker.currentName == "Anna Hansen")
        #expect(picker.screen().text[2].hasPrefix("H "))
        // No "I" or "J" section: the next one, K.
        picker.handle(.alt("J"))
        #expect(picker.currentName == "Anna Kowalski")
        picker.handle(.text("clara"))
        // Alt-B goes back a word in the text; at its start, it jumps to B.
        picker.handle(.alt("b"))
        #expect(picker.queryCursor == 0)
        #expect(picker.currentName == "Clara Adams")
        picker.handle(.alt("b"))
        #expect(picker.currentName == "Clara Berg")
    }

    @Test func clicksToggleRowsJumpByTheIndexAndPressTheButtons() throws {
        let picker = try makePicker()
        #expect(picker.handle(.click(line: 4, column: 10)) == nil)
        #expect(picker.currentName == "Ben Adams")
        #expect(picker.selection.isSelected(id: "adams-ben"))
        // The index: the first line of the list shows its first title, A.
        picker.handle(.end)
        picker.handle(.click(line: 2, column: 59))
        #expect(picker.currentName == "Anna Adams")
        #expect(
            picker.handle(.click(line: 0, column: 58))
                == .selected([
                    FormattedContact(id: "adams-ben", name: "Ben Adams", value: "+14155550101", channel: .message)
                ]))
        #expect(picker.handle(.click(line: 0, column: 1)) == .cancelled)
    }

    @Test func theWheelScrollsAndTheCursorStaysOnScreen() throws {
        let picker = try makePicker()
        picker.handle(.wheelDown)
        picker.handle(.wheelDown)
        #expect(picker.top == 6)
        let shown = picker.screen().text
        #expect(shown.contains { $0.contains(picker.currentName!) })
        picker.handle(.wheelUp)
        picker.handle(.wheelUp)
        #expect(picker.top == 0)
    }

    @Test func resizeKeepsTheCursorOnScreen() throws {
        let picker = try makePicker(columns: 80, lines: 40)
        picker.handle(.end)
        picker.handle(.resize(columns: 40, lines: 10))
        let text = picker.screen().text
        #expect(text.count == 10)
        #expect(text.contains { $0.contains("Clara Müller") })
        picker.handle(.resize(columns: 300, lines: 100))
        #expect(picker.screen().text.count == 100)
        #expect(picker.screen().text.contains { $0.contains("Clara Müller") })
    }

    @Test func pinnedRowsComeFirstWhileNotSearchingAndEnterGivesTheirId() throws {
        let picker = try makePicker(configure: {
            $0.pinnedRows = [PinnedRow(id: "new", title: "New contact")]
        })
        #expect(picker.screen().text[2].hasPrefix("  New contact"))
        #expect(picker.handle(.tab) == nil)
        #expect(picker.selection.selectedRows.isEmpty)
        picker.handle(.up)
        #expect(picker.handle(.enter) == .pinned(id: "new"))
        picker.handle(.text("anna"))
        #expect(!picker.screen().text.contains { $0.contains("New contact") })
    }

    @Test func enterWithContactsToggledSelectsThemEvenWhenTheCursorIsOnAPinnedRow() throws {
        let picker = try makePicker(configure: {
            $0.pinnedRows = [PinnedRow(id: "new", title: "New contact")]
        })
        picker.handle(.text("anna a"))
        picker.handle(.tab)
        // Clearing the search brings the cursor back to the first line: the pinned row.
        picker.handle(.control("u"))
        #expect(picker.item(picker.cursor) == .pinned(PinnedRow(id: "new", title: "New contact")))
        #expect(picker.screen().text[0].contains("Select (1)"))
        #expect(
            picker.handle(.enter)
                == .selected([
                    FormattedContact(id: "adams-anna", name: "Anna Adams", value: "+14155550100", channel: .message)
                ]))
        // The Select button says the same.
        #expect(picker.handle(.click(line: 0, column: 59)) != .pinned(id: "new"))
        picker.handle(.control("d"))
        #expect(picker.handle(.enter) == .pinned(id: "new"))
    }

    @Test func rightArrowChoosesWhichPhoneOfTheRow() throws {
        let picker = try makePicker()
        picker.handle(.text("ben berg"))
        picker.handle(.right)
        #expect(picker.chooser?.values.count == 2)
        #expect(picker.screen().text[2].hasPrefix("Ben Berg"))
        #expect(picker.screen().text[3].hasPrefix("(•) +1 415 555 0104"))
        picker.handle(.down)
        picker.handle(.enter)
        #expect(picker.chooser == nil)
        let ben = FormattedContact(id: "berg-ben", name: "Ben Berg", value: "+14155550999", channel: .message)
        #expect(picker.handle(.enter) == .selected([ben]))
    }

    /// Addresses whose digits alike ("1") once marked both: the chooser marks exactly the one the contact
    /// is reached at, before and after another is chosen; a phone is matched by its E.164 form only.
    @Test func theChooserMarksExactlyOneValue() throws {
        var two = contact("doe-jo", "Jo", "Doe", emails: ["john1@example.org", "mary1@example.org"])
        two.phones = [
            LabeledValue(label: .mobile, value: "(415) 555-0111"), LabeledValue(label: .home, value: "555-0111"),
        ]
        let picker = try makePicker([two] + people, configure: { $0.mode = .email })
        picker.handle(.text("jo doe"))
        picker.handle(.right)
        func marks() -> [String] { picker.screen().text.filter { $0.contains("(•)") } }
        #expect(marks().count == 1 && marks()[0].contains("john1@example.org"), "\(picker.screen().text)")
        picker.handle(.down)
        picker.handle(.enter)
        picker.handle(.right)
        #expect(marks().count == 1 && marks()[0].contains("mary1@example.org"), "\(picker.screen().text)")
        #expect(picker.chooser?.cursor == 1 && picker.chooser?.marked == 1)
        picker.handle(.escape)
        // Phones: the first by its E.164 form, not the second whose digits end the same.
        let phones = try makePicker([two] + people)
        phones.handle(.text("jo doe"))
        phones.handle(.right)
        let marked = phones.screen().text.filter { $0.contains("(•)") }
        #expect(marked.count == 1 && marked[0].contains("(415) 555-0111"), "\(phones.screen().text)")
    }

    /// Fax and pager numbers are never text-message recipients: not in the value chooser, never a row's
    /// value, and a card with only those is not listed for messages (but is for email).
    @Test func faxAndPagerNumbersAreNeverTextMessageRecipients() throws {
        var eva = contact("lind-eva", "Eva", "Lind")
        eva.phones = [
            LabeledValue(label: .workFax, value: "+1 415 555 0202"),
            LabeledValue(label: .mobile, value: "+1 415 555 0201"),
            LabeledValue(label: .pager, value: "+1 415 555 0203"),
            LabeledValue(label: .home, value: "+1 415 555 0204"),
        ]
        var fax = contact("fax-only", "Fax", "Only", emails: ["fax@example.org"])
        fax.phones = [LabeledValue(label: .homeFax, value: "+1 415 555 0300")]
        let picker = try makePicker([eva, fax] + people)
        #expect(picker.selection.listing.rowNumber(id: "fax-only") == nil)
        picker.handle(.text("eva"))
        // The row is reached at the mobile, though the fax comes first on the card.
        #expect(picker.screen().text[3].contains("+14155550201"), "\(picker.screen().text)")
        picker.handle(.right)
        #expect(picker.chooser?.values.map(\.value) == ["+1 415 555 0201", "+1 415 555 0204"])
        let screen = picker.screen().text
        #expect(!screen.contains { $0.contains("0202") || $0.contains("0203") }, "\(screen)")
        #expect(throws: SelectionError.self) { try picker.selection.choose(value: "+1 415 555 0202", for: "lind-eva") }
        // In both modes the fax-only card is reached by email.
        let both = try makePicker([eva, fax] + people, configure: { $0.mode = .both })
        let row = try #require(both.selection.listing.rowNumber(id: "fax-only"))
        let reach = both.selection.value(forRow: row)
        #expect(reach.channel == .email && reach.value == "fax@example.org")
        #expect(try both.selection.availableValues(id: "fax-only").map(\.value) == ["fax@example.org"])
    }

    /// A contact with a mobile, a work, an unlabeled and a custom-labeled phone, for the chooser.
    static let labeled: Contact = {
        var c = contact("lind-eva", "Eva", "Lind")
        c.phones = [
            LabeledValue(label: .mobile, value: "+1 415 555 0201"),
            LabeledValue(label: .work, value: "+1 415 555 0202"),
            LabeledValue(value: "+1 415 555 0203"),
            LabeledValue(label: .custom("Grandma"), value: "+1 415 555 0204"),
        ]
        return c
    }()

    @Test(arguments: [
        ("en", "mobile", "work"), ("de", "Mobil", "Arbeit"), ("ja", "携帯", "勤務先"), ("ar", "الجوال", "العمل"),
    ])
    func theChooserShowsStandardLabelsInTheLanguage(locale: String, mobile: String, work: String) throws {
        let picker = try makePicker([Self.labeled] + people, locale: locale, columns: 70)
        picker.handle(.text("eva"))
        picker.handle(.right)
        let lines = picker.screen().text
        let rows = try #require(lines.firstIndex { $0.contains("+1 415 555 0201") })
        // Each value with its label (mirrored layouts put the label first).
        #expect(lines[rows].contains(mobile))
        #expect(lines[rows + 1].contains("+1 415 555 0202") && lines[rows + 1].contains(work))
        // An unlabeled value shows no label; one the user wrote shows as written.
        #expect(lines[rows + 2].contains("+1 415 555 0203"))
        #expect(lines[rows + 3].contains("+1 415 555 0204") && lines[rows + 3].contains("Grandma"))
        #expect(!lines.contains { $0.contains("WORK") })
    }

    @Test func everyStandardLabelIsACatalogLiteralInEveryShippedLanguage() throws {
        let standard: [ContactLabel] = [
            .mobile, .home, .work, .other, .iPhone, .main, .homeFax, .workFax, .otherFax, .pager, .school,
        ]
        let english = standard.map { ContactPicker.labelText($0, locale: "en") }
        #expect(
            english == [
                "mobile", "home", "work", "other", "iPhone", "main", "home fax", "work fax", "other fax", "pager",
                "school",
            ])
        for language in ["de", "fr", "es", "ru", "ja", "zh-Hans", "ar", "he", "hi", "ko"] {
            let texts = standard.map { ContactPicker.labelText($0, locale: language) }
            // Translated (iPhone is a name), and no two labels alike.
            for (text, en) in zip(texts, english) where en != "iPhone" {
                #expect(text != en || language == "fr" && en == "pager", "\(language): \(en)")
            }
            #expect(Set(texts).count == texts.count, "\(language)")
        }
        #expect(ContactPicker.labelText(.unlabeled, locale: "de") == "")
        #expect(ContactPicker.labelText(.custom("Oma"), locale: "en") == "Oma")
    }

    @Test func singlePickHasNoMarksAndEnterPicksAtOnce() throws {
        let picker = try makePicker(options: { $0.single = true })
        #expect(picker.screen().text[3].hasPrefix("  Anna Adams"))
        picker.handle(.tab)
        #expect(picker.selection.selectedRows.isEmpty)
        #expect(
            picker.handle(.enter)
                == .selected([
                    FormattedContact(id: "adams-ben", name: "Ben Adams", value: "+14155550101", channel: .message)
                ]))
    }

    @Test func titlesInfoAndNoTitleBar() throws {
        let picker = try makePicker(
            configure: { $0.title = "Invite" },
            options: {
                $0.info = "Pick who gets the invitation"
                $0.selectTitle = "Invite"
            })
        let text = picker.screen().text
        #expect(text[0].contains(" Invite "))
        #expect(text[1].hasPrefix("Pick who gets the invitation"))
        picker.handle(.text("anna"))
        #expect(picker.screen().text[1].hasPrefix("Pick who gets the invitation"))
        let bare = try makePicker(options: { $0.showsTitleBar = false })
        #expect(bare.screen().text[0].hasPrefix("> Search contacts"))
    }

    @Test func theLiteralsAreTheCatalogsInTheUsersLanguage() throws {
        for locale in ["de", "ja", "ar", "he", "ru", "zh-Hans"] {
            let picker = try makePicker(locale: locale, columns: 80)
            let text = picker.screen().text.joined(separator: "\n")
            #expect(text.contains(Strings.cancel(locale: locale)))
            #expect(text.contains(Strings.select(locale: locale)))
            #expect(text.contains(Strings.searchContacts(locale: locale)))
            #expect(text.contains(Strings.contactsSelected(count: 0, locale: locale)))
            #expect(Strings.cancel(locale: locale) != "Cancel")
        }
        let empty = try makePicker(locale: "de")
        empty.handle(.text("zzzz"))
        #expect(empty.screen().text.joined().contains(Strings.noContacts(locale: "de")))
    }

    @Test func arabicAndHebrewMirrorTheLayout() throws {
        let picker = try makePicker(locale: "ar", columns: 60)
        let screen = picker.screen()
        let text = screen.text
        // Cancel on the right, Select on the left; the index on the left; names flush right.
        #expect(text[0].hasSuffix(Strings.cancel(locale: "ar")))
        #expect(text[0].hasPrefix(Strings.select(locale: "ar")))
        #expect(text[1].hasPrefix("30/30"))
        #expect(text[1].hasSuffix(" <"))
        #expect(screen.lines[3].last?.text == "[ ]")
        #expect(screen.lines[3].first?.role == .index)
        #expect(screen.cursor.column == 57)
        let he = try makePicker(locale: "he", columns: 60).screen().text
        #expect(he[0].hasSuffix(Strings.cancel(locale: "he")))
        // The title stays in the middle of the mirrored title bar (not pushed against Cancel).
        for locale in ["ar", "he"] {
            let bar = try makePicker(locale: locale, columns: 60).screen().text[0]
            let title = Strings.searchContacts(locale: locale)
            let range = try #require(bar.range(of: title))
            let before = bar[..<range.lowerBound].reversed().prefix { $0 == " " }.count
            let after = bar[range.upperBound...].prefix { $0 == " " }.count
            #expect(abs(before - after) <= 1, "\(locale): '\(bar)'")
        }
    }
}
