import ContactsCore
import ICUKit

/// The contact card (Ctrl-O on a row): every property of the contact under the cursor, scrolled with the
/// arrow and page keys; Esc or ← goes back to the list where it was.
extension ContactPicker {
    /// Opens the card of the contact under the cursor (nothing on a pinned row or when its card cannot be
    /// read).
    func openCard() {
        guard let row = currentRow, let contact = try? selection.contacts.contacts(ids: [row.id])[row.id] else {
            return
        }
        card = (ContactCard(contact, locale: options.locale), 0)
    }

    /// Lines of the card's properties on screen (below its title, above its hints).
    var cardHeight: Int { max(1, lines - 2) }

    func handleCard(_ input: PickerInput) {
        guard let open = card else { return }
        let last = max(0, open.card.lines.count - cardHeight)
        let top = min(open.top, last)
        switch input {
        case .up, .wheelUp, .control("p"): card?.top = max(0, top - 1)
        case .down, .wheelDown, .control("n"): card?.top = min(last, top + 1)
        case .pageUp: card?.top = max(0, top - cardHeight)
        case .pageDown: card?.top = min(last, top + cardHeight)
        case .home: card?.top = 0
        case .end: card?.top = last
        case .resize(let columns, let lines): resize(columns: columns, lines: lines)
        case .escape, .left, .enter, .control("c"), .control("g"), .control("o"), .text("q"): card = nil
        default: break
        }
    }

    /// The card: the contact's name, its properties (label, then value) from `top`, the hints.
    func cardScreen(_ card: ContactCard, top: Int) -> PickerScreen {
        let labelWidth = min(card.lines.map { DisplayWidth.measure($0.label) }.max() ?? 0, max(1, columns / 3))
        var out: [[PickerSpan]] = [[.centred(card.title, width: columns, role: .title)]]
        let first = min(top, max(0, card.lines.count - cardHeight))
        for n in 0..<cardHeight {
            guard first + n < card.lines.count else {
                out.append([PickerSpan("", width: columns, role: .row)])
                continue
            }
            let line = card.lines[first + n]
            out.append([
                PickerSpan(line.label, width: labelWidth, role: .label),
                PickerSpan("  ", width: min(2, max(0, columns - labelWidth)), role: .row),
                PickerSpan(line.value, width: max(0, columns - labelWidth - 2), role: .field),
            ])
        }
        out.append(hintLine())
        let shown = Array(out.prefix(lines))
        return PickerScreen(columns: columns, lines: rightToLeft ? shown.map(Self.mirror) : shown, cursor: (0, 0))
    }
}
