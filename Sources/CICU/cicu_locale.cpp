// CICU: locale identifiers and properties, the C side of ICUKit's Formatting.swift (ICULocale).
#include "cicu_bridge.h"

extern "C" {

int32_t cicu_locale_transform(const char *locale, int32_t operation, char *out, int32_t capacity,
                              int32_t *status) {
    if (failed(status)) return 0;
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        Locale l = localeOf(locale);
        Locale result = l;
        if (operation == CICU_LOCALE_ADD_LIKELY) {
            result.addLikelySubtags(ec);
        } else if (operation == CICU_LOCALE_MINIMIZE) {
            result.minimizeSubtags(ec);
        } else {
            result.canonicalize(ec);
        }
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        std::string tag = result.toLanguageTag<std::string>(ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(tag, out, capacity, status);
    })
}

int32_t cicu_locale_is_rtl(const char *locale) {
    try {
        std::string name = localeOf(locale).getName();
        return uloc_isRightToLeft(name.c_str()) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

int32_t cicu_locale_language_is_known(const char *locale) {
    try {
        Locale l = localeOf(locale);
        if (l.isBogus()) return 0;
        std::string code = l.getLanguage();
        if (code.empty()) return 1;  // the root locale ("und")
        UnicodeString name;
        l.getDisplayLanguage(Locale::getEnglish(), name);
        std::string display;
        name.toUTF8String(display);
        return display != code ? 1 : 0;  // ICU shows the code itself for a language it has no name for
    } catch (...) {
        return 0;
    }
}

}  // extern "C"
