/// Why a terminal session could not start.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no terminal to draw on (`/dev/tty` cannot be opened: no controlling terminal).
    case noTerminal(reason: String)
    /// ncurses does not know the terminal (`TERM`).
    case unknownTerminal(term: String)

    public var description: String {
        switch self {
        case .noTerminal(let reason):
            return "no terminal to draw on (/dev/tty: \(reason)); run it in a terminal"
        case .unknownTerminal(let term):
            return "the terminal type '\(term)' is not known (TERM); try TERM=xterm-256color"
        }
    }
}
