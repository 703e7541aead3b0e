import Foundation

/// The process environment, read once.
public enum ProcessInfoEnvironment {
    public static var current: [String: String] { ProcessInfo.processInfo.environment }
}
