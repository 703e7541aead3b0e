/// The conflict-resolution screen's model: the properties a sync found changed differently on both sides,
/// each side's lines next to each other, and the user's choice for each (yours, the server's, or — for a
/// property that holds several values — both). Knows no terminal and no sync: the front end turns keys
/// into ``PickerInput`` and writes the choices through the sync library.
///
/// ```swift
/// let resolver = ConflictResolver(
///     file: "ada.vcf",
///     properties: [.init(name: "NOTE", mine: ["NOTE:mine"], theirs: ["NOTE:theirs"], multiValued: false)],
///     columns: 80, lines: 12)
/// resolver.handle(.text("m"))
/// resolver.handle(.enter)   // .resolved([.mine])
/// ```
public final class ConflictResolver {
    /// One property in conflict: its name and its lines on each side.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var mine: [String]
        public var theirs: [String]
        /// Whether ``Choice/both`` may be chosen.
        public var multiValued: Bool

        public init(name: String, mine: [String], theirs: [String], multiValued: Bool) {
            self.name = name
            self.mine = mine
            self.theirs = theirs
            self.multiValued = multiValued
        }
    }

    /// Which side's lines a property keeps.
    public enum Choice: String, Sendable, Hashable, CaseIterable {
        case mine, theirs, both
    }

    /// How the screen ended.
    public enum Outcome: Sendable, Hashable {
        /// Enter: the choice of each property, in the order of ``properties``.
        case resolved([Choice])
        /// Esc, q, Ctrl-C: nothing is changed.
        case cancelled
    }

    /// The card's file, named in the title.
    public let file: String
    public let properties: [Property]
    /// The choice of each property; the server's until the user chooses (what the folder holds).
    public private(set) var choices: [Choice]
    /// The property under the cursor.
    public private(set) var cursor = 0
    /// The first line of the list shown.
    public internal(set) var top = 0
    public private(set) var columns: Int
    public private(set) var lines: Int

    public init(file: String, properties: [Property], columns: Int, lines: Int) {
        self.file = file
        self.properties = properties
        self.choices = properties.map { _ in .theirs }
        self.columns = max(1, columns)
        self.lines = max(1, lines)
    }

    /// Takes one input event; the outcome when it ends the screen, else nil. Up/Down move between the
    /// properties; Left or `m` takes yours, Right or `t` the server's, `b` both (a multi-valued property
    /// only); Space or Tab goes to the next choice; Enter saves, Esc or `q` cancels.
    @discardableResult
    public func handle(_ input: PickerInput) -> Outcome? {
        switch input {
        case .up, .control("p"), .backTab: move(by: -1)
        case .down, .control("n"): move(by: 1)
        case .home, .pageUp: move(by: -properties.count)
        case .end, .pageDown: move(by: properties.count)
        case .left, .text("m"), .text("y"): choose(.mine)
        case .right, .text("t"), .text("s"): choose(.theirs)
        case .text("b"): choose(.both)
        case .text(" "), .tab: cycle()
        case .enter: return .resolved(choices)
        case .escape, .text("q"), .control("c"), .control("g"), .control("q"): return .cancelled
        case .resize(let columns, let lines):
            self.columns = max(1, columns)
            self.lines = max(1, lines)
            scrollToCursor()
        case .click(let line, let column): click(line: line, column: column)
        case .wheelUp: move(by: -1)
        case .wheelDown: move(by: 1)
        case .text, .control, .alt, .backspace, .function: break
        }
        return nil
    }

    func move(by delta: Int) {
        guard !properties.isEmpty else { return }
        cursor = min(max(0, cursor + delta), properties.count - 1)
        scrollToCursor()
    }

    func choose(_ choice: Choice) {
        guard properties.indices.contains(cursor) else { return }
        if choice == .both && !properties[cursor].multiValued { return }
        choices[cursor] = choice
    }

    /// The next choice the property allows: yours, the server's, both (when multi-valued), yours…
    func cycle() {
        guard properties.indices.contains(cursor) else { return }
        let allowed: [Choice] = properties[cursor].multiValued ? [.mine, .theirs, .both] : [.mine, .theirs]
        let next = ((allowed.firstIndex(of: choices[cursor]) ?? 0) + 1) % allowed.count
        choices[cursor] = allowed[next]
    }

    /// A click on a property's row moves there; on a side's column, takes that side.
    func click(line: Int, column: Int) {
        let rows = self.rows
        let index = line - Self.headerLines + top
        guard rows.indices.contains(index) else { return }
        cursor = rows[index].property
        let layout = self.layout
        if column >= layout.mineStart && column < layout.theirsStart {
            choose(.mine)
        } else if column >= layout.theirsStart {
            choose(.theirs)
        }
    }
}
