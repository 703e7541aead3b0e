import ICUKit
import StringsCatalog

/// The compose sheet after Select: the recipients, and the message as each will get it (rendered in that
/// recipient's language), one recipient a page. ← → page through the recipients, ↑ ↓ PgUp PgDn Home End
/// (and the wheel) scroll the body, `e` edits the subject and body, `s` (or a click on Send) sends, Esc (or
/// Back) goes back to the list. When the delivery
/// cannot carry the messages the sheet is the documented alert instead, whose OK goes back to the list.
///
/// It decides what is shown and what a key does; the messages come rendered from its ``content`` (the front
/// end's, e.g. Campaigns' `CampaignPreview`), and the front end draws ``screen()``, runs the editor and
/// delivers. No terminal code.
///
/// ```swift
/// let preview = try CampaignPreview(
///     selection: selection, campaign: Campaign(template: "note"), library: library,
///     text: ComposerText(subject: "Dinner", body: "Hi {{recipient.givenName}}"), delivery: nil, locale: "en")
/// let sheet = ComposeSheet(content: preview, locale: "en", columns: 80, lines: 24)
/// if sheet.handle(.text("s")) == .send { print(preview.batch.mail.count) }
/// ```
public final class ComposeSheet {
    /// What a key asks the front end to do.
    public enum Action: Sendable, Hashable {
        /// Back to the list, the selection kept (Esc, or OK on the alert).
        case back
        /// Cancel everything (Ctrl-C): nothing is sent.
        case cancel
        /// Edit ``textToEdit`` and give the result to ``edited(_:file:)``.
        case edit
        /// Deliver the messages of ``content``.
        case send
    }

    /// The language of the literals and the direction of the layout.
    public let locale: String
    /// The rendered messages, the recipients not rendered, the alert, and the text to edit.
    public let content: any ComposeSheetContent
    /// The last edit's error, shown whole (wrapped above the status line) until the next key.
    public private(set) var error: String?
    /// The text of the last edit that was rejected (it could not be read or rendered): what `e` opens
    /// next, so the user mends their own text instead of starting again; nil once an edit is taken.
    public private(set) var rejectedText: String?
    /// What the editor opens for `e`: the rejected edit when there is one, else the message as it is
    /// (``ComposeSheetContent/editableText``); nil for a library template.
    public var textToEdit: String? {
        guard let editable = content.editableText else { return nil }
        return rejectedText ?? editable
    }
    /// The recipient shown (an index of the content's pages).
    public private(set) var page = 0
    /// The first body line shown.
    public private(set) var scroll = 0
    public private(set) var columns: Int
    public private(set) var lines: Int

    var pages: [ComposePage] { content.pages }
    var failures: [String] { content.failures }
    var alert: PickerAlert? { content.alert }

    /// The sheet of `content`'s messages on a screen of `columns` × `lines`.
    public init(content: any ComposeSheetContent, locale: String, columns: Int, lines: Int) {
        self.content = content
        self.locale = locale
        self.columns = max(1, columns)
        self.lines = max(1, lines)
    }

    /// The screen is now `columns` × `lines`.
    public func resize(columns: Int, lines: Int) {
        self.columns = max(1, columns)
        self.lines = max(1, lines)
        scroll = min(scroll, maxScroll)
    }

    var rightToLeft: Bool { ICULocale.isRightToLeft(locale) }

    /// Handles one input; the action for the front end, or nil when the sheet only changed.
    public func handle(_ input: PickerInput) -> Action? {
        if alert != nil {
            switch input {
            case .enter, .escape, .text(" "), .text("o"), .text("O"): return .back
            case .control("c"): return .cancel
            case .resize(let c, let l): resize(columns: c, lines: l)
            default: break
            }
            return nil
        }
        error = nil
        let next: PickerInput = rightToLeft ? .left : .right
        let previous: PickerInput = rightToLeft ? .right : .left
        switch input {
        case next: turn(to: page + 1)
        case previous: turn(to: page - 1)
        case .up, .wheelUp: scroll(to: scroll - 1)
        case .down, .wheelDown: scroll(to: scroll + 1)
        case .pageUp: scroll(to: scroll - max(1, bodyHeight - 1))
        case .pageDown: scroll(to: scroll + max(1, bodyHeight - 1))
        case .home: scroll(to: 0)
        case .end: scroll(to: maxScroll)
        case .escape: return .back
        case .control("c"): return .cancel
        case .text("e"), .text("E"):
            if content.editableText != nil { return .edit }
        case .text("s"), .text("S"):
            if !pages.isEmpty { return .send }
        case .resize(let c, let l): resize(columns: c, lines: l)
        case .click(0, let column): return clickTitleBar(column: column)
        default: break
        }
        return nil
    }

