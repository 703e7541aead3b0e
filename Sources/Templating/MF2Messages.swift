import Foundation
import ICUKit
import MessageFormat2
import Synchronization

extension Helpers {
    /// `{{#mf2}}…{{/mf2}}`: a Unicode MessageFormat 2 message formatted in the recipient's locale, its
    /// variables taken from the context. The section is a catalog key whose value is an MF2 message (the
    /// way for `.match` messages, whose `{{…}}` Mustache would read), or a simple message written inline
    /// (`{{#mf2}}Hello {$name}!{{/mf2}}`). A placeholder that fails shows its fallback (`{$name}`); in strict
    /// mode it is an error.
    static func mf2(_ call: LambdaCall) throws -> LambdaResult {
        guard let text = call.sectionText, !text.isEmpty else {
            throw fail(call, "mf2", "expected a message or a catalog key: {{#mf2}}key{{/mf2}}")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let source =
            call.options.catalog?.message(forKey: key, table: call.options.table, locale: call.locale) ?? text
        let formatter: MessageFormat2.MessageFormatter
        do {
            formatter = try MF2Formatters.shared.formatter(source, locale: call.locale)
        } catch {
            throw fail(call, "mf2", "\(error)")
        }
        // The same arguments as {{#t}} gets: from the context, or derived (`x_count`, `x_list`, `x_date`),
        // strings isolated as the render's bidi option says.
        var arguments: [String: MessageArgument] = [:]
        for name in formatter.message.externalVariables {
            guard let value = try messageArgument(named: name, key: key, call: call) else { continue }
            arguments[name] = mf2Argument(value)
        }
        let result = formatter.format(arguments)
        if call.options.strict, let error = result.errors.first {
            throw fail(call, "mf2", "\(error)")
        }
        return .text(result.text)
    }

    static func mf2Argument(_ value: MessageFormat.Argument) -> MessageArgument {
        switch value {
        case .int(let i): .integer(Int(i))
        case .double(let d): .double(d)
        case .date(let ms): .date(Date(timeIntervalSince1970: ms / 1000))
        case .string(let s): .string(s)
        }
    }
}

/// Parsed MF2 messages by locale, isolation and source, shared by all renders.
final class MF2Formatters: Sendable {
    static let shared = MF2Formatters()
    private let cache = Mutex<[String: MessageFormat2.MessageFormatter]>([:])

    /// Isolation is the render's (its arguments come isolated), so the MF2 formatter adds none.
    func formatter(_ source: String, locale: String) throws -> MessageFormat2.MessageFormatter {
        let key = "\(locale)\u{0}\(source)"
        if let f = cache.withLock({ $0[key] }) { return f }
        let f = try MessageFormat2.MessageFormatter(
            source, locale: locale, bidiIsolation: .none,
            functions: FunctionRegistry.standard.adding(.draft))
        cache.withLock { if $0.count < 4096 { $0[key] = f } }
        return f
    }
}
