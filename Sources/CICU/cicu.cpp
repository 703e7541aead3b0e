// CICU — implementation of the plain-C ICU bridge declared in include/cicu.h.
// Policy-free: every function maps its arguments onto ICU and its result back; no caching, no defaults
// beyond ICU's own. Every C++ exception is caught here.

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
int32_t copyOut(const std::string &s, char *out, int32_t capacity, int32_t *status) {
    int32_t needed = static_cast<int32_t>(s.size());
    if (out != nullptr && capacity > 0) {
        std::memcpy(out, s.data(), static_cast<size_t>(needed < capacity ? needed : capacity));
    }
    if (needed > capacity) *status = U_BUFFER_OVERFLOW_ERROR;
    return needed;
}

int32_t copyOut(const UnicodeString &u, char *out, int32_t capacity, int32_t *status) {
    std::string s;
    u.toUTF8String(s);
    return copyOut(s, out, capacity, status);
}

Locale localeOf(const char *id) {
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
number::LocalizedNumberFormatter numberFormatter(const char *locale, const char *skeleton, UErrorCode &ec) {
    return (skeleton && *skeleton ? number::NumberFormatter::forSkeleton(fromUTF8(skeleton, -1), ec)
                                  : number::NumberFormatter::with())
        .locale(localeOf(locale));
}

}  // namespace

struct cicu_collator {
    std::unique_ptr<Collator> collator;
};
struct cicu_index_builder {
    std::unique_ptr<AlphabeticIndex> index;
};
struct cicu_index {
    std::unique_ptr<AlphabeticIndex::ImmutableIndex> index;
    std::vector<std::string> labels;
    std::vector<int32_t> types;
};
struct cicu_translit {
    std::unique_ptr<Transliterator> translit;
};
struct cicu_plural {
    std::unique_ptr<PluralRules> rules;
    Locale locale;
};
struct cicu_msgfmt {
    std::unique_ptr<MessageFormat> format;
    std::vector<std::string> names;
};

extern "C" {

const char *cicu_error_name(int32_t status) { return u_errorName(static_cast<UErrorCode>(status)); }

const char *cicu_version(void) { return U_ICU_VERSION; }

// ---------------------------------------------------------------- Collator

cicu_collator *cicu_collator_open(const char *locale, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<Collator> c(Collator::createInstance(localeOf(locale), ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        if (ec != U_ZERO_ERROR) *status = ec;  // warnings such as U_USING_DEFAULT_WARNING
        auto *h = new cicu_collator;
        h->collator = std::move(c);
        return h;
    })
}

void cicu_collator_close(cicu_collator *collator) { delete collator; }

void cicu_collator_configure(cicu_collator *collator, int32_t strength, int32_t numeric,
                             int32_t alternate_shifted, int32_t case_level, int32_t *status) {
    if (failed(status)) return;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        Collator &c = *collator->collator;
        if (strength >= 0) c.setAttribute(UCOL_STRENGTH, static_cast<UColAttributeValue>(strength), ec);
        if (numeric >= 0) c.setAttribute(UCOL_NUMERIC_COLLATION, numeric ? UCOL_ON : UCOL_OFF, ec);
        if (alternate_shifted >= 0)
            c.setAttribute(UCOL_ALTERNATE_HANDLING, alternate_shifted ? UCOL_SHIFTED : UCOL_NON_IGNORABLE, ec);
        if (case_level >= 0) c.setAttribute(UCOL_CASE_LEVEL, case_level ? UCOL_ON : UCOL_OFF, ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

int32_t cicu_collator_sort_key(const cicu_collator *collator, const char *utf8, int32_t length, uint8_t *key,
                               int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString s = fromUTF8(utf8, length);
        int32_t needed = collator->collator->getSortKey(s, key, capacity);
        if (needed == 0) {
            *status = U_INTERNAL_PROGRAM_ERROR;
        } else if (needed > capacity) {
            *status = U_BUFFER_OVERFLOW_ERROR;
        }
        return needed;
    })
}

int32_t cicu_collator_sort_keys(const cicu_collator *collator, const char *text, const int32_t *offsets,
                                int32_t count, uint8_t *keys, int32_t capacity, int32_t *key_offsets,
                                int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr || offsets == nullptr || key_offsets == nullptr || count < 0) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        const Collator &c = *collator->collator;
        UErrorCode ec = U_ZERO_ERROR;
        // Reuse one UTF-16 buffer for all names (the hot loop allocates nothing per name).
        std::vector<UChar> u16(256);
        int32_t used = 0;
        for (int32_t i = 0; i < count; ++i) {
            const char *s = text + offsets[i];
            int32_t n = offsets[i + 1] - offsets[i];
            int32_t u16len = 0;
            ec = U_ZERO_ERROR;
            u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &u16len, s, n, 0xFFFD, nullptr, &ec);
            if (ec == U_BUFFER_OVERFLOW_ERROR || u16len > static_cast<int32_t>(u16.size())) {
                u16.resize(static_cast<size_t>(u16len) + 16);
                ec = U_ZERO_ERROR;
                u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &u16len, s, n, 0xFFFD, nullptr, &ec);
            }
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
            key_offsets[i] = used;
            int32_t room = capacity - used;
            int32_t needed = c.getSortKey(u16.data(), u16len, keys + used, room > 0 ? room : 0);
            if (needed == 0) {
                *status = U_INTERNAL_PROGRAM_ERROR;
                return 0;
            }
            if (needed > room) {
                *status = U_BUFFER_OVERFLOW_ERROR;
                // Upper bound for a retry: what we used so far plus a generous estimate for the rest.
                int64_t rest = static_cast<int64_t>(offsets[count] - offsets[i]) * 6 + (count - i) * 16 + needed;
                int64_t bound = static_cast<int64_t>(used) + rest;
                return bound > INT32_MAX ? INT32_MAX : static_cast<int32_t>(bound);
            }
            used += needed;
        }
        key_offsets[count] = used;
        return used;
    })
}

