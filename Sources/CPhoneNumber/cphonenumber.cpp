// Plain-C bridge over libphonenumber. Owns no policy: parse, validate, format. Every exception stops here.
#include "cphonenumber.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include <unicode/regex.h>
#include <unicode/unistr.h>

#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

// The compiled-in metadata of libphonenumber (exported by the library; its header is not installed).
namespace i18n {
namespace phonenumbers {
int metadata_size();
const void *metadata_get();
}  // namespace phonenumbers
}  // namespace i18n

using i18n::phonenumbers::PhoneMetadata;
using i18n::phonenumbers::PhoneMetadataCollection;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static int32_t map_error(PhoneNumberUtil::ErrorType error) {
    switch (error) {
    case PhoneNumberUtil::NO_PARSING_ERROR: return CPHONE_OK;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return CPHONE_INVALID_COUNTRY;
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD:
    case PhoneNumberUtil::TOO_SHORT_NSN: return CPHONE_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG_NSN: return CPHONE_TOO_LONG;
    default: return CPHONE_NOT_A_NUMBER;
    }
}

/// libphonenumber's Parse of (text, length) with `default_region` ("ZZ" when empty); false with *status
/// set when it does not parse.
static bool parse_number(const PhoneNumberUtil *util, const char *text, int32_t length, const char *default_region,
                         PhoneNumber *number, int32_t *status) {
    std::string input(text == nullptr ? "" : text, static_cast<size_t>(length));
    std::string region(default_region == nullptr || default_region[0] == '\0' ? "ZZ" : default_region);
    PhoneNumberUtil::ErrorType error = util->Parse(input, region, number);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
        *status = map_error(error);
        return false;
    }
    return true;
}

extern "C" int32_t cphone_parse(const char *text, int32_t length, const char *default_region, cphone_info *info,
                                char *out, int32_t capacity, int32_t *status) {
    if (status == nullptr || *status > 0) return 0;
    if (info == nullptr || (text == nullptr && length != 0) || length < 0 || capacity < 0 ||
        (out == nullptr && capacity > 0)) {
        *status = CPHONE_INTERNAL_ERROR;
        return 0;
    }
    try {
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        if (!parse_number(util, text, length, default_region, &number, status)) return 0;
        std::string e164, international, national, number_region;
        util->Format(number, PhoneNumberUtil::E164, &e164);
        util->Format(number, PhoneNumberUtil::INTERNATIONAL, &international);
        util->Format(number, PhoneNumberUtil::NATIONAL, &national);
        util->GetRegionCodeForNumber(number, &number_region);
        info->country_code = number.country_code();
        info->is_possible = util->IsPossibleNumberWithReason(number) == PhoneNumberUtil::IS_POSSIBLE ? 1 : 0;
        info->is_valid = util->IsValidNumber(number) ? 1 : 0;
        info->type = static_cast<int32_t>(util->GetNumberType(number));
        info->e164_length = static_cast<int32_t>(e164.size());
        info->international_length = static_cast<int32_t>(international.size());
        info->national_length = static_cast<int32_t>(national.size());
        std::memset(info->region, 0, sizeof info->region);
        if (number_region.size() < sizeof info->region && number_region != "ZZ") {
            std::memcpy(info->region, number_region.data(), number_region.size());
        }
        const size_t total = e164.size() + international.size() + national.size();
        if (total > static_cast<size_t>(capacity)) {
            *status = CPHONE_BUFFER_OVERFLOW;
            return static_cast<int32_t>(total);
        }
        std::memcpy(out, e164.data(), e164.size());
        std::memcpy(out + e164.size(), international.data(), international.size());
        std::memcpy(out + e164.size() + international.size(), national.data(), national.size());
        return static_cast<int32_t>(total);
    } catch (...) {
        *status = CPHONE_INTERNAL_ERROR;
        return 0;
    }
}

extern "C" int32_t cphone_country_code_for_region(const char *region) {
    if (region == nullptr) return 0;
    try {
        return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(std::string(region));
    } catch (...) {
        return 0;
    }
}

extern "C" int32_t cphone_e164(const char *text, int32_t length, const char *default_region, char *out,
                               int32_t capacity, int32_t *status) {
    if (status == nullptr || *status > 0) return 0;
    if ((text == nullptr && length != 0) || length < 0 || capacity < 0 || (out == nullptr && capacity > 0)) {
        *status = CPHONE_INTERNAL_ERROR;
        return 0;
    }
    try {
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        if (!parse_number(util, text, length, default_region, &number, status)) return 0;
        if (util->IsPossibleNumberWithReason(number) != PhoneNumberUtil::IS_POSSIBLE) return 0;
        std::string e164;
        util->Format(number, PhoneNumberUtil::E164, &e164);
        if (e164.size() > static_cast<size_t>(capacity)) {
            *status = CPHONE_BUFFER_OVERFLOW;
            return static_cast<int32_t>(e164.size());
        }
        std::memcpy(out, e164.data(), e164.size());
        return static_cast<int32_t>(e164.size());
    } catch (...) {
        *status = CPHONE_INTERNAL_ERROR;
        return 0;
    }
}

namespace {
// libphonenumber's compiled-in metadata collection, parsed once (thread-safe static initialisation); empty
// when it cannot be parsed.
const PhoneMetadataCollection &metadataCollection() {
    static const PhoneMetadataCollection collection = [] {
        PhoneMetadataCollection c;
        if (!c.ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size())) c.Clear();
        return c;
    }();
    return collection;
}

