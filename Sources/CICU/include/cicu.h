/*
 * CICU — a thin, plain-C bridge over the system ICU (icu-uc, icu-i18n).
 *
 * Rules (see ARCHITECTURE.md):
 *  - only <stdint.h>/<stddef.h> here; ICU headers never reach Swift;
 *  - opaque handles, created by *_open and released by *_close;
 *  - strings are UTF-8 (pointer, length); a length of -1 means NUL-terminated;
 *  - outputs follow ICU's preflight convention: the function returns the full length needed; when the
 *    capacity is too small the output is truncated and *status is set to CICU_BUFFER_OVERFLOW;
 *  - `int32_t *status`: 0 is success, > 0 an error (an ICU UErrorCode or one of the CICU_* codes below),
 *    < 0 a warning. A function does nothing when called with *status > 0;
 *  - every C++ exception is caught at the boundary and reported as CICU_INTERNAL_ERROR.
 */
#ifndef CICU_H
#define CICU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes that are not ICU's own (ICU's are passed through unchanged). */
#define CICU_BUFFER_OVERFLOW 15       /* = U_BUFFER_OVERFLOW_ERROR */
#define CICU_ILLEGAL_ARGUMENT 1       /* = U_ILLEGAL_ARGUMENT_ERROR */
#define CICU_INVALID_CHAR_FOUND 10    /* = U_INVALID_CHAR_FOUND */
#define CICU_INTERNAL_ERROR 5         /* = U_INTERNAL_PROGRAM_ERROR */
#define CICU_MEMORY_ERROR 7           /* = U_MEMORY_ALLOCATION_ERROR */

/** Human-readable name of a status code (static storage, never NULL). */
const char *cicu_error_name(int32_t status);
/** The ICU version this bridge is linked against, e.g. "72.1" (static storage). */
const char *cicu_version(void);

/* ---------------------------------------------------------------- Collator */

typedef struct cicu_collator cicu_collator;

enum {
    CICU_STRENGTH_PRIMARY = 0,
    CICU_STRENGTH_SECONDARY = 1,
    CICU_STRENGTH_TERTIARY = 2,
    CICU_STRENGTH_QUATERNARY = 3,
    CICU_STRENGTH_IDENTICAL = 15,
};

/** Opens a collator for a locale ("sv", "zh-Hant", "de-u-co-phonebk", "" for root). */
cicu_collator *cicu_collator_open(const char *locale, int32_t *status);
void cicu_collator_close(cicu_collator *collator);
/** Options; pass -1 to leave one as the locale's default. */
void cicu_collator_configure(cicu_collator *collator, int32_t strength, int32_t numeric,
                             int32_t alternate_shifted, int32_t case_level, int32_t *status);
/** The sort key of one UTF-8 string (including its trailing 0 byte); preflight. */
int32_t cicu_collator_sort_key(const cicu_collator *collator, const char *utf8, int32_t length,
                               uint8_t *key, int32_t capacity, int32_t *status);
/**
 * Sort keys of many strings at once. The strings are `count` slices of `text` delimited by `offsets`
 * (count + 1 entries). Keys are written one after another into `keys` (each ends with its 0 byte);
 * `key_offsets` (count + 1 entries) receives where each starts. Returns the total key length; on
 * CICU_BUFFER_OVERFLOW nothing useful is written and the return value is an upper bound to retry with.
 */
int32_t cicu_collator_sort_keys(const cicu_collator *collator, const char *text, const int32_t *offsets,
                                int32_t count, uint8_t *keys, int32_t capacity, int32_t *key_offsets,
                                int32_t *status);
/** -1, 0 or 1. */
int32_t cicu_collator_compare(const cicu_collator *collator, const char *a, int32_t a_length,
                              const char *b, int32_t b_length, int32_t *status);

/* ---------------------------------------------------------------- AlphabeticIndex */

typedef struct cicu_index_builder cicu_index_builder;
typedef struct cicu_index cicu_index;

enum {
    CICU_LABEL_NORMAL = 0,
    CICU_LABEL_UNDERFLOW = 1,
    CICU_LABEL_INFLOW = 2,
    CICU_LABEL_OVERFLOW = 3,
};

/**
 * Starts an AlphabeticIndex for the locale's labels. With a `collator` (may be NULL) it buckets with a copy
 * of it (its options included, e.g. alternate shifted), so that bucket numbers grow along a list sorted by
 * that collator; without one, with the locale's default collator.
 */