int32_t cicu_collator_compare(const cicu_collator *collator, const char *a, int32_t a_length, const char *b,
                              int32_t b_length, int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        if (a_length < 0) a_length = static_cast<int32_t>(std::strlen(a));
        if (b_length < 0) b_length = static_cast<int32_t>(std::strlen(b));
        UCollationResult r =
            collator->collator->compareUTF8(StringPiece(a, a_length), StringPiece(b, b_length), ec);
        if (U_FAILURE(ec)) *status = ec;
        return static_cast<int32_t>(r);
    })
}

// ---------------------------------------------------------------- AlphabeticIndex

cicu_index_builder *cicu_index_builder_open(const char *locale, const cicu_collator *collator, int32_t *status) {
    if (failed(status)) return nullptr;
    const RuleBasedCollator *rules =
        collator == nullptr ? nullptr : dynamic_cast<const RuleBasedCollator *>(collator->collator.get());
    if (collator != nullptr && rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<AlphabeticIndex> idx;
        if (rules == nullptr) {
            idx.reset(new AlphabeticIndex(localeOf(locale), ec));
        } else {
            // The index adopts the copy; built this way it has no labels until addLabels.
            idx.reset(new AlphabeticIndex(rules->clone(), ec));
            if (U_SUCCESS(ec)) idx->addLabels(localeOf(locale), ec);
        }
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_index_builder;
        h->index = std::move(idx);
        return h;
    })
}

void cicu_index_builder_close(cicu_index_builder *builder) { delete builder; }

