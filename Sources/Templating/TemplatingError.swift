public enum TemplatingError: Error, Equatable, Sendable {}