    /// A click on the title bar: its Back or Send button.
    private func clickTitleBar(column: Int) -> Action? {
        let x = rightToLeft ? columns - 1 - column : column
        let bar = titleBar()
        if x < bar[0].width { return .back }
        if x >= columns - bar[bar.count - 1].width, !pages.isEmpty { return .send }
        return nil
    }

    private func turn(to newPage: Int) {
        guard newPage >= 0, newPage < pages.count, newPage != page else { return }
        page = newPage
        scroll = 0
    }

    private func scroll(to line: Int) { scroll = max(0, min(line, maxScroll)) }

    /// The edited text (the editor's file `file`, named in errors) given to ``content``, which renders
    /// every message again; when it cannot be read or rendered, the message stays as it was, ``error`` says
    /// why and the text is kept as ``rejectedText`` for the next edit.
    public func edited(_ fileText: String, file: String) {
        guard content.editableText != nil else { return }
        do {
            try content.edit(fileText, file: file)
            page = min(page, max(0, pages.count - 1))
            scroll = min(scroll, maxScroll)
            error = nil
            rejectedText = nil
        } catch {
            self.error = "\(error)"
            rejectedText = fileText
        }
    }

    /// The editor failed (`message` says how): the message stays as it was.
    public func editorFailed(_ message: String) { error = message }

    // MARK: - What is shown

    /// The message on the page shown.
    public var current: ComposePage? { page < pages.count ? pages[page] : nil }

    /// The body of the page shown, wrapped to the screen's width: the text part of a mail (what every
    /// reader can show), the text message's body; the reasons when nothing could be rendered.
    public var bodyLines: [String] {
        guard let m = current else { return failures.flatMap { Self.wrap($0, width: columns) } }
        return Self.wrap(m.body, width: columns)
    }

    /// The lines above the body: the title bar, To, Subject (mail), the rule.
    var headerHeight: Int { current?.subject == nil ? 3 : 4 }
    /// The lines the body has: the screen less the header, the line of recipients not rendered (when some
    /// were, so that a sheet never hides them) and the status line.
    var bodyHeight: Int { max(0, lines - headerHeight - (hasFailureLine ? 1 : 0) - statusLines.count) }
    var hasFailureLine: Bool { !failures.isEmpty && !pages.isEmpty }
    var maxScroll: Int { max(0, bodyLines.count - bodyHeight) }

    /// What the screen shows now.
    public func screen() -> PickerScreen {
        if let alert { return Self.alertScreen(alert, columns: columns, lines: lines, locale: locale) }
        var out: [[PickerSpan]] = [titleBar()]
        let pageText = pages.isEmpty ? "0/0" : "\(page + 1)/\(pages.count)"
        out.append(
            field(
                Strings.to(locale: locale), current.map { "\($0.displayName) <\($0.value)>" } ?? "", right: pageText))
        if let subject = current?.subject { out.append(field(Strings.subject(locale: locale), subject)) }
        out.append([PickerSpan(String(repeating: "─", count: columns), width: columns, role: .info)])
        let body = bodyLines
        for i in 0..<bodyHeight {
            let index = scroll + i
            out.append([PickerSpan(index < body.count ? body[index] : "", width: columns, role: .body)])
        }
        if hasFailureLine, let first = failures.first {
            let more = failures.count > 1 ? " (+\(failures.count - 1))" : ""
            out.append([PickerSpan("✗ \(first)\(more)", width: columns, role: .error)])
        }
        out += statusLines
        let shown = Array(out.prefix(lines))
        return PickerScreen(
            columns: columns, lines: rightToLeft ? shown.map(ContactPicker.mirror) : shown, cursor: (0, 0))
    }

    func titleBar() -> [PickerSpan] {
        let back = Strings.back(locale: locale)
        let send = Strings.send(locale: locale)
        let backWidth = min(DisplayWidth.measure(back), columns / 3)
        let sendWidth = min(DisplayWidth.measure(send), columns / 3)
        let gap = columns >= 3 ? 1 : 0
        let middle = max(0, columns - backWidth - sendWidth - 2 * gap)
        return [
            PickerSpan(back, width: backWidth, role: .button),
            PickerSpan(" ", width: gap, role: .titleBar),
            .centred(current?.displayName ?? "", width: middle, role: .title),
            PickerSpan(" ", width: gap, role: .titleBar),
            PickerSpan(send, width: sendWidth, role: .button, alignment: .trailing),
        ]
    }