void cicu_index_builder_add_locale(cicu_index_builder *builder, const char *locale, int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        builder->index->addLabels(localeOf(locale), ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

void cicu_index_builder_add_set(cicu_index_builder *builder, const char *pattern, int32_t length,
                                int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        UnicodeSet set(fromUTF8(pattern, length), ec);
        if (U_SUCCESS(ec)) builder->index->addLabels(set, ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

void cicu_index_builder_set_max_labels(cicu_index_builder *builder, int32_t max, int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    UErrorCode ec = U_ZERO_ERROR;
    builder->index->setMaxLabelCount(max, ec);
    if (U_FAILURE(ec)) *status = ec;
}

cicu_index *cicu_index_build(cicu_index_builder *builder, int32_t *status) {
    if (failed(status)) return nullptr;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<AlphabeticIndex::ImmutableIndex> imm(builder->index->buildImmutableIndex(ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_index;
        int32_t n = imm->getBucketCount();
        for (int32_t i = 0; i < n; ++i) {
            const AlphabeticIndex::Bucket *b = imm->getBucket(i);
            std::string label;
            b->getLabel().toUTF8String(label);
            h->labels.push_back(label);
            int32_t t = CICU_LABEL_NORMAL;
            switch (b->getLabelType()) {
                case U_ALPHAINDEX_NORMAL: t = CICU_LABEL_NORMAL; break;
                case U_ALPHAINDEX_UNDERFLOW: t = CICU_LABEL_UNDERFLOW; break;
                case U_ALPHAINDEX_INFLOW: t = CICU_LABEL_INFLOW; break;
                case U_ALPHAINDEX_OVERFLOW: t = CICU_LABEL_OVERFLOW; break;
            }
            h->types.push_back(t);
        }
        h->index = std::move(imm);
        return h;
    })
}

void cicu_index_close(cicu_index *index) { delete index; }

int32_t cicu_index_bucket_count(const cicu_index *index) {
    return index == nullptr ? 0 : static_cast<int32_t>(index->labels.size());
}

int32_t cicu_index_bucket_label(const cicu_index *index, int32_t bucket, char *label, int32_t capacity,
                                int32_t *status) {
    if (failed(status)) return 0;
    if (index == nullptr || bucket < 0 || bucket >= static_cast<int32_t>(index->labels.size())) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    return copyOut(index->labels[static_cast<size_t>(bucket)], label, capacity, status);
}

int32_t cicu_index_bucket_label_type(const cicu_index *index, int32_t bucket) {
    if (index == nullptr || bucket < 0 || bucket >= static_cast<int32_t>(index->types.size())) return -1;
    return index->types[static_cast<size_t>(bucket)];
}

int32_t cicu_index_bucket_of(const cicu_index *index, const char *utf8, int32_t length, int32_t *status) {
    if (failed(status)) return 0;
    if (index == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        int32_t b = index->index->getBucketIndex(fromUTF8(utf8, length), ec);
        if (U_FAILURE(ec)) *status = ec;
        return b;
    })
}

// ---------------------------------------------------------------- Transliterator

cicu_translit *cicu_translit_open(const char *id, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<Transliterator> t(Transliterator::createInstance(fromUTF8(id, -1), UTRANS_FORWARD, ec));
        if (U_FAILURE(ec) || !t) {
            *status = U_FAILURE(ec) ? ec : U_INVALID_ID;
            return nullptr;
        }
        auto *h = new cicu_translit;
        h->translit = std::move(t);
        return h;
    })
}

cicu_translit *cicu_translit_open_rules(const char *id, const char *rules, int32_t length, int32_t *parse_offset,
                                        int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UParseError pe;
        std::unique_ptr<Transliterator> t(Transliterator::createFromRules(
            fromUTF8(id ? id : "Custom", -1), fromUTF8(rules, length), UTRANS_FORWARD, pe, ec));
        if (U_FAILURE(ec) || !t) {
            if (parse_offset) *parse_offset = pe.offset;
            *status = U_FAILURE(ec) ? ec : U_INVALID_ID;
            return nullptr;
        }
        auto *h = new cicu_translit;
        h->translit = std::move(t);
        return h;
    })
}

void cicu_translit_close(cicu_translit *translit) { delete translit; }

int32_t cicu_translit_transform(cicu_translit *translit, const char *utf8, int32_t length, char *out,
                                int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (translit == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString s = fromUTF8(utf8, length);
        translit->translit->transliterate(s);
        return copyOut(s, out, capacity, status);
    })
}

// ---------------------------------------------------------------- Plural rules

cicu_plural *cicu_plural_open(const char *locale, int32_t type, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        Locale loc = localeOf(locale);
        std::unique_ptr<PluralRules> r(
            PluralRules::forLocale(loc, type == CICU_PLURAL_ORDINAL ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_plural;
        h->rules = std::move(r);
        h->locale = loc;
        return h;
    })
}

void cicu_plural_close(cicu_plural *rules) { delete rules; }

int32_t cicu_available_locale_count(void) { return uloc_countAvailable(); }

const char *cicu_available_locale(int32_t index) {
    if (index < 0 || index >= uloc_countAvailable()) return nullptr;
    return uloc_getAvailable(index);
}

