import Support

/// How a front end follows the opening of an address book (``ListingCache/open(paths:configuration:group:needsContacts:namesSources:progressAfter:observer:)``):
/// it runs each long step (showing its label and progress, e.g. on a terminal), and hears the notes and the
/// book's diagnostics as they come.
///
/// ```swift
/// struct Quiet: ListingObserver {
///     func step<T>(_ label: String, after: Double?, progress: WorkProgress?, _ work: () throws -> T) rethrows -> T {
///         try work()
///     }
///     func note(_ text: String) {}
///     func diagnostic(_ text: String) {}
/// }
/// ```
public protocol ListingObserver {
    /// Runs `work`, a step called `label` ("reading contacts.vcf"); `progress` counts its bytes when their
    /// total is known; `after`: seconds before it is shown (0 at once, nil the front end's usual delay).
    func step<T>(_ label: String, after: Double?, progress: WorkProgress?, _ work: () throws -> T) rethrows -> T
    /// What happened to a saved list on the way ("…: index is out of date (…); rebuilding it").
    func note(_ text: String)
    /// A problem in a card of the book (file, line, column and message), as text.
    func diagnostic(_ text: String)
}

/// An observer that shows nothing and drops what it hears.
public struct SilentListingObserver: ListingObserver {
    public init() {}
    public func step<T>(_ label: String, after: Double?, progress: WorkProgress?, _ work: () throws -> T) rethrows
        -> T
    { try work() }
    public func note(_ text: String) {}
    public func diagnostic(_ text: String) {}
}
