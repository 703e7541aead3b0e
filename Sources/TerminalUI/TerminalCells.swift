internal import CNcurses

/// How one grapheme cluster is written to the terminal's cells. ncurses keeps one spacing character per
/// cell (with at most `capacity - 1` combining ones after it) and drops whatever follows a second one, so a
/// cluster is cut into cells at each character the C library gives a width (`wcwidth`), as the terminal
/// places them: Devanagari's "मा" is "म" and "ा" in two cells, not "म" alone. An emoji sequence (a ZWJ
/// family, a skin tone, a keycap) is drawn as its first emoji alone, and a flag as its two regional
/// indicators: terminals disagree on how wide the whole sequence is, and a zero-width joiner left at the
/// end of a cell joins whatever the terminal writes next (tmux). No cell holds a zero-width joiner.
enum TerminalCells {
    static func split(_ cluster: Character, capacity: Int = 5) -> [[Unicode.Scalar]] {
        let scalars = Array(cluster.unicodeScalars)
        guard let first = scalars.first else { return [] }
        if scalars.count > 1, isEmojiSequence(scalars) {
            let indicators = scalars.count == 2 && scalars.allSatisfy { (0x1F1E6...0x1F1FF).contains($0.value) }
            return indicators ? [[first], [scalars[1]]] : [[first]]
        }
        var cells: [[Unicode.Scalar]] = []
        for scalar in scalars where scalar.value != 0x200D {
            if cells.isEmpty || cncurses_wcwidth(wchar_t(bitPattern: scalar.value)) != 0 {
                cells.append([scalar])
            } else if cells[cells.count - 1].count < capacity - 1 {
                cells[cells.count - 1].append(scalar)
            }
        }
        return cells
    }

    static func isEmojiSequence(_ scalars: [Unicode.Scalar]) -> Bool {
        let first = scalars[0].properties
        guard first.isEmoji else { return false }
        return first.isEmojiPresentation
            || scalars.contains { $0.value == 0x200D || $0.value == 0xFE0F || $0.properties.isEmojiModifier }
    }
}