int32_t cicu_plural_select(const cicu_plural *rules, double number, int32_t fraction_digits, char *keyword,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString k;
        if (fraction_digits < 0) {
            k = rules->rules->select(number);
        } else {
            UErrorCode ec = U_ZERO_ERROR;
            auto fmt = number::NumberFormatter::withLocale(rules->locale)
                           .precision(number::Precision::fixedFraction(fraction_digits))
                           .grouping(UNUM_GROUPING_OFF);
            number::FormattedNumber fn = fmt.formatDouble(number, ec);
            if (U_SUCCESS(ec)) k = rules->rules->select(fn, ec);
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
        }
        return copyOut(k, keyword, capacity, status);
    })
}

int32_t cicu_plural_keywords(const cicu_plural *rules, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<StringEnumeration> e(rules->rules->getKeywords(ec));
        std::string all;
        if (U_SUCCESS(ec) && e) {
            const char *kw;
            int32_t len;
            while ((kw = e->next(&len, ec)) != nullptr && U_SUCCESS(ec)) {
                if (!all.empty()) all += ' ';
                all.append(kw, static_cast<size_t>(len));
            }
        }
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(all, out, capacity, status);
    })
}

// ---------------------------------------------------------------- IDNA (UTS #46)

struct cicu_idna {
    UIDNA *idna;
};

cicu_idna *cicu_idna_open(uint32_t options, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UIDNA *idna = uidna_openUTS46(options, &ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        return new cicu_idna{idna};
    })
}

void cicu_idna_close(cicu_idna *idna) {
    if (idna == nullptr) return;
    uidna_close(idna->idna);
    delete idna;
}

int32_t cicu_idna_name_to_ascii(const cicu_idna *idna, const char *name, int32_t length, char *out,
                                int32_t capacity, uint32_t *errors, int32_t *status) {
    if (failed(status)) return 0;
    if (idna == nullptr || (name == nullptr && length != 0) || capacity < 0 || (out == nullptr && capacity > 0)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        int32_t needed = uidna_nameToASCII_UTF8(idna->idna, name, length, out, capacity, &info, &ec);
        if (errors != nullptr) *errors = info.errors;
        if (U_FAILURE(ec) && ec != U_BUFFER_OVERFLOW_ERROR) {
            *status = ec;
            return 0;
        }
        if (ec == U_BUFFER_OVERFLOW_ERROR) *status = U_BUFFER_OVERFLOW_ERROR;
        return needed;
    })
}

// ---------------------------------------------------------------- Lists, numbers, dates

