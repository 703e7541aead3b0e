/// One input event of the picker, as the terminal reads it (the view model knows no terminal: the front
/// end turns its keys into these).
public enum PickerInput: Sendable, Hashable {
    /// Typed text (added to the search).
    case text(String)
    case up, down, left, right
    case pageUp, pageDown, home, end
    /// Toggles the row and moves down (fzf's Tab).
    case tab
    /// Toggles the row and moves up (Shift-Tab).
    case backTab
    case enter
    case escape
    case backspace
    /// A function key: F1 opens the help screen.
    case function(Int)
    /// Ctrl and a letter, lower-case.
    case control(Character)
    /// Alt and a character: jumps to that section of the index.
    case alt(Character)
    /// A mouse click at a screen position (0-based, from the top left).
    case click(line: Int, column: Int)
    case wheelUp, wheelDown
    /// The screen is now `columns` × `lines`.
    case resize(columns: Int, lines: Int)
}
