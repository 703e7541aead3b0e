import Foundation
import PickerModel

// The picker's view model on a terminal: its screens drawn as frames, the terminal's keys as its input, and
// the loops of the list, the compose sheet (with the editor) and an alert.

extension PickerInput {
    /// The picker's input for a terminal key; nil for a resize (the session reports it) and a signal to
    /// end (the caller's).
    public init?(_ key: Key) {
        switch key {
        case .character(let c): self = .text(String(c))
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .home: self = .home
        case .end: self = .end
        case .tab: self = .tab
        case .backTab: self = .backTab
        case .enter: self = .enter
        case .escape: self = .escape
        case .backspace, .delete: self = .backspace
        case .control(let c): self = .control(c)
        case .alt(let c): self = .alt(c)
        case .click(let line, let column): self = .click(line: line, column: column)
        case .wheelUp: self = .wheelUp
        case .wheelDown: self = .wheelDown
        case .function(let n): self = .function(n)
        case .resize, .terminate: return nil
        }
    }
}

extension TextStyle {
    /// How a part of the picker's screen is drawn (`highlighted`: reversed, the row under the cursor).
    public init(_ role: PickerRole, highlighted: Bool) {
        switch role {
        case .titleBar, .title: self = [.bold]
        case .button: self = [.accent, .bold]
        case .info, .placeholder, .disabledRow, .index, .empty: self = [.dim]
        case .prompt, .currentIndex: self = [.accent, .bold]
        case .sectionHeader: self = [.bold, .underline]
        case .mark: self = [.accent]
        case .query, .pinned, .row, .value, .status, .field, .body, .alertMessage: self = []
        case .label, .alertTitle: self = [.bold]
        case .error: self = [.accent, .bold]
        }
        if highlighted { insert(.reverse) }
    }
}

extension Frame {
    /// `screen` as drawn: each span's text made safe for the terminal (``terminalSafe(_:)``), styled by
    /// its role.
    public init(_ screen: PickerScreen) {
        self.init(
            lines: screen.lines.map { line in
                line.map {
                    Span(
                        terminalSafe($0.text), width: $0.width, style: TextStyle($0.role, highlighted: $0.highlighted),
                        alignment: $0.alignment)
                }
            },
            cursor: screen.cursor)
    }
}

extension TerminalSession {
    /// Draws `picker` and reads keys until it ends with an outcome; `selected` gets a selection first and
    /// returns true to go back to the list (the picker redrawn at the terminal's size), false to end with it.
    public func run(_ picker: ContactPicker, selected: (PickerOutcome) throws -> Bool) rethrows -> PickerOutcome {
        while true {
            draw(Frame(picker.screen()))
            let key = nextViewKey { picker.resize(columns: $0, lines: $1) }
            guard let input = PickerInput(key), let outcome = picker.handle(input) else { continue }
            guard case .selected = outcome, try selected(outcome) else { return outcome }
            let size = self.size
            picker.resize(columns: size.columns, lines: size.lines)
        }
    }

    /// Shows `sheet` until it asks to go back, cancel or send; `e` is done here (``edit(_:fileExtension:)``).
    public func run(_ sheet: ComposeSheet, fileExtension: String) -> ComposeSheet.Action {
        while true {
            draw(Frame(sheet.screen()))
            let key = nextViewKey { sheet.resize(columns: $0, lines: $1) }
            guard let input = PickerInput(key), let action = sheet.handle(input) else { continue }
            guard action == .edit else { return action }
            edit(sheet, fileExtension: fileExtension)
        }
    }

    /// Shows `alert` alone (`ComposeSheet.alertScreen(_:columns:lines:locale:)`, PickerModel) until OK (Enter, Esc,
    /// Space, o), Ctrl-C or a signal to end.
    public func show(_ alert: PickerAlert, locale: String) {
        var size = self.size
        while true {
            draw(Frame(ComposeSheet.alertScreen(alert, columns: size.columns, lines: size.lines, locale: locale)))
            switch nextViewKey(resized: { size = (columns: $0, lines: $1) }) {
            case .enter, .escape, .character(" "), .character("o"), .character("O"), .control("c"), .terminate: return
            default: continue
            }
        }
    }

    /// Edits the sheet's message in `$VISUAL`, else `$EDITOR`, else vi, on the terminal: the text (the
    /// last rejected edit when there is one, so the user mends their own text) goes into `message.EXT` in
    /// a private temporary folder, the editor runs, the file is read back and the folder removed. A text
    /// that cannot be used stays with the sheet (`ComposeSheet.rejectedText`, PickerModel) for the next `e`, its error
    /// shown whole; an editor that fails leaves the message as it was.
    public func edit(_ sheet: ComposeSheet, fileExtension: String) {
        guard let editable = sheet.textToEdit else { return }
        let editor = Self.editor(environment: ProcessInfo.processInfo.environment)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contacts-pick-" + UUID().uuidString.prefix(8))
        let file = folder.appendingPathComponent("message.\(fileExtension)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(editable.utf8).write(to: file)
        } catch {
            sheet.editorFailed("\(file.path): \(error)")
            return
        }
        let status = runEditor(editor, file: file)
        guard status == 0 else {
            sheet.editorFailed(
                "The editor \(status < 0 ? "could not be run" : "exited with \(status)"); the message is unchanged "
                    + "(\(editor))")
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path),
            let edited = String(data: data, encoding: .utf8)
        else {
            sheet.editorFailed("\(file.lastPathComponent): cannot be read as UTF-8 text; the message is unchanged")
            return
        }
        sheet.edited(edited, file: file.lastPathComponent)
    }
}
