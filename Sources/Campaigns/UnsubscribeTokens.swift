import Foundation
import Support
import Synchronization

/// Opaque per-recipient unsubscribe tokens, for one-click URLs that do not show the address
/// (`https://example.org/leave?t={{unsubscribe_token}}`): 128 random bits each (base64url), kept in a
/// plain file of the campaign (`address<TAB>token` per line), the same for an address in every run, so
/// the site that takes the click can look the address up. The file is written before anything is sent
/// (``save()``), owner-only.
///
/// ```swift
/// let tokens = try UnsubscribeTokens(file: "unsubscribe-tokens.tsv")
/// campaign.unsubscribeTokens = tokens
/// ```
public final class UnsubscribeTokens: Sendable {
    public let file: String
    private let state: Mutex<(tokens: [String: String], order: [String], changed: Bool)>

    /// Reads `file` (a missing file is an empty list). Throws `CampaignError.invalidVariables` naming the
    /// line for a line that is not `address<TAB>token`.
    public init(file: String) throws {
        self.file = file
        var tokens: [String: String] = [:]
        var order: [String] = []
        if let data = FileManager.default.contents(atPath: file) {
            for (n, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
                let fields = line.split(separator: "\t")
                guard fields.count == 2 else {
                    throw CampaignError.invalidVariables("\(file):\(n + 1):1: expected address<TAB>token")
                }
                let key = fields[0].lowercased()
                if tokens[key] == nil { order.append(key) }
                tokens[key] = String(fields[1])
            }
        }
        state = Mutex((tokens, order, false))
    }

    /// The token of `address` (case does not count), made now when it has none.
    public func token(for address: String) -> String {
        state.withLock { state in
            let key = address.lowercased()
            if let token = state.tokens[key] { return token }
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            state.tokens[key] = token
            state.order.append(key)
            state.changed = true
            return token
        }
    }

    /// Writes the file when tokens were made (atomically, owner-only).
    public func save() throws {
        let text: String? = state.withLock { state in
            guard state.changed else { return nil }
            state.changed = false
            return state.order.map { "\($0)\t\(state.tokens[$0] ?? "")\n" }.joined()
        }
        guard let text else { return }
        do { try AtomicFiles.replace(file, with: Array(text.utf8)) } catch {
            throw CampaignError.invalidVariables("\(file): cannot write the unsubscribe tokens: \(error)")
        }
    }
}
