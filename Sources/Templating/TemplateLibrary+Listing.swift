import Foundation

/// One template of a library as `templates list --json` shows it.
public struct TemplateSummary: Sendable, Hashable, Codable {
    public var name: String
    /// The parts the template has (`subject`, `body.txt`, …).
    public var parts: [String]
    /// The locales that override a part.
    public var overrideLocales: [String]
    /// True when the template has a `sample.json`.
    public var hasSample: Bool
}

extension TemplateLibrary {
    /// Every template, by name.
    public var summaries: [TemplateSummary] {
        names.compactMap { name in
            templates[name].map {
                TemplateSummary(
                    name: name, parts: $0.availableParts.map(\.rawValue), overrideLocales: $0.overrideLocales,
                    hasSample: $0.sample != nil)
            }
        }
    }

    /// One line per template: its name (padded to a column), its parts, the locales that override a part and
    /// whether it has sample data.
    ///
    /// ```swift
    /// try TemplateLibrary.bundled().listing.forEach { print($0) }   // invite  subject, body.txt, …
    /// ```
    public var listing: [String] {
        let width = names.map(\.count).max() ?? 0
        return summaries.map { t in
            var line = t.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            line += t.parts.joined(separator: ", ")
            if !t.overrideLocales.isEmpty {
                line += "  (locale overrides: \(t.overrideLocales.joined(separator: ", ")))"
            }
            if t.hasSample { line += "  [sample data]" }
            return line
        }
    }

    /// The locale to render `context` in: its own `locale` or `lang` field (the recipient's) wins over the
    /// campaign's, then the environment's (``renderLocale(recipient:campaign:environment:)``).
    public static func renderLocale(for context: MustacheValue, campaign: String?, environment: String) -> String {
        let own = (context.member("locale") ?? context.member("lang"))?.scalarText
        return renderLocale(recipient: own, campaign: campaign, environment: environment)
    }
}

extension RenderedMessage {
    /// The message as `templates render` prints it: `Subject:` and `Locale:` lines, a blank line, then each
    /// body under a `--- text ---`, `--- html ---` or `--- message ---` line.
    public var preview: String {
        var text = "Subject: \(subject)\nLocale: \(locale)\n\n--- text ---\n\(textBody)"
        if let htmlBody { text += "--- html ---\n\(htmlBody)" }
        if let messageBody { text += "--- message ---\n\(messageBody)" }
        return text
    }
}