int32_t cicu_list_format(const char *locale, int32_t type, int32_t width, const char *const *items,
                         const int32_t *lengths, int32_t count, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (count < 0 || (count > 0 && (items == nullptr || lengths == nullptr))) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UListFormatterType t = type == CICU_LIST_OR ? ULISTFMT_TYPE_OR
                               : type == CICU_LIST_UNITS ? ULISTFMT_TYPE_UNITS
                                                         : ULISTFMT_TYPE_AND;
        UListFormatterWidth w = width == CICU_WIDTH_SHORT    ? ULISTFMT_WIDTH_SHORT
                                : width == CICU_WIDTH_NARROW ? ULISTFMT_WIDTH_NARROW
                                                             : ULISTFMT_WIDTH_WIDE;
        std::unique_ptr<ListFormatter> lf(ListFormatter::createInstance(localeOf(locale), t, w, ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        std::vector<UnicodeString> parts;
        parts.reserve(static_cast<size_t>(count));
        for (int32_t i = 0; i < count; ++i) parts.push_back(fromUTF8(items[i], lengths[i]));
        UnicodeString result;
        lf->format(parts.data(), count, result, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(result, out, capacity, status);
    })
}

int32_t cicu_number_format(const char *locale, const char *skeleton, double value, const char *decimal, char *out,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::LocalizedNumberFormatter f = numberFormatter(locale, skeleton, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        number::FormattedNumber fn =
            decimal != nullptr ? f.formatDecimal(StringPiece(decimal), ec) : f.formatDouble(value, ec);
        UnicodeString s = fn.toString(ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_date_format(const char *locale, const char *time_zone, double millis, int32_t date_style,
                         int32_t time_style, const char *skeleton, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        Locale loc = localeOf(locale);
        std::unique_ptr<DateFormat> df;
        if (skeleton != nullptr && *skeleton != 0) {
            std::unique_ptr<DateTimePatternGenerator> gen(DateTimePatternGenerator::createInstance(loc, ec));
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
            UnicodeString pattern = gen->getBestPattern(fromUTF8(skeleton, -1), ec);
            if (U_SUCCESS(ec)) df.reset(new SimpleDateFormat(pattern, loc, ec));
        } else {
            auto style = [](int32_t s) {
                switch (s) {
                    case 0: return DateFormat::kFull;
                    case 1: return DateFormat::kLong;
                    case 2: return DateFormat::kMedium;
                    case 3: return DateFormat::kShort;
                    default: return DateFormat::kNone;
                }
            };
            df.reset(DateFormat::createDateTimeInstance(style(date_style), style(time_style), loc));
            if (!df) ec = U_UNSUPPORTED_ERROR;
        }
        if (U_FAILURE(ec) || !df) {
            *status = U_FAILURE(ec) ? ec : U_INTERNAL_PROGRAM_ERROR;
            return 0;
        }
        if (time_zone != nullptr && *time_zone != 0) {
            TimeZone *tz = TimeZone::createTimeZone(fromUTF8(time_zone, -1));
            if (*tz == TimeZone::getUnknown()) {
                delete tz;
                *status = U_ILLEGAL_ARGUMENT_ERROR;
                return 0;
            }
            df->adoptTimeZone(tz);
        }
        UnicodeString s;
        df->format(static_cast<UDate>(millis), s);
        return copyOut(s, out, capacity, status);
    })
}

// ---------------------------------------------------------------- MessageFormat

cicu_msgfmt *cicu_msgfmt_open(const char *pattern, int32_t length, const char *locale, int32_t *error_line,
                              int32_t *error_offset, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UParseError pe;
        pe.line = 0;
        pe.offset = -1;
        UnicodeString pat = fromUTF8(pattern, length);
        std::unique_ptr<MessageFormat> mf(new MessageFormat(pat, localeOf(locale), pe, ec));
        if (U_FAILURE(ec)) {
            // ICU reports the offset into the whole pattern in pe.offset; turn it into line + column.
            if (pe.offset >= 0) {
                int32_t line = 1, col = 0;
                for (int32_t i = 0; i < pe.offset && i < pat.length(); ++i) {
                    if (pat.charAt(i) == 0x0A) {
                        ++line;
                        col = 0;
                    } else {
                        ++col;
                    }
                }
                if (error_line) *error_line = line;
                if (error_offset) *error_offset = col;
            }
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_msgfmt;
        // Collect argument names (in order of first appearance) with MessagePattern.
        MessagePattern mp(pat, nullptr, ec);
        if (U_SUCCESS(ec)) {
            for (int32_t i = 0; i < mp.countParts(); ++i) {
                const MessagePattern::Part &part = mp.getPart(i);
                if (part.getType() != UMSGPAT_PART_TYPE_ARG_NAME) continue;
                std::string name;
                mp.getSubstring(part).toUTF8String(name);
                bool seen = false;
                for (const auto &n : h->names) seen = seen || n == name;
                if (!seen) h->names.push_back(name);
            }
        }
        h->format = std::move(mf);
        return h;
    })
}

void cicu_msgfmt_close(cicu_msgfmt *format) { delete format; }

int32_t cicu_msgfmt_arg_count(const cicu_msgfmt *format) {
    return format == nullptr ? 0 : static_cast<int32_t>(format->names.size());
}

int32_t cicu_msgfmt_arg_name(const cicu_msgfmt *format, int32_t i, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || i < 0 || i >= static_cast<int32_t>(format->names.size())) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    return copyOut(format->names[static_cast<size_t>(i)], out, capacity, status);
}

