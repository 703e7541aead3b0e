import ArgumentModel
import Composer

/// `--daily-cap N`, `--jitter DURATION` and `--provider gmail|workspace|m365` of `compose`, `pick` and
/// `outbox send`: pacing as a provider expects (`OutboxPolicy`, `ProviderLimits`).
struct ThrottleOptions {
    var dailyCap: Int?
    var jitter: Double?
    var maxRecipients: Int?
    var perMinute: Double?
    /// The words that ask for these again (for a resume hint).
    var words: [String] = []

    static let options: [OptionSpec] = [
        .option(
            "--daily-cap", value: "N",
            help: """
                send at most N messages in any 24 hours from the outbox; at the cap the run stops
                cleanly (exit 1) and says how to send the rest on a later day, from the same outbox
                """, section: DeliveryOptions.section),
        .option(
            "--jitter", value: "DURATION",
            help: "wait up to DURATION more (at random) before each message, e.g. 5s", section: DeliveryOptions.section),
        .option(
            "--provider", value: "NAME",
            help: """
                the published limits of the account's provider, unless --daily-cap or --rate say
                less: gmail 500 messages a day, 100 recipients a message (support.google.com/mail/
                answer/22839); workspace 2,000 a day, 100 a message (support.google.com/a/answer/
                166852); m365 10,000 recipients a day, 500 a message, 30 messages a minute
                (learn.microsoft.com, "Exchange Online limits"); a message over the per-message
                limit is refused, naming its recipient
                """, completion: .values(ProviderLimits.presets.map(\.name)), section: DeliveryOptions.section),
    ]

    static func parse(_ args: inout Arguments, command: String) throws -> ThrottleOptions {
        var options = ThrottleOptions()
        if let text = try args.option("--daily-cap") {
            guard let n = Int(text), n > 0 else {
                throw CLIError.usage("\(command): --daily-cap: expected a whole number above 0, got '\(text)'")
            }
            options.dailyCap = n
            options.words += ["--daily-cap", text]
        }
        if let text = try args.option("--jitter") {
            options.jitter = try parseDuration(text, option: "--jitter", command: command, in: 0...3600)
            options.words += ["--jitter", text]
        }
        if let name = try args.option("--provider") {
            guard let limits = ProviderLimits(name: name) else {
                throw CLIError.usage(
                    "\(command): --provider: expected one of \(ProviderLimits.presets.map(\.name).joined(separator: ", ")), got '\(name)'"
                )
            }
            options.dailyCap = min(options.dailyCap ?? .max, limits.messagesPerDay)
            options.maxRecipients = limits.recipientsPerMessage
            options.perMinute = limits.messagesPerMinute
            options.words += ["--provider", name]
        }
        return options
    }
}