// The main metadata of every supported calling code, shared by the functions below.
const std::map<int, const PhoneMetadata *> &mainMetadata() {
    static const std::map<int, const PhoneMetadata *> byCode = [] {
        std::map<int, const PhoneMetadata *> map;
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        std::set<int> codes;
        util->GetSupportedCallingCodes(&codes);
        for (int code : codes) {
            std::string region;
            util->GetRegionCodeForCountryCode(code, &region);
            for (const PhoneMetadata &m : metadataCollection().metadata()) {
                if (m.id() == region && (region != "001" || m.country_code() == code)) {
                    map[code] = &m;
                    break;
                }
            }
        }
        return map;
    }();
    return byCode;
}

// Every region's metadata (main or not), by region code.
const std::map<std::string, const PhoneMetadata *> &regionMetadata() {
    static const std::map<std::string, const PhoneMetadata *> byRegion = [] {
        std::map<std::string, const PhoneMetadata *> map;
        for (const PhoneMetadata &m : metadataCollection().metadata()) {
            if (m.id() != "001") map.emplace(m.id(), &m);
        }
        return map;
    }();
    return byRegion;
}
}  // namespace

extern "C" int32_t cphone_calling_codes(cphone_calling_code *out, int32_t capacity) {
    try {
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        int32_t count = 0;
        for (const auto &[code, metadata] : mainMetadata()) {
            cphone_calling_code info;
            std::memset(&info, 0, sizeof info);
            info.country_code = code;
            for (int n = 1; n <= 17; ++n) {
                PhoneNumber number;
                number.set_country_code(code);
                uint64_t national = 1;
                for (int k = 1; k < n; ++k) national *= 10;
                number.set_national_number(national);
                if (util->IsPossibleNumberWithReason(number) == PhoneNumberUtil::IS_POSSIBLE) {
                    info.possible_lengths |= 1u << n;
                }
            }
            const std::string &prefix = metadata->national_prefix_for_parsing();
            if (prefix.empty()) {
                info.national_prefix_kind = CPHONE_PREFIX_NONE;
            } else if (prefix.size() < sizeof info.national_prefix &&
                       prefix.find_first_not_of("0123456789") == std::string::npos) {
                info.national_prefix_kind = CPHONE_PREFIX_LITERAL;
                std::memcpy(info.national_prefix, prefix.data(), prefix.size());
            } else {
                info.national_prefix_kind = CPHONE_PREFIX_PATTERN;
            }
            if (count < capacity && out != nullptr) out[count] = info;
            ++count;
        }
        return count;
    } catch (...) {
        return 0;
    }
}

namespace {
// Patterns (libphonenumber's national prefixes for parsing and international prefixes) compiled as
// libphonenumber compiles them (ICU, no flags), each on first use, by a key naming the pattern.
struct PrefixPatterns {
    std::mutex lock;
    std::map<std::string, std::unique_ptr<icu::RegexPattern>> compiled;
};

PrefixPatterns &prefixPatterns() {
    static PrefixPatterns patterns;
    return patterns;
}

// 1 when `source` matches at the start of `digits` or could with more digits, 0 when it cannot, -1 on an
// error.
int32_t mayMatchAtStart(const std::string &key, const std::string &source, const char *digits, int32_t length) {
    if (source.empty()) return 0;
    PrefixPatterns &p = prefixPatterns();
    std::unique_ptr<icu::RegexMatcher> matcher;
    {
        std::lock_guard<std::mutex> guard(p.lock);
        auto &pattern = p.compiled[key];
        if (!pattern) {
            UErrorCode status = U_ZERO_ERROR;
            UParseError parseError;
            pattern.reset(icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(source), 0, parseError, status));
            if (U_FAILURE(status)) {
                pattern.reset();
                return -1;
            }
        }
        UErrorCode status = U_ZERO_ERROR;
        matcher.reset(pattern->matcher(status));
        if (U_FAILURE(status) || !matcher) return -1;
    }
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(std::string(digits, static_cast<size_t>(length)));
    UErrorCode status = U_ZERO_ERROR;
    matcher->reset(text);
    const bool matched = matcher->lookingAt(status);
    if (U_FAILURE(status)) return -1;
    return matched || matcher->hitEnd() ? 1 : 0;
}
}  // namespace

extern "C" int32_t cphone_national_prefix_may_match(int32_t country_code, const char *digits, int32_t length) {
    if (digits == nullptr || length < 0) return -1;
    try {
        auto metadata = mainMetadata().find(country_code);
        if (metadata == mainMetadata().end()) return 0;
        return mayMatchAtStart(
            "national " + std::to_string(country_code), metadata->second->national_prefix_for_parsing(), digits, length);
    } catch (...) {
        return -1;
    }
}

extern "C" int32_t cphone_main_region_calling_code(const char *region) {
    if (region == nullptr) return 0;
    try {
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        const int code = util->GetCountryCodeForRegion(std::string(region));
        if (code == 0) return 0;
        std::string main;
        util->GetRegionCodeForCountryCode(code, &main);
        return main == region ? code : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int32_t cphone_international_prefix_may_match(const char *region, const char *digits, int32_t length) {
    if (region == nullptr || digits == nullptr || length < 0) return -1;
    try {
        auto metadata = regionMetadata().find(std::string(region));
        if (metadata == regionMetadata().end()) return -1;
        return mayMatchAtStart(
            "international " + std::string(region), metadata->second->international_prefix(), digits, length);
    } catch (...) {
        return -1;
    }
}
