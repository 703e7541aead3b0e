public enum StringsCatalogError: Error, Equatable, Sendable {}
