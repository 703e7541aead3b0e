import Foundation

/// The C library's locale for a terminal program: the environment's (`LC_ALL`, `LC_CTYPE`, `LANG`), and
/// UTF-8 character handling even when that locale is not installed on the machine (`LANG=ja_JP.UTF-8` on
/// a system with only `C.UTF-8`): ncursesw reads and writes wide characters by the character type.
/// The language of the texts is not decided here (see `LocalePolicy`), only how bytes become characters.
public enum TerminalLocale {
    /// Sets the locale from the environment, falling back to `C.UTF-8` for the character type when the
    /// environment's locale cannot be set or is not UTF-8. Returns the character set in use ("UTF-8").
    @discardableResult
    public static func prepare() -> String {
        let applied = setlocale(LC_ALL, "") != nil
        if !applied || codeset != "UTF-8" {
            for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
                break
            }
        }
        return codeset
    }

    /// `nl_langinfo(CODESET)` of the current locale.
    public static var codeset: String {
        guard let text = nl_langinfo(nl_item(CODESET)) else { return "" }
        return String(cString: text)
    }
}
