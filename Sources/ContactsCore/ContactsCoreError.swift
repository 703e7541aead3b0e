public enum ContactsCoreError: Error, Equatable, Sendable {}
