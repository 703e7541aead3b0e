import ContactsSelection

/// The search field's editing keys, as readline's. A key that cannot move or delete where the cursor stands
/// (at the start or the end of the text, or in an empty field) does the list's action it had before the
/// field could be edited: → and Ctrl-E choose a value, Ctrl-A selects every row shown, Ctrl-D deselects
/// all, Ctrl-K toggles keyword search, Ctrl-F fuzzy search, Alt-B and Alt-F jump to sections B and F.
extension ContactPicker {
    var atStart: Bool { queryCursor == 0 }
    var atEnd: Bool { queryCursor >= query.count }

    func index(_ offset: Int) -> String.Index { query.index(query.startIndex, offsetBy: offset) }

    func insert(_ text: String) {
        guard !text.isEmpty else { return }
        let cursor = index(queryCursor)
        let appending = atEnd
        query.insert(contentsOf: text, at: cursor)
        queryCursor += text.count
        // Typing at the end narrows the previous result; elsewhere the search starts over.
        research(refining: appending)
    }

    func deleteBackward() {
        guard !atStart else { return }
        query.remove(at: index(queryCursor - 1))
        queryCursor -= 1
        research(refining: false)
    }

    /// Removes the characters between `from` and `to` (character offsets).
    func remove(from: Int, to: Int) {
        guard from < to else { return }
        query.removeSubrange(index(from)..<index(to))
        queryCursor = from
        research(refining: false)
    }

    /// The start of the word before the cursor (readline's Alt-B).
    var wordBackward: Int {
        let characters = Array(query)
        var i = queryCursor
        while i > 0 && !characters[i - 1].isLetter && !characters[i - 1].isNumber { i -= 1 }
        while i > 0 && (characters[i - 1].isLetter || characters[i - 1].isNumber) { i -= 1 }
        return i
    }

    /// The end of the word after the cursor (readline's Alt-F).
    var wordForward: Int {
        let characters = Array(query)
        var i = queryCursor
        while i < characters.count && !characters[i].isLetter && !characters[i].isNumber { i += 1 }
        while i < characters.count && (characters[i].isLetter || characters[i].isNumber) { i += 1 }
        return i
    }

    /// An editing key (see above).
    func edit(_ input: PickerInput) {
        switch input {
        case .left, .control("b"):
            if !atStart { queryCursor -= 1 }
        case .right where atEnd, .control("e") where atEnd:
            openChooser()
        case .right:
            queryCursor += 1
        case .control("e"):
            queryCursor = query.count
        case .control("f"):
            if atEnd {
                fuzzy.toggle()
                research(refining: false)
            } else {
                queryCursor += 1
            }
        case .control("a"):
            if atStart { selectAllShown() } else { queryCursor = 0 }
        case .control("d"):
            if atEnd {
                selection.removeAll()
            } else {
                remove(from: queryCursor, to: queryCursor + 1)
            }
        case .control("k"):
            if atEnd {
                keywords.toggle()
                research(refining: false)
            } else {
                remove(from: queryCursor, to: query.count)
            }
        case .control("u"):
            remove(from: 0, to: queryCursor)
        case .control("w"):
            // Back over spaces, then over the word (readline's unix-word-rubout).
            let characters = Array(query)
            var i = queryCursor
            while i > 0 && characters[i - 1].isWhitespace { i -= 1 }
            while i > 0 && !characters[i - 1].isWhitespace { i -= 1 }
            remove(from: i, to: queryCursor)
        case .alt(let letter) where letter == "b" || letter == "B":
            if atStart { jump(toIndexTitle: String(letter)) } else { queryCursor = wordBackward }
        case .alt(let letter) where letter == "f" || letter == "F":
            if atEnd { jump(toIndexTitle: String(letter)) } else { queryCursor = wordForward }
        default: break
        }
    }
}

extension ContactPicker {
    /// The one contact the search shows, when it shows exactly one row and that row can be selected: what
    /// fzf's `--select-1` prints without opening the screen. Nil otherwise.
    public var onlyMatch: FormattedContact? {
        guard result.count == 1 else { return nil }
        let number = Int(result.rowNumbers[0])
        return selection.isEnabled(listing.listedRow(number)) ? picked(number) : nil
    }
}