cicu_index_builder *cicu_index_builder_open(const char *locale, const cicu_collator *collator, int32_t *status);
void cicu_index_builder_close(cicu_index_builder *builder);
/** `AlphabeticIndex::addLabels(Locale)`: adds the index characters of another locale ("en"). */
void cicu_index_builder_add_locale(cicu_index_builder *builder, const char *locale, int32_t *status);
/** Adds explicit labels: a UnicodeSet pattern such as "[ABC]" (UTF-8). */
void cicu_index_builder_add_set(cicu_index_builder *builder, const char *pattern, int32_t length,
                                int32_t *status);
/** Limits the number of labels (ICU's default is 99). */
void cicu_index_builder_set_max_labels(cicu_index_builder *builder, int32_t max, int32_t *status);
/** Builds the immutable, thread-safe index (`AlphabeticIndex::buildImmutableIndex`). */
cicu_index *cicu_index_build(cicu_index_builder *builder, int32_t *status);
void cicu_index_close(cicu_index *index);
int32_t cicu_index_bucket_count(const cicu_index *index);
/** Label of bucket `bucket` as UTF-8; preflight. */
int32_t cicu_index_bucket_label(const cicu_index *index, int32_t bucket, char *label, int32_t capacity,
                                int32_t *status);
/** One of CICU_LABEL_*; -1 when out of range. */
int32_t cicu_index_bucket_label_type(const cicu_index *index, int32_t bucket);
/** The bucket a name falls into (thread-safe). */
int32_t cicu_index_bucket_of(const cicu_index *index, const char *utf8, int32_t length, int32_t *status);

/* ---------------------------------------------------------------- Transliterator */

typedef struct cicu_translit cicu_translit;

/** Opens a system transliterator by ID ("Any-Latin", "Han-Latin/Names; Latin-ASCII", …). Not thread-safe. */
cicu_translit *cicu_translit_open(const char *id, int32_t *status);
/** Opens a transliterator from rules; errors report the rule offset in *parse_offset when not NULL. */
cicu_translit *cicu_translit_open_rules(const char *id, const char *rules, int32_t length,
                                        int32_t *parse_offset, int32_t *status);
void cicu_translit_close(cicu_translit *translit);
/** Transliterates UTF-8 text; preflight. */
int32_t cicu_translit_transform(cicu_translit *translit, const char *utf8, int32_t length, char *out,
                                int32_t capacity, int32_t *status);

/* ---------------------------------------------------------------- Plural rules */

typedef struct cicu_plural cicu_plural;

enum { CICU_PLURAL_CARDINAL = 0, CICU_PLURAL_ORDINAL = 1 };

cicu_plural *cicu_plural_open(const char *locale, int32_t type, int32_t *status);
void cicu_plural_close(cicu_plural *rules);
/**
 * The category keyword ("zero", "one", "two", "few", "many", "other") for a number. With
 * `fraction_digits` >= 0 the number is treated as shown with exactly that many decimals ("1.0" is
 * `other` in English); -1 uses the shortest form. Preflight.
 */
int32_t cicu_plural_select(const cicu_plural *rules, double number, int32_t fraction_digits, char *keyword,
                           int32_t capacity, int32_t *status);
/** The locale's categories, space-separated ("one other"); preflight. */
int32_t cicu_plural_keywords(const cicu_plural *rules, char *out, int32_t capacity, int32_t *status);

/** How many locales ICU has data for; `cicu_available_locale(i)` names one (ICU's static string, or NULL). */
int32_t cicu_available_locale_count(void);
const char *cicu_available_locale(int32_t index);

/* ---------------------------------------------------------------- Lists, numbers, dates */

enum { CICU_LIST_AND = 0, CICU_LIST_OR = 1, CICU_LIST_UNITS = 2 };
enum { CICU_WIDTH_WIDE = 0, CICU_WIDTH_SHORT = 1, CICU_WIDTH_NARROW = 2 };

/** "A, B, and C" for the locale. `items`/`lengths` hold `count` UTF-8 strings; preflight. */
int32_t cicu_list_format(const char *locale, int32_t type, int32_t width, const char *const *items,
                         const int32_t *lengths, int32_t count, char *out, int32_t capacity, int32_t *status);

/**
 * Formats a number with an ICU number skeleton ("" for the default, "percent", "currency/EUR",
 * ".00", "compact-short", …). `decimal` (UTF-8 decimal string such as "1234.50") is used when not NULL
 * (exact), else `value`. Preflight.
 */
int32_t cicu_number_format(const char *locale, const char *skeleton, double value, const char *decimal,
                           char *out, int32_t capacity, int32_t *status);

