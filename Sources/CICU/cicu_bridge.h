// CICU's private header: what every cicu_<service>.cpp shares (ICU headers, the UTF-8 and preflight helpers,
// the exception guard, handles that two services use). The public C API stays in include/cicu.h.
// Policy-free: every function maps its arguments onto ICU and its result back; no caching, no defaults
// beyond ICU's own. Every C++ exception is caught at the boundary (CICU_GUARD).
#ifndef CICU_BRIDGE_H
#define CICU_BRIDGE_H

#include "cicu.h"

#include <unicode/alphaindex.h>
#include <unicode/brkiter.h>
#include <unicode/uchar.h>
#include <unicode/coll.h>
#include <unicode/datefmt.h>
#include <unicode/dtptngen.h>
#include <unicode/listformatter.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/numberformatter.h>
#include <unicode/plurrule.h>
#include <unicode/smpdtfmt.h>
#include <unicode/tblcoll.h>
#include <unicode/translit.h>
#include <unicode/ucnv.h>
#include <unicode/ucol.h>
#include <unicode/uidna.h>
#include <unicode/uloc.h>
#include <unicode/unistr.h>
#include <unicode/uniset.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uversion.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

using namespace icu;

namespace {

inline bool failed(const int32_t *status) { return status == nullptr || *status > 0; }

inline UnicodeString fromUTF8(const char *utf8, int32_t length) {
    if (utf8 == nullptr) return UnicodeString();
    if (length < 0) length = static_cast<int32_t>(std::strlen(utf8));
    return UnicodeString::fromUTF8(StringPiece(utf8, length));
}

/// Copies a UTF-8 std::string to a caller buffer with ICU preflight semantics.
inline int32_t copyOut(const std::string &s, char *out, int32_t capacity, int32_t *status) {
    int32_t needed = static_cast<int32_t>(s.size());
    if (out != nullptr && capacity > 0) {
        std::memcpy(out, s.data(), static_cast<size_t>(needed < capacity ? needed : capacity));
    }
    if (needed > capacity) *status = U_BUFFER_OVERFLOW_ERROR;
    return needed;
}

inline int32_t copyOut(const UnicodeString &u, char *out, int32_t capacity, int32_t *status) {
    std::string s;
    u.toUTF8String(s);
    return copyOut(s, out, capacity, status);
}

inline Locale localeOf(const char *id) {
    if (id == nullptr || *id == 0) return Locale::getRoot();
    UErrorCode ec = U_ZERO_ERROR;
    Locale l = Locale::forLanguageTag(id, ec);
    if (U_FAILURE(ec) || l.isBogus() || (l.getLanguage()[0] == 0 && std::strchr(id, '_') != nullptr)) {
        return Locale::createFromName(id);  // ICU form such as "zh_CN"
    }
    return l;
}

#define CICU_GUARD(fallback, ...)                                    \
    try {                                                           \
        __VA_ARGS__                                                 \
    } catch (const std::bad_alloc &) {                              \
        if (status) *status = U_MEMORY_ALLOCATION_ERROR;            \
    } catch (...) {                                                 \
        if (status) *status = U_INTERNAL_PROGRAM_ERROR;             \
    }                                                               \
    return fallback;


/// The number formatter for a locale and an ICU number skeleton ("" or NULL: ICU's default).
inline number::LocalizedNumberFormatter numberFormatter(const char *locale, const char *skeleton, UErrorCode &ec) {
    return (skeleton && *skeleton ? number::NumberFormatter::forSkeleton(fromUTF8(skeleton, -1), ec)
                                  : number::NumberFormatter::with())
        .locale(localeOf(locale));
}

}  // namespace

struct cicu_collator {
    std::unique_ptr<Collator> collator;
};
struct cicu_plural {
    std::unique_ptr<PluralRules> rules;
    Locale locale;
};

#endif  // CICU_BRIDGE_H
