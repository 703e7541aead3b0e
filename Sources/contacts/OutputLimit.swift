import ArgumentModel
import Foundation
import Templating

/// `--max-output SIZE` of the commands that render templates (`render`, `templates render`, `compose`):
/// the most bytes one render may produce, ``RenderOptions/maxOutputBytes``.
enum OutputLimitOption {
    static let option = OptionSpec.option(
        "--max-output", value: "SIZE",
        help: """
            stop a render that produces more than SIZE bytes (suffix K, M or G for KiB,
            MiB, GiB; default 64M); with several recipients, that recipient is reported and skipped
            """)

    /// Reads `--max-output` (``SizeValue``, the one size grammar); the default when absent. A malformed
    /// size is a usage error.
    static func parse(_ args: inout Arguments, command: String) throws -> Int {
        guard let text = try args.option("--max-output") else { return RenderOptions.defaultMaxOutputBytes }
        guard let size = SizeValue(text) else {
            throw CLIError.usage("\(command): --max-output: expected \(SizeValue.describe()) (got '\(text)')")
        }
        return size.bytes
    }
}

/// `--max-steps N` of `compose`: the most work one render may do, ``RenderOptions/maxSteps``.
enum RenderStepsOption {
    static let option = OptionSpec.option(
        "--max-steps", value: "N",
        help: """
            stop a render after N steps of work (instructions and passes through sections; default
            20000000): loops nested over large lists that would run for hours; that recipient is skipped
            """)

    /// Reads `--max-steps`; the default when absent. Anything but a positive integer is a usage error.
    static func parse(_ args: inout Arguments, command: String) throws -> Int {
        guard let text = try args.option("--max-steps") else { return RenderOptions.defaultMaxSteps }
        guard let steps = Int(text), steps > 0 else {
            throw CLIError.usage("\(command): --max-steps: expected a positive number of steps (got '\(text)')")
        }
        return steps
    }
}
