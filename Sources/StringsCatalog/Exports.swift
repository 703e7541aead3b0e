/// The locale policy (fallback chains, the environment's locale) lives in `Locales`, shared with templates,
/// sorting and phone numbers; importing StringsCatalog brings it along.
@_exported import Locales

/// The strings catalog's name for the package's locale policy (`LocalePolicy`, in Locales).
public typealias LanguageMatcher = LocalePolicy
