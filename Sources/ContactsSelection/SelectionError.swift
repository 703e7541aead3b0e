public enum SelectionError: Error, Equatable, Sendable {}