    /// `Label: value`, with `right` at the end of the line. The space after the label is a cell of its
    /// own, so a mirrored (right-to-left) line keeps it between the label and the value.
    func field(_ label: String, _ value: String, right: String = "") -> [PickerSpan] {
        let labelText = label + ":"
        let labelWidth = min(DisplayWidth.measure(labelText), columns)
        let gap = columns > labelWidth ? 1 : 0
        let rightWidth =
            right.isEmpty ? 0 : min(DisplayWidth.measure(right) + 1, max(0, columns - labelWidth - gap))
        return [
            PickerSpan(labelText, width: labelWidth, role: .label),
            PickerSpan(" ", width: gap, role: .label),
            PickerSpan(value, width: columns - labelWidth - gap - rightWidth, role: .field),
            PickerSpan(right, width: rightWidth, role: .status, alignment: .trailing),
        ]
    }

    /// The last lines: the error of the last edit whole, wrapped to the screen (never more than half of
    /// it), else the keys.
    var statusLines: [[PickerSpan]] {
        guard let error else { return [statusLine()] }
        let wrapped = Self.wrap(error, width: columns)
        return wrapped.prefix(max(1, lines / 2)).map { [PickerSpan($0, width: columns, role: .error)] }
    }

    func statusLine() -> [PickerSpan] {
        var hints: [String] = []
        if content.editableText != nil { hints.append("e \(Strings.edit(locale: locale))") }
        if !pages.isEmpty { hints.append("s \(Strings.send(locale: locale))") }
        hints.append("Esc \(Strings.back(locale: locale))")
        if pages.count > 1 { hints.append("← →") }
        return [PickerSpan(hints.joined(separator: "  "), width: columns, role: .status)]
    }

    /// The screen of `alert` alone (`columns` × `lines`, mirrored for a right-to-left `locale`): title,
    /// message, detail and the OK button, centred — also shown before a list opens.
    public static func alertScreen(_ alert: PickerAlert, columns: Int, lines: Int, locale: String) -> PickerScreen {
        let columns = max(1, columns)
        var body: [[PickerSpan]] = []
        body.append([.centred(alert.title, width: columns, role: .alertTitle)])
        body.append([PickerSpan("", width: columns, role: .empty)])
        for line in Self.wrap(alert.message, width: max(1, columns - 4)) {
            body.append([.centred(line, width: columns, role: .alertMessage)])
        }
        if let detail = alert.detail {
            body.append([PickerSpan("", width: columns, role: .empty)])
            for line in Self.wrap(detail, width: max(1, columns - 4)) {
                body.append([.centred(line, width: columns, role: .info)])
            }
        }
        body.append([PickerSpan("", width: columns, role: .empty)])
        let ok = "[ \(alert.button) ]"
        let okWidth = min(DisplayWidth.measure(ok), columns)
        let left = (columns - okWidth) / 2
        body.append([
            PickerSpan("", width: left, role: .empty),
            PickerSpan(ok, width: okWidth, role: .button, highlighted: true),
            PickerSpan("", width: columns - left - okWidth, role: .empty),
        ])
        let top = max(0, (lines - body.count) / 2)
        var out = Array(repeating: [PickerSpan("", width: columns, role: .empty)], count: top) + body
        while out.count < lines { out.append([PickerSpan("", width: columns, role: .empty)]) }
        let shown = Array(out.prefix(lines))
        return PickerScreen(
            columns: columns, lines: ICULocale.isRightToLeft(locale) ? shown.map(ContactPicker.mirror) : shown,
            cursor: (0, 0))
    }

    /// `text` in lines of at most `width` columns: each of its lines, broken at the last space that fits,
    /// else between grapheme clusters (never inside one).
    ///
    /// ```swift
    /// ComposeSheet.wrap("Hallo Zoë, bis bald", width: 10)   // ["Hallo Zoë,", "bis bald"]
    /// ```
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            var lastSpace: String.Index?
            for cluster in paragraph.hasSuffix("\r") ? paragraph.dropLast() : paragraph {
                let w = DisplayWidth.measure(cluster)
                if lineWidth + w > width && !line.isEmpty {
                    if let space = lastSpace, cluster != " " {
                        let rest = String(line[line.index(after: space)...])
                        out.append(String(line[..<space]))
                        line = rest
                    } else {
                        out.append(line)
                        line = ""
                    }
                    lineWidth = DisplayWidth.measure(line)
                    lastSpace = nil
                    if cluster == " " { continue }
                }
                if cluster == " " { lastSpace = line.endIndex }
                line.append(cluster)
                lineWidth += w
            }
            out.append(line)
        }
        return out
    }
}
