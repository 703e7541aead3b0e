/// `NameOrder`, `PersonName` and `NameSortOrder` live in `Locales` (one name policy for lists, search,
/// templates and mail headers); importing Collation brings them along.
@_exported import Locales
