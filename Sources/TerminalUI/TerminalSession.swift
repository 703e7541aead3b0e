internal import CNcurses
import Foundation
import ICUKit
import Synchronization

/// A full-screen session on the controlling terminal (`/dev/tty`), so that standard input and output stay
/// free for the program's data (`contacts pick | …`, as fzf does). It draws ``Frame``s, reads ``Key``s,
/// and gives the terminal back as it found it on every way out: ``end()``, a thrown error (the owner's
/// `defer`), SIGTERM and SIGHUP (read as ``Key/terminate(signal:)`` so that the owner ends the session),
/// and a crash (the terminal modes are restored by the signal handler before the process dies).
/// Ctrl-Z suspends and resumes (``suspend()``); a resize is read as ``Key/resize``.
///
/// ```swift no-compile
/// let session = try TerminalSession(tint: "blue")
/// defer { session.end() }
/// session.draw(Frame(lines: [[Span("Hello", width: 5)]]))
/// let key = session.nextKey()
/// ```
public final class TerminalSession {
    private let screen: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private let window: UnsafeMutablePointer<WINDOW>
    private var ended = false
    private var accentPair: Int16 = 0
    private var widths: [Character: Int] = [:]

    /// Starts the session on `/dev/tty`. `tint` names the accent colour (black, red, green, yellow, blue,
    /// magenta, cyan, white); no colour is used when `NO_COLOR` is set (not empty) or the terminal has
    /// none. Throws ``TerminalError`` when there is no terminal or ncurses does not know its type.
    public init(tint: String? = nil, environment: [String: String]) throws {
        TerminalLocale.prepare()
        guard let output = fopen("/dev/tty", "w"), let input = fopen("/dev/tty", "r") else {
            throw TerminalError.noTerminal(reason: String(cString: strerror(errno)))
        }
        TerminalSignals.install(fd: fileno(output))
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb", let screen = term.withCString({ newterm($0, output, input) }) else {
            TerminalSignals.uninstall()
            fclose(output)
            fclose(input)
            throw TerminalError.unknownTerminal(term: term)
        }
        set_term(screen)
        self.screen = screen
        self.output = output
        self.input = input
        window = cncurses_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)
        wtimeout(window, Self.poll)
        mouseinterval(0)
        mousemask(cncurses_button1_pressed() | cncurses_button4_pressed() | cncurses_button5_pressed(), nil)
        if !Self.noColor(environment), has_colors(), let color = tint.flatMap(Self.colors.firstIndex(of:)) {
            start_color()
            use_default_colors()
            if init_pair(1, Int16(color), -1) != ERR { accentPair = 1 }
        }
    }

    deinit { end() }

    /// Whether `NO_COLOR` asks for no colour: set to anything but the empty string (https://no-color.org).
    ///
    /// ```swift
    /// let off = TerminalSession.noColor(["NO_COLOR": "1"])   // true
    /// let on = !TerminalSession.noColor(["NO_COLOR": ""])   // true
    /// ```
    public static func noColor(_ environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    }

    /// The colour names of `tint`, in ncurses order.
    public static let colors = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// The size of the terminal now.
    public var size: (columns: Int, lines: Int) {
        (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Draws `frame` (lines past the bottom and spans past the right edge are clipped) and updates the
    /// terminal with what changed since the last frame.
    public func draw(_ frame: Frame) {
        guard !ended else { return }
        let (columns, lines) = size
        werase(window)
        for (y, spans) in frame.lines.prefix(lines).enumerated() {
            var x = 0
            for span in spans {
                guard x < columns else { break }
                let width = min(span.width, columns - x)
                let text = DisplayWidth.fit(Self.displayable(span.text), width: width, alignment: span.alignment)
                put(text, line: y, column: x, limit: x + width, attributes: attributes(span.style))
                x += width
            }
        }
        if let cursor = frame.cursor, cursor.line < lines {
            curs_set(1)
            wmove(window, Int32(cursor.line), Int32(min(cursor.column, max(0, columns - 1))))
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
    }

    /// The bidi marks (LRM, RLM, ALM) left out: the terminal gets text in logical order and nothing that
    /// reorders it. (Embeddings, overrides, isolates and control characters are made visible by the caller,
    /// with `terminalSafe`, before the text is laid out.)
    static func displayable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiMark) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.filter { !isBidiMark($0) })
        return String(out)
    }

    static func isBidiMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    /// Writes `text` from `column` cluster by cluster, each at the column ICU gives it (so that a cluster
    /// the C library measures differently cannot shift what follows), in the cells ``TerminalCells`` cuts
    /// it into.
    private func put(_ text: String, line: Int, column: Int, limit: Int, attributes: (attr_t, Int16)) {
        var x = column
        var cell = cchar_t()
        let capacity = Int(cncurses_ccharw_max())
        for cluster in text {
            let width = clusterWidth(cluster)
            guard width > 0 else { continue }
            guard x + width <= limit else { break }
            var cellX = x
            for scalars in TerminalCells.split(cluster, capacity: capacity) where cellX < x + width {
                var chars = scalars.map { wchar_t(bitPattern: $0.value) }
                chars.append(0)
                if cncurses_setcchar(&cell, chars, attributes.0, attributes.1) != ERR {
                    wmove(window, Int32(line), Int32(cellX))
                    wadd_wch(window, &cell)
                }
                cellX += max(1, Int(cncurses_wcwidth(chars[0])))
            }
            x += width
        }
    }

    private func clusterWidth(_ cluster: Character) -> Int {
        if cluster.isASCII { return 1 }
        if let known = widths[cluster] { return known }
        let width = DisplayWidth.measure(cluster)
        widths[cluster] = width
        return width
    }

    private func attributes(_ style: TextStyle) -> (attr_t, Int16) {
        var value = cncurses_attr_normal()
        var pair: Int16 = 0
        if style.contains(.bold) { value |= cncurses_attr_bold() }
        if style.contains(.dim) { value |= cncurses_attr_dim() }
        if style.contains(.reverse) { value |= cncurses_attr_reverse() }
        if style.contains(.underline) { value |= cncurses_attr_underline() }
        if style.contains(.accent) {
            if accentPair > 0 { pair = accentPair } else { value |= cncurses_attr_bold() }
        }
        return (value, pair)
    }

    /// How long a read of the terminal waits (ms) before it looks at the signals again: ncurses retries a
    /// read that a signal interrupted, so a terminating signal is noticed at the next timeout.
    static let poll: Int32 = 100

    /// Waits for the next key, mouse event, resize or terminating signal.
    public func nextKey() -> Key {
        while true {
            if let signal = TerminalSignals.pending() { return .terminate(signal: signal) }
            var code: wint_t = 0
            errno = 0
            let status = wget_wch(window, &code)
            if status == ERR {
                if let signal = TerminalSignals.pending() { return .terminate(signal: signal) }
                // A timeout (or an interrupted read): look again. A terminal that is gone cannot be read at all.
                if isatty(fileno(input)) == 0 || errno == EIO { return .terminate(signal: SIGHUP) }
                continue
            }
            if status == KEY_CODE_YES {
                if let key = functionKey(Int32(code)) { return key }
                continue
            }
            if let key = characterKey(UInt32(code)) { return key }
        }
    }

    /// The next key a full-screen view handles, with the session's own work done on the way: a terminating
    /// signal ends the session and the process (exit 128 + signal, the terminal restored first); Ctrl-Z
    /// suspends and, once continued, calls `resized` with the size then; a resize calls `resized`. Both
    /// return ``Key/resize``, so that the view is drawn again.
    ///
    /// ```swift
    /// func nextKey(of session: TerminalSession) -> Key {
    ///     session.nextViewKey { columns, lines in print("redraw at \(columns)×\(lines)") }
    /// }
    /// ```
    public func nextViewKey(resized: (_ columns: Int, _ lines: Int) -> Void) -> Key {
        let key = nextKey()
        switch key {
        case .terminate(let signal):
            end()
            exit(128 + signal)
        case .control("z"):
            suspend()
            resized(size.columns, size.lines)
            return .resize
        case .resize:
            resized(size.columns, size.lines)
            return .resize
        default:
            return key
        }
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE: return .resize
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & cncurses_button4_pressed() != 0 { return .wheelUp }
            if event.bstate & cncurses_button5_pressed() != 0 { return .wheelDown }
            if event.bstate & (cncurses_button1_pressed() | cncurses_button1_clicked()) != 0 {
                return .click(line: Int(event.y), column: Int(event.x))
            }
            return nil
        default: return nil
        }
    }

    private func characterKey(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 27:
            // Alt-x arrives as ESC then x at once; a lone ESC has nothing after it. A key the terminal
            // description does not name (a TERM that is not the terminal's: Home as ESC [ 1 ~) arrives as ESC
            // and the rest of its sequence at once: a standard cursor or editing key is read as that key,
            // anything else is left out, never typed into the search.
            wtimeout(window, 0)
            defer { wtimeout(window, Self.poll) }
            var next: wint_t = 0
            let status = wget_wch(window, &next)
            guard status == OK, next >= 0x20, next != 0x7F, let scalar = Unicode.Scalar(UInt32(next)) else {
                // What came with the ESC but does not make an Alt key (a second Esc, an arrow) is read next.
                if status == KEY_CODE_YES {
                    ungetch(Int32(next))
                } else if status == OK {
                    unget_wch(wchar_t(bitPattern: UInt32(next)))
                }
                return .escape
            }
            if scalar == "[" || scalar == "O", let rest = sequenceRest(csi: scalar == "[") {
                return Self.standardKey(csi: scalar == "[", rest)
            }
            return .alt(Character(scalar))
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(code + 96))))
        case 0, 28...31, 0x7F...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// The key of an ANSI sequence the terminal description does not name (`csi`: after ESC [, else after
    /// ESC O): the cursor and editing keys in both the cursor-key modes a terminal may be left in (after an
    /// editor, ESC [ C where the description says ESC O C), as fzf reads them; nil for any other sequence,
    /// which is then left out.
    static func standardKey(csi: Bool, _ rest: String) -> Key? {
        switch rest {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        default: break
        }
        guard csi else { return rest == "P" ? .function(1) : nil }
        switch rest {
        case "1~", "7~": return .home
        case "4~", "8~": return .end
        case "5~": return .pageUp
        case "6~": return .pageDown
        case "3~": return .delete
        case "11~": return .function(1)
        case "Z": return .backTab
        default: return nil
        }
    }

    /// The rest of an escape sequence after ESC [ (parameters up to a final byte) or ESC O (one byte), read
    /// without waiting; nil when nothing follows (the user typed Alt-[ or Alt-O).
    private func sequenceRest(csi: Bool) -> String? {
        var rest = ""
        var code: wint_t = 0
        while wget_wch(window, &code) == OK, let scalar = Unicode.Scalar(UInt32(code)) {
            rest.unicodeScalars.append(scalar)
            // A CSI's parameter and intermediate bytes are 0x20–0x3F; its final byte is 0x40–0x7E.
            if !csi || !(0x20...0x3F).contains(scalar.value) { return rest }
        }
        return rest.isEmpty ? nil : rest
    }

    /// Ctrl-Z: gives the terminal back, stops the program's process group as the shell's job control
    /// expects, and takes the terminal again (redrawing everything) when it is continued.
    public func suspend() {
        guard !ended else { return }
        endwin()
        signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        // Continued.
        cncurses_redraw_everything()
        wrefresh(window)
    }

    /// Gives the terminal to another program for the time of `body` (an editor on `/dev/tty`), then takes
    /// it again and redraws everything, as Ctrl-Z and `fg` do.
    public func handOver<T>(_ body: () throws -> T) rethrows -> T {
        guard !ended else { return try body() }
        endwin()
        defer {
            cncurses_redraw_everything()
            wrefresh(window)
        }
        return try body()
    }

    /// Gives the terminal back (the screen it had before, its modes, the cursor). Safe to call twice.
    public func end() {
        guard !ended else { return }
        ended = true
        endwin()
        delscreen(screen)
        fclose(output)
        fclose(input)
        TerminalSignals.uninstall()
    }
}
