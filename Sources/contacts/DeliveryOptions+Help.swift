import ArgumentModel

/// The delivery options' declarations (help, completion) for `compose`, `pick` and `outbox send`.
extension DeliveryOptions {
    /// The delivery options, listed under "Delivery:" in help.
    static let options = declared + SentCopyOptions.options + ThrottleOptions.options

    private static let declared: [OptionSpec] = [
        .option(
            "--out", value: "DIR", help: "write one .eml per mail draft and messages.sms.txt (sms: URIs) into DIR",
            completion: .directory, section: section),
        .option(
            "--smtp", value: "URL", help: "deliver through smtp://host[:port] or smtps://host[:port]", section: section),
        .flag("--starttls", help: "with --smtp: require STARTTLS (default: use it when offered)", section: section),
        .option(
            "--ca-file", value: "FILE", help: "with --smtp: trust the CAs in FILE (PEM)", completion: .file,
            section: section),
        .option(
            "--user", value: "U",
            help: """
                with --smtp: AUTH as U, only after TLS (STARTTLS or smtps://) unless the server is on
                the loopback interface; the password from --password-file, --password-command or a prompt
                """, section: section),
        PasswordOptions.file(section: section),
        PasswordOptions.command(section: section),
        .flag(
            "--allow-plaintext-auth",
            help: "with --user: AUTH without TLS to any server (the password in clear text)", section: section),
        .flag(
            "--never-plaintext-auth", help: "with --user: AUTH only after TLS, on the loopback interface too",
            section: section),
        .option(
            "--auth", value: "plain|login", help: "with --smtp: restrict the AUTH mechanism",
            completion: .values(["plain", "login"]), section: section),
        .flag("--sendmail", help: "pipe to sendmail", section: section),
        .option(
            "--sendmail-program", value: "PATH", help: "the sendmail program to pipe to (implies --sendmail)",
            completion: .file, section: section),
        .flag("--uri", help: "print mailto:/sms: URIs", section: section),
        .option(
            "--sms-program", value: "PATH",
            help: """
                send text messages through PATH (the E.164 number as argument, the body on
                stdin; exit 0 sent, 75 retried, other failed), queued in the outbox with the mail
                """, completion: .file, section: section),
        .option(
            "--maildir", value: "DIR", help: "write every mail into the Maildir DIR (new/), at once",
            completion: .directory, section: section),
        .option(
            "--mbox", value: "FILE", help: "append every mail to the mbox FILE (mboxrd, under its lock), at once",
            completion: .file, section: section),
        .flag(
            "--send",
            help: """
                with --smtp, --sendmail or --sms-program: really deliver (without it: a dry run that
                prints what would be sent; --out, --maildir, --mbox and --uri write at once)
                """, section: section),
        .option(
            "--resume", value: "DIR",
            help: """
                continue the outbox DIR of an interrupted --send (without it, --send makes a new
                outbox folder, outbox-YYYYMMDD-HHMMSS[-N], in the current folder)
                """, completion: .directory, section: section),
        .flag(
            "--new-batch",
            help: """
                with --send: make a new outbox even when an unfinished outbox of the same batch
                (template, data, recipients, transport) is in the current folder (default: refuse
                and print the command that resumes it)
                """, section: section),
        .option(
            "--rate", value: "N/min|N/hour", help: "at most N messages per minute (or hour); at least 1/hour",
            section: section),
        .option("--from", value: "ADDR", help: #"the sender (one address), "Name <addr>" or addr"#, section: section),
        .option(
            "--reply-timeout", value: "S",
            help: """
                seconds to wait for the server's reply after the end of a message
                (default 600, RFC 5321); when it runs out the message is uncertain
                """, section: section),
        .option(
            "--command-timeout", value: "S",
            help: "seconds to wait for the reply to each other SMTP command (default 300)",
            section: section),
        .option("--connect-timeout", value: "S", help: "seconds to connect (default 10)", section: section),
        .option(
            "--sendmail-timeout", value: "S", help: "seconds sendmail may take for one message (default 600)",
            section: section),
        .option(
            "--max-message-size", value: "SIZE",
            help: """
                refuse a recipient whose message (attachments included) is larger:
                bytes, or with K, M, G (default 25M); the server's own SIZE is respected too
                """, section: section),
        .option(
            "--attempts", value: "N", help: "tries per message in this run for transient failures (default 5)",
            section: section),
        .option(
            "--backoff", value: "S", help: "seconds before the first retry, doubled for each further one (default 2)",
            section: section),
    ]

    /// The help section of the delivery options.
    static let section = "Delivery"

    /// The options that pick where drafts go and how a new run starts, which only `compose` takes:
    /// `outbox send` delivers an outbox that exists, with its messages' own senders, for real.
    static let composeOnly: Set<String> = [
        "--out", "--uri", "--send", "--resume", "--new-batch", "--from", "--max-message-size", "--maildir", "--mbox",
    ]

    /// The delivery options of `outbox send`: the transport (SMTP or sendmail), rate, timeouts and retries.
    static let transportOptions = options.filter { !composeOnly.contains($0.name) }
}