/**
 * Formats a date (milliseconds since 1970 UTC) in a time zone ("UTC", "Europe/Berlin"; NULL for the
 * default zone) with a style (0 full, 1 long, 2 medium, 3 short, -1 none for date and time each) or,
 * when `skeleton` is not NULL/empty, the best pattern for that skeleton ("yMMMd"). Preflight.
 */
int32_t cicu_date_format(const char *locale, const char *time_zone, double millis, int32_t date_style,
                         int32_t time_style, const char *skeleton, char *out, int32_t capacity,
                         int32_t *status);

/* ---------------------------------------------------------------- MessageFormat (named arguments) */

typedef struct cicu_msgfmt cicu_msgfmt;

enum {
    CICU_ARG_STRING = 0,
    CICU_ARG_DOUBLE = 1,
    CICU_ARG_INT64 = 2,
    CICU_ARG_DATE = 3, /* milliseconds since 1970 UTC in `number` */
};

typedef struct cicu_arg {
    const char *name;
    int32_t name_length;
    int32_t type;
    double number;
    int64_t integer;
    const char *string;
    int32_t string_length;
} cicu_arg;

/**
 * Compiles an ICU MessageFormat pattern for a locale. On a syntax error returns NULL, sets *status and
 * fills *error_line / *error_offset (1-based line; 0-based UTF-16 offset on that line) when not NULL.
 */
cicu_msgfmt *cicu_msgfmt_open(const char *pattern, int32_t length, const char *locale, int32_t *error_line,
                              int32_t *error_offset, int32_t *status);
void cicu_msgfmt_close(cicu_msgfmt *format);
/** Number of distinct argument names used by the pattern (nested ones included). */
int32_t cicu_msgfmt_arg_count(const cicu_msgfmt *format);
/** The i-th argument name (UTF-8); preflight. */
int32_t cicu_msgfmt_arg_name(const cicu_msgfmt *format, int32_t i, char *out, int32_t capacity,
                             int32_t *status);
/** Formats with named arguments; preflight. Not thread-safe for one handle. */
int32_t cicu_msgfmt_format(const cicu_msgfmt *format, const cicu_arg *args, int32_t count, char *out,
                           int32_t capacity, int32_t *status);

/* ---------------------------------------------------------------- Converters */

/**
 * Converts bytes in `charset` ("ISO-8859-1", "windows-1252", "Shift_JIS", "GB18030", "Big5", …) to
 * UTF-8. With `strict` != 0 an unmappable or invalid sequence fails with CICU_INVALID_CHAR_FOUND and
 * *error_offset (when not NULL) receives its byte offset; otherwise U+FFFD is substituted. Preflight.
 */
int32_t cicu_convert_to_utf8(const char *charset, const char *bytes, int32_t length, int32_t strict,
                             char *out, int32_t capacity, int32_t *error_offset, int32_t *status);
/** Converts UTF-8 to `charset`; preflight. */
int32_t cicu_convert_from_utf8(const char *charset, const char *utf8, int32_t length, char *out,
                               int32_t capacity, int32_t *status);

/* ---------------------------------------------------------------- IDNA (UTS #46) */

typedef struct cicu_idna cicu_idna;

/* Options of cicu_idna_open (the values of ICU's UIDNA_* options). */
enum {
    CICU_IDNA_DEFAULT = 0,
    CICU_IDNA_USE_STD3_RULES = 2,            /* only letters, digits and '-' in labels */
    CICU_IDNA_CHECK_BIDI = 4,                /* RFC 5893 bidi rules */
    CICU_IDNA_CHECK_CONTEXTJ = 8,            /* RFC 5892 ContextJ rules (ZWJ/ZWNJ) */
    CICU_IDNA_NONTRANSITIONAL_TO_ASCII = 0x10, /* IDNA2008: ß, ς, ZWJ/ZWNJ kept, not mapped */
    CICU_IDNA_CHECK_CONTEXTO = 0x40,         /* RFC 5892 ContextO rules */
};

