/// One input event from the terminal: a key, a mouse event or a resize.
public enum Key: Sendable, Hashable {
    /// A printable character (typed text).
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab
    /// Shift-Tab (`KEY_BTAB`).
    case backTab
    case enter
    case escape
    case backspace
    case delete
    /// A function key by its number (F1 is 1).
    case function(Int)
    /// Ctrl and a letter, lower-case ("a" for Ctrl-A). Tab, Enter and Backspace are their own keys.
    case control(Character)
    /// Alt (Meta) and a character: the terminal sent ESC then the character.
    case alt(Character)
    /// The left button at a screen position (0-based).
    case click(line: Int, column: Int)
    case wheelUp, wheelDown
    /// The terminal changed size.
    case resize
    /// A signal asked the program to end (SIGTERM, SIGHUP): the caller ends the session and exits.
    case terminate(signal: Int32)
}
