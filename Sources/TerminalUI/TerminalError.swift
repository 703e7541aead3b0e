/// Why a terminal session could not start.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no terminal to draw on (`/dev/tty` cannot be opened: no controlling terminal).
    case noTerminal(reason: String)
    /// ncurses does not know the terminal (`TERM`), `TERM` is not set (empty), or it is `dumb` (a
    /// terminal that cannot move its cursor).
    case unknownTerminal(term: String)

    public var description: String {
        switch self {
        case .noTerminal(let reason):
            return "no terminal to draw on (/dev/tty: \(reason)); run it in a terminal"
        case .unknownTerminal(let term) where term.isEmpty:
            return "TERM is not set (the terminal's type); try TERM=xterm-256color"
        case .unknownTerminal("dumb"):
            return "the terminal type 'dumb' cannot move its cursor (TERM); try TERM=xterm-256color"
        case .unknownTerminal(let term):
            return "the terminal type '\(term)' is not known (TERM); try TERM=xterm-256color"
        }
    }
}
