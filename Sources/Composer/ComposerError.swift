public enum ComposerError: Error, Equatable, Sendable {}
