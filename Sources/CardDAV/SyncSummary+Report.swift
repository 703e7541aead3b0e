import Foundation

/// What a sync did, as the lines `contacts sync` prints (not yet made safe for a terminal: the caller does
/// that, line by line).
extension SyncSummary {
    /// Whether the sync went through cleanly: no new conflict, every member read, every change accepted.
    public var isClean: Bool {
        conflicts.isEmpty && metadataConflicts.isEmpty && unreadable.isEmpty && failed.isEmpty
    }

    /// One line of counts, then one line per conflict, member not read and change not sent.
    public var report: [String] {
        let total = conflicts.count + metadataConflicts.count
        var counts =
            "\(collection): \(pulled) received, \(removedLocally) removed here, \(pushed) sent, "
            + "\(removedOnServer) removed on the server, \(merged) merged, \(total) conflict\(total == 1 ? "" : "s")"
        if !metadataReceived.isEmpty { counts += ", \(metadataReceived.joined(separator: " and ")) received" }
        if !metadataSent.isEmpty { counts += ", \(metadataSent.joined(separator: " and ")) sent" }
        if notSent > 0 { counts += ", \(notSent) not sent (read-only)" }
        if fullResync { counts += " (the server forgot the sync-token: everything was listed again)" }
        counts += " — \(requests) request\(requests == 1 ? "" : "s")"
        return [counts] + conflicts.map(\.report)
            + metadataConflicts.map {
                "conflict: \($0.name) changed on both sides: the server's \($0.theirs.map { "'\($0)'" } ?? "(none)") "
                    + "is kept in the folder; yours was '\($0.mine)'"
            }
            + unreadable.map { "not read: \($0)" } + failed.map { "not sent: \($0)" }
    }
}

extension SyncConflict {
    /// `conflict: FILE (PROPERTIES changed on both sides): …` for the user.
    public var report: String {
        "conflict: \(file) (\(properties.joined(separator: ", ")) changed on both sides): the server's version "
            + "is in the folder, yours is kept in \(copy)"
    }

    /// What settling it property by property did, for the user (a property not in `chosen`: the server's).
    public func settledReport(_ chosen: [String: PropertyChoice]) -> String {
        "\(file): " + properties.map { "\($0) \((chosen[$0] ?? .theirs).rawValue)" }.joined(separator: ", ")
            + (chosen.values.contains { $0 != .theirs } ? "; the next sync sends it" : "")
    }

    /// What settling it with `take` did, for the user.
    public func settledReport(_ take: ConflictSide) -> String {
        let what = properties.joined(separator: ", ")
        return take == .mine
            ? "\(file): yours kept (\(what)); the next sync sends it" : "\(file): the server's version kept (\(what))"
    }
}

extension BooksSyncSummary {
    /// Whether every book synced cleanly.
    public var isClean: Bool { books.allSatisfy { $0.summary?.isClean == true } }

    /// The notes of every book (`BOOK: note: …`).
    public var notes: [String] { books.flatMap { book in book.notes.map { "\(book.name): note: \($0)" } } }

    /// Each book's report (or why it failed), then the folders whose book is gone, kept or removed.
    public var report: [String] {
        books.flatMap { $0.summary?.report ?? ["\($0.name): failed: \($0.error ?? "")"] }
            + gone.map { "\($0): its address book is gone from the server (kept; --prune removes it)" }
            + pruned.map { "\($0): removed (its address book is gone)" }
    }
}

extension AddressBookCollection {
    /// `URL  NAME  (sync-collection|etag listing)`, as `contacts sync --list` shows it.
    public var listing: String {
        "\(url)  \(displayName ?? "-")  (\(supportsSyncCollection ? "sync-collection" : "etag listing"))"
    }
}
