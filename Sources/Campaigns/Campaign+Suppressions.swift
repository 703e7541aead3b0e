import Composer
import Foundation

extension Campaign {
    /// The name of a campaign folder's suppression list: the file `contacts bounces read --into` fills
    /// and `compose` reads when no other is named.
    public static let suppressionFileName = "suppressions.txt"

    /// Reads the campaign's suppression list into ``suppressions``: the file `path`, which must exist, else
    /// ``suppressionFileName`` in `folder` when there is one. Returns the file read (nil when none) and the
    /// list's diagnostics (lines read in part: their addresses are still suppressed).
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// let read = try campaign.readSuppressions(nil, folder: URL(fileURLWithPath: "."))   // ./suppressions.txt
    /// ```
    /// - Throws: `ComposerError.io` when the file named is missing or cannot be read.
    public mutating func readSuppressions(_ path: String?, folder: URL) throws(ComposerError) -> (
        file: String?, diagnostics: [String]
    ) {
        let file = path ?? folder.appendingPathComponent(Self.suppressionFileName).path
        guard FileManager.default.fileExists(atPath: file) else {
            if let path { throw .io(path: path, message: "no such suppression list") }
            return (nil, [])
        }
        do { suppressions = try SuppressionList(contentsOf: file) } catch let error as ComposerError {
            throw error
        } catch {
            throw .io(path: file, message: "\(error)")
        }
        return (file, suppressions.diagnostics)
    }
}