int32_t cicu_msgfmt_format(const cicu_msgfmt *format, const cicu_arg *args, int32_t count, char *out,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || count < 0 || (count > 0 && args == nullptr)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        std::vector<UnicodeString> names;
        std::vector<Formattable> values;
        names.reserve(static_cast<size_t>(count));
        values.reserve(static_cast<size_t>(count));
        for (int32_t i = 0; i < count; ++i) {
            const cicu_arg &a = args[i];
            names.push_back(fromUTF8(a.name, a.name_length));
            switch (a.type) {
                case CICU_ARG_DOUBLE: values.emplace_back(a.number); break;
                case CICU_ARG_INT64: values.emplace_back(static_cast<int64_t>(a.integer)); break;
                case CICU_ARG_DATE: values.emplace_back(static_cast<UDate>(a.number), Formattable::kIsDate); break;
                default: values.emplace_back(fromUTF8(a.string, a.string_length)); break;
            }
        }
        UErrorCode ec = U_ZERO_ERROR;
        UnicodeString result;
        format->format->format(names.data(), values.data(), count, result, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(result, out, capacity, status);
    })
}

// ---------------------------------------------------------------- Converters

int32_t cicu_convert_to_utf8(const char *charset, const char *bytes, int32_t length, int32_t strict, char *out,
                             int32_t capacity, int32_t *error_offset, int32_t *status) {
    if (failed(status)) return 0;
    if (charset == nullptr || (bytes == nullptr && length > 0)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UConverter *cnv = ucnv_open(charset, &ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        if (strict) {
            ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &ec);
        }
        if (length < 0) length = static_cast<int32_t>(std::strlen(bytes));
        // bytes → UTF-16 (convert in one go), then UTF-16 → UTF-8.
        std::vector<UChar> u16(static_cast<size_t>(length) * 2 + 16);
        UChar *target = u16.data();
        const char *source = bytes;
        ucnv_toUnicode(cnv, &target, u16.data() + u16.size(), &source, bytes + length, nullptr, true, &ec);
        if (U_FAILURE(ec)) {
            if (error_offset) {
                // The converter stopped after consuming the bad sequence; report where it starts.
                char errBytes[32];
                int8_t errLen = sizeof(errBytes);
                UErrorCode e2 = U_ZERO_ERROR;
                ucnv_getInvalidChars(cnv, errBytes, &errLen, &e2);
                *error_offset = static_cast<int32_t>(source - bytes) - (U_SUCCESS(e2) ? errLen : 0);
            }
            ucnv_close(cnv);
            *status = ec == U_ILLEGAL_CHAR_FOUND || ec == U_TRUNCATED_CHAR_FOUND ? U_INVALID_CHAR_FOUND : ec;
            return 0;
        }
        ucnv_close(cnv);
        UnicodeString s(u16.data(), static_cast<int32_t>(target - u16.data()));
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_convert_from_utf8(const char *charset, const char *utf8, int32_t length, char *out, int32_t capacity,
                               int32_t *status) {
    if (failed(status)) return 0;
    if (charset == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        if (length < 0) length = static_cast<int32_t>(std::strlen(utf8));
        int32_t needed = ucnv_convert(charset, "UTF-8", out, capacity, utf8, length, &ec);
        if (ec == U_BUFFER_OVERFLOW_ERROR || ec == U_STRING_NOT_TERMINATED_WARNING) {
            if (ec == U_BUFFER_OVERFLOW_ERROR) *status = ec;
        } else if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return needed;
    })
}

// ---------------------------------------------------------------- Locales

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

// ---------------------------------------------------------------- Display width

int32_t cicu_display_width(const char *utf8, int32_t length, int32_t *status) {
    if (failed(status)) return -1;
    CICU_GUARD(-1, {
        UnicodeString text = fromUTF8(utf8, length);
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<BreakIterator> clusters(BreakIterator::createCharacterInstance(Locale::getRoot(), ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return -1;
        }
        clusters->setText(text);
        int32_t width = 0;
        int32_t start = clusters->first();
        for (int32_t end = clusters->next(); end != BreakIterator::DONE; start = end, end = clusters->next()) {
            UChar32 base = text.char32At(start);
            bool visible = false, wide = false, emoji = false;
            // The columns of the cluster's spacing characters: a spacing mark (Devanagari's vowel signs, Thai
            // sara am) takes a column of its own on a terminal; a conjoining jamo vowel or final, none.
            int32_t spacing = 0;
            for (int32_t i = start; i < end; i = text.moveIndex32(i, 1)) {
                UChar32 c = text.char32At(i);
                int8_t gc = u_charType(c);
                bool invisible = gc == U_NON_SPACING_MARK || gc == U_ENCLOSING_MARK || gc == U_FORMAT_CHAR ||
                                 gc == U_CONTROL_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
                if (!invisible) visible = true;
                if (c == 0xFE0F && u_hasBinaryProperty(base, UCHAR_EMOJI)) wide = true;
                if (c == 0x200D || u_hasBinaryProperty(c, UCHAR_EMOJI_MODIFIER)) emoji = true;
                int32_t jamo = u_getIntPropertyValue(c, UCHAR_HANGUL_SYLLABLE_TYPE);
                if (!invisible && jamo != U_HST_VOWEL_JAMO && jamo != U_HST_TRAILING_JAMO) {
                    int32_t eaw = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
                    spacing += eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH ? 2 : 1;
                }
            }
            if (!visible) continue;
            int32_t eaw = u_getIntPropertyValue(base, UCHAR_EAST_ASIAN_WIDTH);
            if (eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH || u_hasBinaryProperty(base, UCHAR_EMOJI_PRESENTATION)) {
                wide = true;
            }
            // An emoji sequence (ZWJ, skin tone, flag, presentation selector) is one glyph of one or two
            // columns; any other cluster takes its spacing characters' columns.
            if (wide || emoji || u_hasBinaryProperty(base, UCHAR_EMOJI_PRESENTATION)) {
                width += wide ? 2 : 1;
            } else {
                width += spacing > 0 ? spacing : 1;
            }
        }
        return width;
    })
}

}  // extern "C"

/* ---------------------------------------------------------------- Number formatters (kept open) */

struct cicu_numfmt {
    number::LocalizedNumberFormatter formatter;
};

cicu_numfmt *cicu_numfmt_open(const char *locale, const char *skeleton, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        number::LocalizedNumberFormatter f = numberFormatter(locale, skeleton, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        return new cicu_numfmt{f};
    })
}

