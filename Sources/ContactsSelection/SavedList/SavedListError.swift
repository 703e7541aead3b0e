/// Why a saved list was not used or could not be written.
public enum SavedListError: Error, CustomStringConvertible, Equatable {
    /// The address book changed since the list was saved (or the list was saved for other options).
    case stale(path: String, reason: String)
    /// The file is not a saved list this version can read, or its bytes do not add up.
    case corrupt(path: String, reason: String)
    case io(path: String, message: String)
    /// Lists with closures in their configuration (validation, `willLoadItems`) cannot be saved.
    case unsupported(String)
    /// The address book changed while it was read for saving: nothing was saved.
    case changedWhileRead(path: String)

    public var description: String {
        switch self {
        case .stale(let path, let reason): return "\(path): index is out of date (\(reason))"
        case .corrupt(let path, let reason): return "\(path): index is unreadable (\(reason))"
        case .io(let path, let message): return "\(path): \(message)"
        case .unsupported(let what): return "cannot save this list: \(what)"
        case .changedWhileRead(let path): return "\(path) changed while it was read; run again"
        }
    }
}
