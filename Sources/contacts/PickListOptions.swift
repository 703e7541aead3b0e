import ArgumentModel
import ContactsSelection
import PickerModel

/// `pick`'s options of the list itself (hints, search), applied to the picker's ``PickerOptions``, and
/// fzf's `--select-1` and `--exit-0`, answered before the screen opens.
struct PickListOptions {
    static let options: [OptionSpec] = [
        .flag("--no-hints", help: "hide the key hints' line (? or F1 still opens the help of every key)"),
        .flag("--fuzzy", help: "start in fuzzy search: 'fbay' finds Felipe Baytelman, best first (Ctrl-F toggles)"),
        .option("--query", value: "Q", help: "start with Q in the search field (as fzf)"),
        .flag("--select-1", help: "when the search shows exactly one contact, print it without opening the list"),
        .flag("--exit-0", help: "when the search shows no contact, exit 1 without opening the list"),
        .option(
            "--sort", value: "given|family", help: "sort and section by the given or the family name (default: given)",
            allowed: ["given", "family"]),
    ]

    var selectOne = false
    var exitZero = false

    /// Reads the options into `options` and the list's `config`.
    static func parse(_ args: inout Arguments, into options: inout PickerOptions, config: inout Configuration) throws
        -> PickListOptions
    {
        if try args.option("--sort") == "family" { config.nameSortOrder = .familyName }
        options.showsHints = !args.flag("--no-hints")
        options.fuzzy = args.flag("--fuzzy")
        options.query = try args.option("--query") ?? ""
        return PickListOptions(selectOne: args.flag("--select-1"), exitZero: args.flag("--exit-0"))
    }

    /// `--select-1` and `--exit-0`: the exit code when the search answers before the list opens (the one
    /// contact printed as `--output` says), else nil.
    func answer(_ selection: SelectionController, _ options: PickerOptions, output: String) throws -> ExitCode? {
        guard selectOne || exitZero else { return nil }
        let picker = ContactPicker(selection: selection, options: options, columns: 80, lines: 24)
        if exitZero && picker.result.count == 0 { return .failure }
        guard selectOne, let only = picker.onlyMatch else { return nil }
        try PickCommand.printPicked([only], output: output, lookup: selection.contacts)
        return .ok
    }
}