void cicu_numfmt_close(cicu_numfmt *format) { delete format; }

namespace {
number::FormattedNumber formatWith(const cicu_numfmt *format, double value, const char *decimal, UErrorCode &ec) {
    return decimal != nullptr ? format->formatter.formatDecimal(StringPiece(decimal), ec)
                              : format->formatter.formatDouble(value, ec);
}
}  // namespace

int32_t cicu_numfmt_format(const cicu_numfmt *format, double value, const char *decimal, char *out,
                           int32_t capacity, int32_t *fields, int32_t field_capacity, int32_t *field_count,
                           int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::FormattedNumber fn = formatWith(format, value, decimal, ec);
        UnicodeString s = fn.toString(ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        if (fields != nullptr && field_count != nullptr) {
            // UTF-16 offsets to UTF-8 offsets: the UTF-8 length of each prefix.
            std::vector<int32_t> utf8At(static_cast<size_t>(s.length()) + 1, 0);
            int32_t bytes = 0;
            for (int32_t i = 0; i < s.length(); ++i) {
                utf8At[static_cast<size_t>(i)] = bytes;
                UChar c = s.charAt(i);
                if (c < 0x80) bytes += 1;
                else if (c < 0x800) bytes += 2;
                else if (U16_IS_LEAD(c)) bytes += 4;
                else if (U16_IS_TRAIL(c)) bytes += 0;
                else bytes += 3;
            }
            utf8At[static_cast<size_t>(s.length())] = bytes;
            ConstrainedFieldPosition cfpos;
            cfpos.constrainCategory(UFIELD_CATEGORY_NUMBER);
            int32_t n = 0;
            while (fn.nextPosition(cfpos, ec) && U_SUCCESS(ec)) {
                if (n < field_capacity) {
                    fields[3 * n] = cfpos.getField();
                    fields[3 * n + 1] = utf8At[static_cast<size_t>(cfpos.getStart())];
                    fields[3 * n + 2] = utf8At[static_cast<size_t>(cfpos.getLimit())];
                }
                ++n;
            }
            *field_count = n;
        }
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_numfmt_plural(const cicu_numfmt *format, const cicu_plural *rules, double value, const char *decimal,
                           char *keyword, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::FormattedNumber fn = formatWith(format, value, decimal, ec);
        UnicodeString k = rules->rules->select(fn, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(k, keyword, capacity, status);
    })
}
