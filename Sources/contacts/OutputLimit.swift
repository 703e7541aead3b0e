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

    /// Reads `--max-output`; the default when absent. A malformed size is a usage error.
    static func parse(_ args: inout Arguments, command: String) throws -> Int {
        guard let text = try args.option("--max-output") else { return RenderOptions.defaultMaxOutputBytes }
        guard let bytes = byteSize(text) else {
            throw CLIError.usage(
                "\(command): --max-output: expected a size in bytes such as 1048576, 512K, 64M or 1G (got '\(text)')")
        }
        return bytes
    }

    /// "1048576", "512K", "64M", "1G", "64MiB", "2 kb" → bytes (binary multiples); nil when malformed,
    /// zero or negative.
    static func byteSize(_ text: String) -> Int? {
        var t = text.trimmingCharacters(in: .whitespaces).uppercased()
        if t.hasSuffix("IB") { t.removeLast(2) } else if t.hasSuffix("B") { t.removeLast() }
        var shift = 0
        if let last = t.last, let s = ["K": 10, "M": 20, "G": 30][String(last)] {
            shift = s
            t.removeLast()
        }
        guard let n = Int(t.trimmingCharacters(in: .whitespaces)), n > 0, n <= Int.max >> shift else { return nil }
        return n << shift
    }
}