/* Error bits reported by cicu_idna_name_to_ascii (the values of ICU's UIDNA_ERROR_*). */
enum {
    CICU_IDNA_ERROR_EMPTY_LABEL = 0x1,
    CICU_IDNA_ERROR_LABEL_TOO_LONG = 0x2,
    CICU_IDNA_ERROR_DOMAIN_NAME_TOO_LONG = 0x4,
    CICU_IDNA_ERROR_LEADING_HYPHEN = 0x8,
    CICU_IDNA_ERROR_TRAILING_HYPHEN = 0x10,
    CICU_IDNA_ERROR_HYPHEN_3_4 = 0x20,
    CICU_IDNA_ERROR_LEADING_COMBINING_MARK = 0x40,
    CICU_IDNA_ERROR_DISALLOWED = 0x80,
    CICU_IDNA_ERROR_PUNYCODE = 0x100,
    CICU_IDNA_ERROR_LABEL_HAS_DOT = 0x200,
    CICU_IDNA_ERROR_INVALID_ACE_LABEL = 0x400,
    CICU_IDNA_ERROR_BIDI = 0x800,
    CICU_IDNA_ERROR_CONTEXTJ = 0x1000,
    CICU_IDNA_ERROR_CONTEXTO_PUNCTUATION = 0x2000,
    CICU_IDNA_ERROR_CONTEXTO_DIGITS = 0x4000,
};

/** Opens a UTS #46 IDNA processor (`uidna_openUTS46`) with CICU_IDNA_* options. Thread-safe once open. */
cicu_idna *cicu_idna_open(uint32_t options, int32_t *status);
void cicu_idna_close(cicu_idna *idna);
/**
 * UTS #46 ToASCII of a whole domain name (`uidna_nameToASCII_UTF8`): mapping (width, case, …),
 * normalization, validation and Punycode. The IDNA problems found are OR-ed CICU_IDNA_ERROR_* bits in
 * *errors (0 when the name is valid; the output is then usable). Preflight.
 */
int32_t cicu_idna_name_to_ascii(const cicu_idna *idna, const char *name, int32_t length, char *out,
                                int32_t capacity, uint32_t *errors, int32_t *status);

/* ---------------------------------------------------------------- Locales */

enum {
    CICU_LOCALE_CANONICAL_TAG = 0, /* canonical BCP 47 tag ("zh_CN" → "zh-CN", "iw" → "he") */
    CICU_LOCALE_ADD_LIKELY = 1,    /* "zh-HK" → "zh-Hant-HK" */
    CICU_LOCALE_MINIMIZE = 2,      /* "zh-Hans-CN" → "zh" */
};
/** Transforms a locale identifier (BCP 47 or ICU form) and returns a BCP 47 tag; preflight. */
int32_t cicu_locale_transform(const char *locale, int32_t operation, char *out, int32_t capacity,
                              int32_t *status);
/** 1 when the locale's script is written right to left. */
int32_t cicu_locale_is_rtl(const char *locale);
/** 1 when ICU has a name for the locale's language ("en", "tlh", "und"), 0 when not ("xx", "qaa"). */
int32_t cicu_locale_language_is_known(const char *locale);

/* ---------------------------------------------------------------- Display width */

/** Terminal columns of UTF-8 text, counted per extended grapheme cluster (ICU's character break
 *  iterator): 2 when the cluster's first code point is East Asian Wide or Fullwidth or has emoji
 *  presentation (or the cluster asks for it with U+FE0F), 0 when every code point of the cluster is a
 *  mark, a format or control character or default-ignorable (combining accents alone, ZWJ, RLM), else 1.
 *  Right-to-left letters count 1 like any narrow letter; their order on screen does not change it. */
int32_t cicu_display_width(const char *utf8, int32_t length, int32_t *status);

/* ---------------------------------------------------------------- Number formatters (kept open) */

typedef struct cicu_numfmt cicu_numfmt;

/** A number formatter for a locale and an ICU number skeleton, kept open for many numbers. Thread-safe. */
cicu_numfmt *cicu_numfmt_open(const char *locale, const char *skeleton, int32_t *status);
void cicu_numfmt_close(cicu_numfmt *format);
/**
 * Formats `decimal` (UTF-8 decimal string) when not NULL, else `value`. Preflight for the text. When
 * `fields` is not NULL, writes up to `field_capacity` triples (ICU UNumberFormatFields id, UTF-8 begin,
 * UTF-8 end) and the number of triples ICU reported to *field_count.
 */
int32_t cicu_numfmt_format(const cicu_numfmt *format, double value, const char *decimal, char *out,
                           int32_t capacity, int32_t *fields, int32_t field_capacity, int32_t *field_count,
                           int32_t *status);
/** The plural keyword of the number as `format` shows it (its rounding and digits). Preflight. */
int32_t cicu_numfmt_plural(const cicu_numfmt *format, const cicu_plural *rules, double value, const char *decimal,
                           char *keyword, int32_t capacity, int32_t *status);

#ifdef __cplusplus
}
#endif

#endif /* CICU_H */
