import Foundation
import Support

/// Hands drafts to the desktop as `mailto:` / `sms:` URIs: printed (to a callback, e.g. stdout) or opened
/// with `xdg-open` when that is installed. The result is `.saved`: a URI delivers nothing by itself.
///
/// ```swift
/// let t = URITransport(mode: .print { print($0) })
/// _ = try t.send(draft)          // prints mailto:…
/// ```
public struct URITransport: MailTransport, MessageTransport {
    public enum Mode: Sendable {
        case print(@Sendable (String) -> Void)
        case open(opener: String)
    }
    public var mode: Mode

    public init(mode: Mode) { self.mode = mode }

    /// `xdg-open` from PATH, if any.
    public static var xdgOpen: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/xdg-open" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private var available: Bool {
        if case .open(let opener) = mode { return FileManager.default.isExecutableFile(atPath: opener) }
        return true
    }
    public var canSendMail: Bool { available }
    public var canSendText: Bool { available }

    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.mailUnavailable(reason: "no program to open mailto: URIs (xdg-open)")
        }
        return try hand(MailtoURI(draft: draft).string)
    }

    public func send(_ draft: MessageDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.messagingUnavailable(reason: "no program to open sms: URIs (xdg-open)")
        }
        return try hand(try SMSURI(draft: draft).string)
    }

    private func hand(_ uri: String) throws -> ComposeResult {
        switch mode {
        case .print(let output):
            output(uri)
            return .saved
        case .open(let opener):
            let result: ChildRun.Result
            do { result = try ChildRun.run(opener, [uri]) } catch {
                return .failed(.mailUnavailable(reason: "\(opener): \(error.reason)"))
            }
            if result.exitStatus == 0 { return .saved }
            let how = result.exitStatus.map { "exited with \($0)" } ?? "was killed by signal \(result.signal ?? 0)"
            return .failed(.mailUnavailable(reason: "\(opener) \(how)"))
        }
    }
}
