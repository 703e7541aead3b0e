#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H
/* Plain-C bridge over libphonenumber (C++). Only <stdint.h> types cross this boundary; every C++
 * exception is caught inside. Strings are UTF-8 (pointer, length); outputs are preflighted: a call returns
 * the length it needs and sets CPHONE_BUFFER_OVERFLOW when `capacity` was too small. A status > 0 is an
 * error. */
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

enum {
    CPHONE_OK = 0,
    CPHONE_BUFFER_OVERFLOW = 1,    /* output buffer too small; call again with the returned length */
    CPHONE_NOT_A_NUMBER = 2,       /* the text does not look like a phone number */
    CPHONE_INVALID_COUNTRY = 3,    /* no "+" country code and the default region is unknown */
    CPHONE_TOO_SHORT = 4,          /* too few digits */
    CPHONE_TOO_LONG = 5,           /* too many digits */
    CPHONE_INTERNAL_ERROR = 6      /* an exception inside libphonenumber */
};

/* Number types, same order as libphonenumber's PhoneNumberUtil::PhoneNumberType. */
enum {
    CPHONE_TYPE_FIXED_LINE = 0,
    CPHONE_TYPE_MOBILE = 1,
    CPHONE_TYPE_FIXED_LINE_OR_MOBILE = 2,
    CPHONE_TYPE_TOLL_FREE = 3,
    CPHONE_TYPE_PREMIUM_RATE = 4,
    CPHONE_TYPE_SHARED_COST = 5,
    CPHONE_TYPE_VOIP = 6,
    CPHONE_TYPE_PERSONAL_NUMBER = 7,
    CPHONE_TYPE_PAGER = 8,
    CPHONE_TYPE_UAN = 9,
    CPHONE_TYPE_VOICEMAIL = 10,
    CPHONE_TYPE_UNKNOWN = 11
};

/* What cphone_parse learnt about a number. The three formatted strings are written one after the other
 * (no terminators) into the caller's buffer; their lengths are below. */
typedef struct cphone_info {
    int32_t country_code;          /* e.g. 1, 49 */
    int32_t is_possible;           /* 1 when the length fits the region (a local-only number is not) */
    int32_t is_valid;              /* 1 when the number matches a valid pattern */
    int32_t type;                  /* CPHONE_TYPE_* */
    int32_t e164_length;           /* "+14155550100" */
    int32_t international_length;  /* "+1 415-555-0100" */
    int32_t national_length;       /* "(415) 555-0100" */
    char region[4];                /* region of the number ("US"), NUL-terminated, "" when unknown */
} cphone_info;

/* Parses `text` (`length` UTF-8 bytes) with `default_region` (ISO 3166 alpha-2, NUL-terminated; "ZZ" or ""
 * for none). Fills `info`, writes E.164 + international + national into `out` and returns their total
 * length. On a parse error returns 0 with *status set (> 0). */
int32_t cphone_parse(const char *text, int32_t length, const char *default_region, cphone_info *info,
                     char *out, int32_t capacity, int32_t *status);

/* The country calling code of `region` ("DE" → 49), 0 when unknown. */
int32_t cphone_country_code_for_region(const char *region);

/* Only the E.164 form of `text` (what cphone_parse gives as e164 when is_possible is 1): parse, check that
 * the length is possible, format. No validity, type, region or national formats, so it is several times
 * cheaper. Writes "+<digits>" (no terminator) into `out` and returns its length; returns 0 when the text
 * does not parse (*status > 0) or its length is not possible for its region (*status stays 0). */
int32_t cphone_e164(const char *text, int32_t length, const char *default_region, char *out, int32_t capacity,
                    int32_t *status);

/* What libphonenumber's metadata says about one country calling code, as far as parsing "+<code><number>"
 * is concerned: the metadata of the code's main region (or of the non-geographical entity). */
typedef struct cphone_calling_code {
    int32_t country_code;          /* e.g. 1, 44, 800 */
    uint32_t possible_lengths;     /* bit n set: a national significant number of n digits is possible (n ≤ 17) */
    int32_t national_prefix_kind;  /* CPHONE_PREFIX_* */
    char national_prefix[12];      /* the national prefix for parsing when CPHONE_PREFIX_LITERAL, NUL-terminated */
} cphone_calling_code;

enum {
    CPHONE_PREFIX_NONE = 0,        /* no national prefix for parsing: nothing is ever stripped */
    CPHONE_PREFIX_LITERAL = 1,     /* a plain run of digits (stripped only from numbers that start with it) */
    CPHONE_PREFIX_PATTERN = 2      /* a regular expression */
};

/* Writes up to `capacity` calling codes into `out` (ascending) and returns how many libphonenumber supports. */
int32_t cphone_calling_codes(cphone_calling_code *out, int32_t capacity);

/* For a calling code whose national prefix for parsing is a pattern: 0 when the pattern cannot match at
 * the start of any national number beginning with `digits` (`length` ASCII digits), 1 when it may (it
 * matches, or more digits could decide), -1 on an error. */
int32_t cphone_national_prefix_may_match(int32_t country_code, const char *digits, int32_t length);

/* The calling code of `region` (ISO 3166 alpha-2) when it is the main region of that code (whose metadata
 * cphone_calling_codes describes), else 0 (unknown, or e.g. "CA", which shares 1 with the main region "US"). */
int32_t cphone_main_region_calling_code(const char *region);

/* For numbers written without "+" in `region`: 0 when the region's international (IDD) prefix cannot match at
 * the start of a number beginning with `digits` (`length` ASCII digits), 1 when it may (it matches, or more
 * digits could decide), -1 on an error or an unknown region. */
int32_t cphone_international_prefix_may_match(const char *region, const char *digits, int32_t length);

#ifdef __cplusplus
}
#endif
#endif
